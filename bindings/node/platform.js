'use strict';
// Which prebuilt binaries this machine can use: "<platform>-<arch>-<libc>" (linux-x64-glibc),
// the name of their folder under prebuilds/. NULL where boxlint cannot tell.
function libc() {
  if (process.platform !== 'linux') return '';
  const report = process.report && process.report.getReport ? process.report.getReport() : null;
  const header = report && (typeof report === 'string' ? JSON.parse(report) : report).header;
  return header && header.glibcVersionRuntime ? 'glibc' : 'musl';
}

function platformDir() {
  const c = libc();
  return `${process.platform}-${process.arch}${c ? '-' + c : ''}`;
}

module.exports = { platformDir };
