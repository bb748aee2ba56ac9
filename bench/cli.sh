#!/usr/bin/env bash
# The boxlint command as a pre-commit hook runs it: wall clock for one small template (median
# over many runs, hyperfine) and peak memory on a 64 x 4 KB template (GNU time).
# Usage: bench/cli.sh [BUILD_DIR]
set -euo pipefail
build="${1:-$(cd "$(dirname "$0")/.." && pwd)/build/release}"
bin="$build/cli/boxlint"
[ -x "$bin" ] || { echo "cli.sh: $bin not found (make bench builds it)" >&2; exit 2; }
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
python3 - "$tmp" <<'PY'
import json, sys
d = sys.argv[1]
json.dump({"name": "small", "commands": ["RUN pip install --no-cache-dir pydantic-ai", "ENV A=1",
           "WORKDIR /home/user"], "cpu_count": 2, "memory_mb": 4096}, open(d + "/small.json", "w"))
json.dump(["RUN echo " + "a" * 4086 for _ in range(64)], open(d + "/big64.json", "w"))
PY
if command -v hyperfine >/dev/null; then
  hyperfine -N --warmup 20 --runs 500 --export-json "$tmp/h.json" "$bin $tmp/small.json" >/dev/null
  python3 -c "import json; r=json.load(open('$tmp/h.json'))['results'][0]; print('boxlint on one small template: median %.2f ms, mean %.2f ms, min %.2f ms over %d runs (hyperfine)' % (r['median']*1e3, r['mean']*1e3, r['min']*1e3, len(r['times'])))"
else
  echo "hyperfine not installed (apt-get install hyperfine): skipped the wall-clock figure"
fi
if [ -x /usr/bin/time ]; then
  /usr/bin/time -f '%M' -o "$tmp/rss" "$bin" "$tmp/big64.json" >/dev/null || true
  echo "boxlint on a 64 x 4 KB template: peak RSS $(cat "$tmp/rss") KB"
else
  echo "GNU time not installed (apt-get install time): skipped the peak-memory figure"
fi
