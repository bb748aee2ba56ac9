#!/usr/bin/env node
'use strict';
// `npx boxlint FILE...`: the boxlint command this package carries for this platform, run with
// the same arguments, standard streams and exit code (0 clean, 1 findings, 2 usage or input).
const { spawnSync } = require('child_process');
const fs = require('fs');
const path = require('path');
const { platformDir } = require('../platform');

const dir = platformDir();
const exe = path.join(__dirname, '..', 'prebuilds', dir, 'boxlint');
if (!fs.existsSync(exe)) {
  const have = fs.existsSync(path.join(__dirname, '..', 'prebuilds'))
    ? fs.readdirSync(path.join(__dirname, '..', 'prebuilds')).join(', ') : 'none';
  console.error(`boxlint: this package has no boxlint command for ${dir} (it carries: ${have}); ` +
                'build boxlint from source (make build) and run build/release/cli/boxlint');
  process.exit(2);
}
const r = spawnSync(exe, process.argv.slice(2), { stdio: 'inherit' });
if (r.error) {
  console.error(`boxlint: cannot run ${exe}: ${r.error.message}`);
  process.exit(2);
}
process.exit(r.status === null ? 2 : r.status);
