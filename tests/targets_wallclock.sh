#!/usr/bin/env bash
# --minimize-time M bounds a campaign's wall clock past its finding, even
# when the finding is a hang that every replay of the minimization repeats
# (docs/FUZZING.md, campaign invariants): a sweep with --stop-on-new on a
# target that hangs on every 3-row batch; its wall time at most F + M +
# SLACK seconds (F: when the campaign says it found the hang; the start, the
# stop, the reports), and F itself within the budget S. Not a fixed --time
# to find the hang in: seed 5's first 3-row batch is the 93rd case, found
# after 8 s alone but after 28 s on a loaded 2-core machine (a 15 s budget
# then ran out with 0 execs). Skips (77) without torch.
#   targets_wallclock.sh PYTHON GMFUZZ TARGET OUT S M SLACK
set -u
python="$1" gmfuzz="$2" target="$3" out="$4" time_s="$5" minimize_s="$6" slack="$7"
if ! "$python" -c "import torch" >/dev/null 2>&1; then
  echo "SKIP: $python cannot import torch"
  exit 77
fi
rm -rf "$out"; mkdir -p "$(dirname "$out")"  # a fresh tree: no other test made it
start=$(date +%s.%N)
GMFUZZ_PYTHON="$python" "$gmfuzz" sweep --target "$target" --target-device cpu \
  --target-timeout 2 --target-compile-timeout 2 --jobs 1 --seed 5 --batch 8 \
  --time "$time_s" --stop-on-new --minimize-time "$minimize_s" --out "$out" >"$out.log" 2>&1
rc=$?
wall=$(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')
tail -25 "$out.log"
[ "$rc" = 1 ] || { echo "FAIL: exit $rc, expected 1 (the hang found)"; exit 1; }
grep -q "target_hung" "$out.log" || { echo "FAIL: no target_hung signature"; exit 1; }
found=$(sed -nE 's/.*target_hung.*first after ([0-9.]+) s and .*/\1/p' "$out.log" | head -1)
[ -n "$found" ] || { echo "FAIL: the summary does not say when the hang was found"; exit 1; }
bound=$(awk -v f="$found" -v m="$minimize_s" -v s="$slack" 'BEGIN { printf "%.1f", f + m + s }')
echo "exit $rc, found after ${found} s, wall ${wall} s, bound ${bound} s"
if awk -v f="$found" -v t="$time_s" 'BEGIN { exit !(f > t) }'; then
  echo "FAIL: found after ${found} s, past --time ${time_s}"
  exit 1
fi
if awk -v w="$wall" -v b="$bound" 'BEGIN { exit !(w > b) }'; then
  echo "FAIL: the campaign took ${wall} s, past its finding + --minimize-time + ${slack} s"
  exit 1
fi
echo "ok"
