'use strict';
// The errors this package throws (lib/error_classes.js), and the check of a C call's status.
const { C, OK, ENOMEM } = require('./ffi');

const {
  BoxlintError, ValidationError, PolicyError, ConfigError, ClosedError,
} = require('./error_classes');

function checkStatus(st, what) {
  if (st === OK) return;
  if (st === ENOMEM) throw new RangeError(`boxlint: out of memory in ${what}`);
  throw new BoxlintError(`boxlint: ${what} failed: ${C.status_str(st)}`);
}

module.exports = {
  BoxlintError,
  ValidationError,
  PolicyError,
  ConfigError,
  ClosedError,
  checkStatus,
};
