#!/usr/bin/env bash
# gmfuzz decode: an engine's raw input becomes a case document that the
# other commands read (run, show and minimize also take the raw input); the same bytes always give the same document, and
# every byte string (the empty one too) decodes.
#   decode_check.sh GMFUZZ SEED_DIR OUT
set -u
gmfuzz="$1" seeds="$2" out="$3"
rm -rf "$out"; mkdir -p "$out"
n=0
for seed in "$seeds"/*; do
  [ $n -ge 20 ] && break
  n=$((n + 1))
  "$gmfuzz" decode "$seed" -o "$out/a.json" || { echo "FAIL: decode $seed"; exit 1; }
  "$gmfuzz" decode "$seed" > "$out/b.json" || { echo "FAIL: decode $seed to stdout"; exit 1; }
  "$gmfuzz" decode "$out/a.json" -o /dev/null || { echo "FAIL: decode of any bytes"; exit 1; }
  [ -c /dev/null ] || { echo "FAIL: decode -o /dev/null replaced /dev/null with a file"; exit 1; }
  cmp -s <("$gmfuzz" run --json "$out/a.json") <("$gmfuzz" run --json "$out/b.json") ||
    { echo "FAIL: $seed decodes to two cases"; exit 1; }
  cmp -s <("$gmfuzz" run --json "$seed") <("$gmfuzz" run --json "$out/a.json") ||
    { echo "FAIL: run of the raw $seed differs from run of its decoded case"; exit 1; }
  "$gmfuzz" run "$out/a.json" > "$out/run.txt"; rc=$?
  { [ $rc = 0 ] || [ $rc = 1 ]; } && grep -q "^case:" "$out/run.txt" ||
    { echo "FAIL: run of the decoded $seed: exit $rc"; cat "$out/run.txt"; exit 1; }
done
: > "$out/empty"
"$gmfuzz" decode "$out/empty" | grep -q '"format":.*"gmfuzz-case-v1"' ||
  { echo "FAIL: the empty input does not decode"; exit 1; }
"$gmfuzz" decode "$out/missing" 2>/dev/null; rc=$?
[ $rc = 3 ] || { echo "FAIL: a missing file: exit $rc, expected 3"; exit 1; }
[ $n -gt 0 ] || { echo "FAIL: no seeds in $seeds"; exit 1; }
# An engine's input straight into minimize: a reproducer that replays.
for seed in "$seeds"/*; do
  "$gmfuzz" run "$seed" >/dev/null 2>&1 && continue
  "$gmfuzz" minimize "$seed" -o "$out/min.json" >/dev/null 2>&1 ||
    { echo "FAIL: minimize of the raw input $seed"; exit 1; }
  "$gmfuzz" show "$seed" | grep -q "^case: decoded from" || { echo "FAIL: show of $seed"; exit 1; }
  "$gmfuzz" replay "$out/min.json" | grep -q "^1 passed, 0 failed" ||
    { echo "FAIL: the reproducer minimized from $seed does not replay"; exit 1; }
  break
done
echo "ok: $n seeds decoded, run and decoded again the same"
