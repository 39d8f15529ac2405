#!/usr/bin/env bash
# Peak memory and time of the document reader on big cases (issue 11, item 6):
# `gmfuzz run` on a case of N zeros (2 bytes each: "0,") in req_to_token,
# and on a case of 4-byte elements ("123,"), measured with /usr/bin/time -v.
# The target: at most ~24 bytes per integer plus a constant (the 132 MB case
# of 66M zeros: <= 1.6 GB, <= 10 s in a Release build).
#
#   bench/reader_memory.sh [--build DIR] [--out DIR] [--zeros N] [--wide N]
#     --build  the tree whose cli/gmfuzz runs (default build/release)
#     --out    where the cases are written (default DIR/bench-reader, under the tree)
#     --zeros  integers in the zeros case (default 66060288: 63 rows of 2^20, 132 MB)
#     --wide   integers in the 4-byte case (default 50331648: 48 rows of 2^20, 201 MB)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="$root/build/release"
out=""
zeros=66060288
wide=50331648
while [ $# -gt 0 ]; do
  case "$1" in
    --build) build="$2"; shift 2 ;;
    --out) out="$2"; shift 2 ;;
    --zeros) zeros="$2"; shift 2 ;;
    --wide) wide="$2"; shift 2 ;;
    -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) echo "reader_memory: unknown argument $1" >&2; exit 2 ;;
  esac
done
out="${out:-$build/bench-reader}"
gmfuzz="$build/cli/gmfuzz"
[ -x "$gmfuzz" ] || { echo "reader_memory: build $gmfuzz first" >&2; exit 2; }
[ -x /usr/bin/time ] || { echo "reader_memory: /usr/bin/time is needed" >&2; exit 77; }
mkdir -p "$out"

# A decode case of `n` integers `value`, in rows of at most 2^20 (the width limit).
make_case() {
  python3 - "$1" "$2" "$3" <<'PY'
import sys
path, n, value = sys.argv[1], int(sys.argv[2]), sys.argv[3]
width = min(n, 1 << 20)
rows = n // width
row = "[" + ",".join([value] * width) + "]"
with open(path, "w") as f:
    f.write('{"format":"gmfuzz-case-v1","mode":"decode","page_size":1,"max_context_len":1,'
            '"req_to_token":[')
    for r in range(rows):
        f.write(("," if r else "") + row)
    f.write('],"req_pool_indices":[0],"seq_lens":[1]}')
PY
}

measure() {
  local name="$1" path="$2" n="$3"
  /usr/bin/time -v "$gmfuzz" run "$path" > "$out/$name.out" 2> "$out/$name.time" || true
  local rss wall
  rss=$(awk -F': ' '/Maximum resident set size/ {print $2}' "$out/$name.time")
  wall=$(awk -F': ' '/Elapsed \(wall clock\)/ {print $2}' "$out/$name.time")
  printf '%-6s %10d integers %8.1f MB file: peak RSS %7.1f MB (%.1f bytes/integer), %s wall; %s\n' \
    "$name" "$n" "$(($(stat -c %s "$path") / 1000))e-3" "$((rss / 1000))e0" \
    "$(awk -v r="$rss" -v n="$n" 'BEGIN {print r * 1024 / n}')" "$wall" \
    "$(tail -1 "$out/$name.out" | cut -c1-60)"
}

[ -f "$out/zeros.json" ] || make_case "$out/zeros.json" "$zeros" 0
[ -f "$out/wide.json" ] || make_case "$out/wide.json" "$wide" 123
measure zeros "$out/zeros.json" "$zeros"
measure wide "$out/wide.json" "$wide"
