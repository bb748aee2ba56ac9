// Runs dockerfile-ast (parse) and dockerfile-utils (validate) in-process on the workload that
// bench_check --dump wrote, and prints their throughput beside boxlint's (bench_check --json).
// Usage: node peers.mjs WORKLOAD.json BOXLINT.json   (run by run.sh)
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
const require = createRequire(process.cwd() + "/");
const { DockerfileParser } = require("dockerfile-ast");
const { validate } = require("dockerfile-utils");

const [workloadPath, boxlintPath] = process.argv.slice(2);
const templates = JSON.parse(readFileSync(workloadPath, "utf8"));
const boxlint = JSON.parse(readFileSync(boxlintPath, "utf8"));
// Each template as the Dockerfile text the peers read: its commands joined with newlines.
const texts = templates.map((cmds) => cmds.join("\n"));
const bytes = texts.reduce((n, t) => n + Buffer.byteLength(t), 0);
const commands = templates.reduce((n, t) => n + t.length, 0);

function median(xs) { const s = [...xs].sort((a, b) => a - b); return s[s.length >> 1]; }
function measure(fn, runs = 7, minMs = 300) {
  fn(); // warm-up (JIT)
  const per = [];
  for (let r = 0; r < runs; r++) {
    let reps = 0;
    const t0 = process.hrtime.bigint();
    let t1;
    do { fn(); reps++; t1 = process.hrtime.bigint(); } while (Number(t1 - t0) / 1e6 < minMs);
    per.push(Number(t1 - t0) / 1e9 / reps);
  }
  return median(per);
}

const parseS = measure(() => { for (const t of texts) DockerfileParser.parse(t); });
const validateS = measure(() => { for (const t of texts) validate(t); }, 5, 300);

const row = (name, s) => ({
  name, mbs: bytes / s / 1e6, usPerCmd: s * 1e6 / commands,
});
const rows = [row("dockerfile-ast parse", parseS), row("dockerfile-utils validate", validateS)];
const bl = boxlint.default_mb_s, blw = boxlint.warnings_mb_s;
console.log(`workload: ${templates.length} templates, ${commands} commands, ${(bytes / 1e6).toFixed(2)} MB (the same buffers as bench_check)`);
console.log("");
console.log("                              MB/s   us/command   boxlint (errors) is   boxlint (all warnings) is");
for (const r of rows)
  console.log(`${r.name.padEnd(28)}${r.mbs.toFixed(2).padStart(7)}${r.usPerCmd.toFixed(2).padStart(12)}` +
              `${(bl / r.mbs).toFixed(0).padStart(16)}x faster${(blw / r.mbs).toFixed(0).padStart(17)}x faster`);
console.log(`${"boxlint, errors".padEnd(28)}${bl.toFixed(2).padStart(7)}${(boxlint.default_ns_per_command / 1000).toFixed(2).padStart(12)}`);
console.log(`${"boxlint, all warnings".padEnd(28)}${blw.toFixed(2).padStart(7)}${(boxlint.warnings_ns_per_command / 1000).toFixed(2).padStart(12)}`);
