'use strict';
// C objects owned by a JavaScript object (Config, NetworkPolicy): close(), or the collector.
const { ClosedError } = require('./error_classes');

const registry = new FinalizationRegistry(({ ptr, free }) => free(ptr));

class Owned {
  _own(ptr, free) {
    this._ptr = ptr;
    this._free = free;
    registry.register(this, { ptr, free }, this);
  }

  /** True once close() ran. */
  get closed() {
    return !this._ptr;
  }

  _use() {
    if (!this._ptr) throw new ClosedError(`${this.constructor.name} is closed`);
    return this._ptr;
  }

  /** Free the C object now. Idempotent; later use throws ClosedError. */
  close() {
    if (!this._ptr) return;
    const ptr = this._ptr;
    this._ptr = null;
    registry.unregister(this);
    this._free(ptr);
  }
}
if (typeof Symbol.dispose === 'symbol') {
  Owned.prototype[Symbol.dispose] = function dispose() { this.close(); };
}

module.exports = {
  Owned,
};
