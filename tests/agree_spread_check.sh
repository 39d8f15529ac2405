#!/usr/bin/env bash
# agree --gpus: the cases spread over one process per listed device (here a
# list that repeats one, so it runs anywhere) give the totals of a run in one
# process; a disagreement in any of them is the exit code of the whole.
#   agree_spread_check.sh GMFUZZ VECTORS TORCH_TARGET PYTHON
set -u
gmfuzz=$1 vectors=$2 torch_target=$3 python=$4
fail() { echo "FAIL: $*"; exit 1; }

one=$("$gmfuzz" agree --backends cpu,cpu --cases 300 --seed 5 "$vectors") || fail "one process: $?"
spread=$("$gmfuzz" agree --backends cpu,cpu --cases 300 --seed 5 --gpus 0,0,0 "$vectors") ||
  fail "spread: $?"
grep -qx "spread over 3 processes, devices 0,0,0" <<<"$spread" || fail "no spread line: $spread"
[ "$(tail -n2 <<<"$one")" = "$(tail -n2 <<<"$spread")" ] ||
  fail "totals differ: one process '$(tail -n1 <<<"$one")', spread '$(tail -n1 <<<"$spread")'"
grep -qx "550 passed, 0 failed" <<<"$spread" || fail "not every case ran: $spread"
"$gmfuzz" agree --backends cpu,cpu --gpus 0,x "$vectors" >/dev/null 2>&1
[ $? -eq 2 ] || fail "a bad --gpus list is not a usage error"

if ! "$python" -c "import torch" 2>/dev/null; then
  echo "spread totals ok; no torch for $python: the disagreement half skipped"
  exit 77
fi
export GMFUZZ_PYTHON=$python GMFUZZ_TORCH_FAULT=sentinel_eq_minus1
out=$("$gmfuzz" agree --backends "cpu,$torch_target" --target-device cpu --gpus 0,0 "$vectors")
rc=$?
[ $rc -eq 1 ] || fail "a planted fault in one process: exit $rc, expected 1"
grep -qx "240 passed, 10 failed" <<<"$out" || fail "totals with the fault: $(tail -n1 <<<"$out")"
[ "$(grep -c '^FAIL ' <<<"$out")" -eq 10 ] || fail "not one FAIL line per disagreement"
echo "ok"
