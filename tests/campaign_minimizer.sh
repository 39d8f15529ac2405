#!/usr/bin/env bash
# The minimization runs in child processes (issue 11 items 7 and 9), on a
# slow python: target (tests/slow_target.py, torch; skip 77 without it):
#   second   a second Ctrl-C during the minimization skips what is left
#            of it (a note says so, not the budget's; within 10 s, where
#            the budget had 14 s left); the failures stay, the record and
#            summary are written, exit 1
#   crash    the minimizer child dies of SIGSEGV: that signature gets a
#            note, the next one a fresh child, and the campaign still ends
#            with its record and report (exit 1)
#   budget   --minimize-time 1: the minimization stops at its budget; the
#            signatures it did not reach are saved unminimized (each one a
#            reproducer that replays), and the summary says how many
# No step waits a fixed time for the campaign (a loaded machine starts torch
# late): the jobs are stopped once both signatures are in failures/, a
# minimization is acted on once its line is printed, a budget is --runs.
#   campaign_minimizer.sh GMFUZZ FAKE_TARGET SEEDS OUT PYTHON PART
set -u
gmfuzz="$1" target="$2" seeds="$3" out="$4" python="$5" part="$6"
here="$(cd "$(dirname "$0")" && pwd)"
if ! "$python" -c "import torch" 2>/dev/null; then
  echo "skip: $python has no torch (the slow python: target needs it)"
  exit 77
fi
rm -rf "$out" "$out".*
mkdir -p "$(dirname "$out")"
fail() { echo "FAIL: $*"; tail -20 "$out.stderr"; cat "$out.stdout"; exit 1; }
now_ms() { date +%s%3N; }
if [ "$part" = budget ]; then
  GMFUZZ_PYTHON="$python" FAKE_EXEC_US=1000 "$gmfuzz" fuzz --engine-binary "$target" \
    --target "python:$here/slow_target.py" --target-device cpu --seeds "$seeds" \
    --strict-baseline --jobs 1 --runs 20 --time 240 --minimize-time 1 --out "$out" \
    >"$out.stdout" 2>"$out.stderr"
  rc=$?
  [ "$rc" -eq 1 ] || fail "exit $rc, expected 1"
  line=$(grep -E "^  minimization: 1 s budget \(--minimize-time\) spent: [0-9]+ reproducers? saved unminimized, [0-9]+ minimized part of the way$" "$out.stdout") \
    || fail "the summary does not say what the budget left unminimized"
  counted=$(echo "$line" | awk '{ print $7 + $(NF-5) }')
  sigs=$(grep -c "^  signature " "$out.stdout")
  late=$(grep -cE "^    repro: .*(not|partly) minimized: out of time" "$out.stdout")
  [ "$counted" -ge 1 ] && [ "$counted" -eq "$late" ] \
    || fail "summary counts $counted out of time, $late repro lines say so ($sigs signatures)"
  n=$(ls "$out"/repros/*.json | wc -l)
  [ "$n" -eq "$sigs" ] || fail "$n reproducers for $sigs signatures: some were lost"
  [ "$(grep -l '"minimized":false' "$out"/repros/*.json | wc -l)" -ge "$late" ] \
    || fail "a reproducer saved out of time does not record minimized: false"
  GMFUZZ_PYTHON="$python" "$gmfuzz" replay --target "python:$here/slow_target.py" --target-device cpu "$out/repros" \
    >"$out.replay" 2>&1 || fail "the reproducers do not replay: $(tail -3 "$out.replay")"
  echo "ok: minimization budget: $late of $sigs reproducers saved out of time, all replay"
  exit 0
fi
# Waits (at most 120 s) until `test CONDITION` holds; false if it never did.
until_true() {
  for _ in $(seq 1200); do
    eval "$1" && return 0
    sleep 0.1
  done
  return 1
}
minimizing() { grep -c "minimizing" "$out.stderr" 2>/dev/null || true; }
# crash: a budget that cannot run out before the second signature's child
# has started (torch's import under load); the second Ctrl-C ends it there.
budget=15
[ "$part" = crash ] && budget=240
(GMFUZZ_PYTHON="$python" FAKE_EXEC_US=1000 exec "$gmfuzz" fuzz --engine-binary "$target" \
   --target "python:$here/slow_target.py" --target-device cpu --seeds "$seeds" \
   --strict-baseline --jobs 1 --time 240 --minimize-time "$budget" --out "$out" \
   >"$out.stdout" 2>"$out.stderr") &
pid=$!
until_true '[ "$(ls "$out/failures" 2>/dev/null | wc -l)" -ge 2 ]' ||
  { kill -KILL "$pid"; fail "the job found no two signatures in 120 s"; }
kill -INT "$pid"
until_true '[ "$(minimizing)" -ge 1 ]' ||
  { kill -KILL "$pid"; fail "no minimization started in 120 s"; }
sleep 1 # inside the first signature's minimization (0.2 s a run)
case "$part" in
second)
  t0=$(now_ms)
  kill -INT "$pid"
  wait "$pid"
  rc=$? took=$(( $(now_ms) - t0 ))
  [ "$took" -le 10000 ] || fail "took $took ms to end after the second SIGINT"
  [ "$rc" -eq 1 ] || fail "exit $rc, expected 1"
  grep -q "note: skipped: the minimization was interrupted" "$out.stdout" || fail "no skipped note"
  ls "$out"/failures/failure-*.json >/dev/null 2>&1 || fail "no failure files kept"
  grep -q '"exit_code": *1' "$out/campaign.json" || fail "campaign.json not final"
  cmp -s "$out.stdout" "$out/summary.txt" || fail "summary.txt is not the printed summary"
  echo "ok: second SIGINT: ended $took ms later, exit 1, minimization skipped, failures kept"
  ;;
crash)
  child=$(pgrep -P "$pid" | head -1)
  [ -n "$child" ] || fail "no minimizer child of $pid"
  kill -SEGV "$child"
  until_true '[ "$(minimizing)" -ge 2 ]' ||
    { kill -KILL "$pid"; fail "no fresh child for the next signature in 120 s"; }
  kill -INT "$pid"  # the second Ctrl-C: what is left is skipped
  wait "$pid"
  rc=$?
  [ "$rc" -eq 1 ] || fail "exit $rc, expected 1"
  # (SIGSEGV, or SIGABRT where a sanitizer catches it first)
  grep -Eq "note: minimizing it crashed the minimizer process \(killed by signal (11|6)\)" "$out.stdout" \
    || fail "no crash note in the summary"
  grep -q '"exit_code": *1' "$out/campaign.json" || fail "campaign.json not final"
  [ -s "$out/report.html" ] || fail "no report"
  n=$(minimizing)
  [ "$n" -ge 2 ] || fail "the next signature was not minimized by a fresh child"
  echo "ok: the minimizer died of SIGSEGV: noted, the next signature went on, record and report written"
  ;;
esac
