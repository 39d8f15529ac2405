#!/usr/bin/env bash
# --time S plus --minimize-time M bounds a campaign's wall clock, even when
# its finding is a hang that every replay of the minimization repeats
# (docs/FUZZING.md, campaign invariants): a sweep on a target that hangs on
# every 3-row batch, its wall time at most S + M + SLACK seconds (the start,
# the reports). Skips (77) without torch.
#   targets_wallclock.sh PYTHON GMFUZZ TARGET OUT S M SLACK
set -u
python="$1" gmfuzz="$2" target="$3" out="$4" time_s="$5" minimize_s="$6" slack="$7"
if ! "$python" -c "import torch" >/dev/null 2>&1; then
  echo "SKIP: $python cannot import torch"
  exit 77
fi
rm -rf "$out"
start=$(date +%s.%N)
GMFUZZ_PYTHON="$python" "$gmfuzz" sweep --target "$target" --target-device cpu \
  --target-timeout 2 --target-compile-timeout 2 --jobs 1 --seed 5 --batch 8 \
  --time "$time_s" --minimize-time "$minimize_s" --out "$out" >"$out.log" 2>&1
rc=$?
wall=$(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')
tail -25 "$out.log"
bound=$((time_s + minimize_s + slack))
echo "exit $rc, wall ${wall} s, bound ${bound} s"
[ "$rc" = 1 ] || { echo "FAIL: exit $rc, expected 1 (the hang found)"; exit 1; }
grep -q "target_hung" "$out.log" || { echo "FAIL: no target_hung signature"; exit 1; }
if awk -v w="$wall" -v b="$bound" 'BEGIN { exit !(w > b) }'; then
  echo "FAIL: the campaign took ${wall} s, past --time + --minimize-time + ${slack} s"
  exit 1
fi
echo "ok"
