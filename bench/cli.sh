#!/usr/bin/env bash
# The boxlint command as a pre-commit hook runs it: wall clock for one small template (median
# over many runs, hyperfine) and peak memory on a 64 x 4 KB template (GNU time); and the whole
# command on the benchmark workload joined into one Dockerfile fragment (bench_check --dump,
# each command a line or more), warnings on: its median wall clock beside `cat FILE >
# /dev/null` in the same hyperfine run, MB/s, and peak RSS against the stated bound (2x the
# file plus 8 MB).
# Usage: bench/cli.sh [BUILD_DIR]
set -euo pipefail
build="${1:-$(cd "$(dirname "$0")/.." && pwd)/build/release}"
bin="$build/cli/boxlint"
[ -x "$bin" ] || { echo "cli.sh: $bin not found (make bench builds it)" >&2; exit 2; }
bin="$(cd "$(dirname "$bin")" && pwd)/$(basename "$bin")" # absolute: one command runs in $tmp
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
# The workload as one fragment.
"$build/bench/bench_check" --dump "$tmp/wl.json"
python3 -c "import json,sys; open(sys.argv[2],'w').write(''.join(c + '\n' for t in json.load(open(sys.argv[1])) for c in t))" \
  "$tmp/wl.json" "$tmp/big.Dockerfile"
size=$(stat -c %s "$tmp/big.Dockerfile")
if command -v hyperfine >/dev/null; then
  hyperfine -N -i --warmup 3 --runs 30 --export-json "$tmp/b.json" \
    "$bin --no-color $tmp/big.Dockerfile" "cat $tmp/big.Dockerfile" >/dev/null 2>&1
  python3 - "$tmp/b.json" "$size" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))["results"]
n = int(sys.argv[2])
b, c = r[0]["median"], r[1]["median"]
print("boxlint on the workload as one %.2f MB fragment, warnings on: median %.1f ms, %.0f MB/s "
      "(cat FILE > /dev/null: %.1f ms, %.0f MB/s; hyperfine, 30 runs)" % (n / 1e6, b * 1e3, n / b / 1e6, c * 1e3, n / c / 1e6))
PY
fi
# The findings, which a change made for speed must leave as they were: the md5 of the command's
# text output on that fragment (the file named as here, big.Dockerfile in a temporary folder)
# and of every finding of the library on the workload (bench_check --findings).
(cd "$tmp" && "$bin" --no-color big.Dockerfile > out.txt) || true
echo "boxlint on that fragment: output md5 $(md5sum < "$tmp/out.txt" | cut -d' ' -f1) ($(wc -l < "$tmp/out.txt") lines);" \
  "bench_check --findings md5 $("$build/bench/bench_check" --findings | md5sum | cut -d' ' -f1)"
if [ -x /usr/bin/time ]; then
  /usr/bin/time -q -f '%M' -o "$tmp/rss2" "$bin" --no-color "$tmp/big.Dockerfile" >/dev/null || true
  echo "boxlint on that fragment: peak RSS $(cat "$tmp/rss2") KB (bound: 2 x $((size / 1024)) KB + 8192 KB = $((2 * size / 1024 + 8192)) KB)"
fi
