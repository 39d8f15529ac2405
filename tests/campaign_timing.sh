#!/usr/bin/env bash
# The driver's loop under load (issue 11 item 7), on real short campaigns
# with two CPU burners running beside them (a loaded 2-core machine):
#   budget   jobs that ignore their time limit are stopped by the driver:
#            campaign.json's elapsed_s within 2 s of --time, the whole
#            command within 4 s of it (minimization and reports included)
#   stats    stats.jsonl sampled at 1 Hz: the k-th periodic sample at
#            k s +- 10% (so every gap within 1 s +- 10%), none missing,
#            while a burst of 1000 failure files arrives
#   sigint   jobs that ignore SIGINT: none left within 1 s of Ctrl-C
#   causes   a job killed from outside (SIGKILL) is restarted, and its log
#            and campaign.json's job_ends say "killed by signal 9"
#   stall    a job that stops making progress (no output, no CPU time) is
#            killed after --stall-timeout and restarted, the cause recorded
#   spin     a job that prints and uses CPU but whose execution count
#            stands still is killed and restarted too (no_progress)
#   campaign_timing.sh GMFUZZ FAKE_TARGET SEEDS OUT PART
set -u
gmfuzz="$1" target="$2" seeds="$3" out="$4" part="$5"
here="$(cd "$(dirname "$0")" && pwd)"
template="$here/../corpus/regress/decode.legacy_raises._.json" # a reproducer: a failure file
rm -rf "$out" "$out".*
mkdir -p "$(dirname "$out")"
burners=()
stop_burners() { for p in "${burners[@]}"; do kill "$p" 2>/dev/null; done; }
trap stop_burners EXIT
for _ in 1 2; do
  (while :; do :; done) &
  burners+=($!)
done
fail() { echo "FAIL: $*"; tail -20 "$out.stderr"; exit 1; }
now_ms() { date +%s%3N; }
# Waits (at most 120 s) until CONDITION holds; false if it never did. Not a
# fixed sleep: under load a job starts, stalls or spins later than alone.
until_true() {
  for _ in $(seq 1200); do
    eval "$1" && return 0
    sleep 0.1
  done
  return 1
}
jobs_left() { pgrep -f -- "$out/corpus" | wc -l; }
fuzz() { exec env FAKE_EXEC_US=1000 "$gmfuzz" fuzz --target "$target" --seeds "$seeds" \
           --strict-baseline --out "$out" "$@" >"$out.stdout" 2>"$out.stderr"; }

case "$part" in
budget)
  # At 2.5 s a burst of 1000 failure files lands in failures/ (as from
  # many jobs at once): reading them must not hold up the samples.
  mkdir -p "$out.burst"
  body=$(cat "$template")
  for k in $(seq 1000); do printf '%s\n' "$body" >"$out.burst/failure-burst-$k-1-1.json"; done
  t0=$(now_ms)
  (FAKE_IGNORE_LIMITS=1 fuzz --jobs 2 --time 6) &
  pid=$!
  sleep 2.5
  mv "$out.burst"/* "$out/failures/"
  wait "$pid"
  rc=$? t1=$(now_ms)
  [ "$rc" -eq 1 ] || fail "exit $rc, expected 1"
  wall=$(( t1 - t0 ))
  elapsed=$(grep -o '"elapsed_s": *[0-9.]*' "$out/campaign.json" | grep -o '[0-9.]*$')
  awk -v e="$elapsed" 'BEGIN { exit !(e >= 6 && e <= 8) }' || fail "elapsed_s $elapsed, budget 6 s"
  [ "$wall" -le 10000 ] || fail "the command took $wall ms for a 6 s budget"
  # periodic samples: all but the first (t=0) and the last (the final totals)
  ts=$(awk -F'[:,]' '{ print $2 }' "$out/stats.jsonl" | sed '1d;$d')
  n=$(echo "$ts" | wc -l)
  [ "$n" -ge 5 ] || fail "$n periodic samples in a 6 s campaign: $(echo $ts)"
  # the k-th sample at k s +- 10% (a clock, no drift), so every gap too
  echo "$ts" | awk '{ if ($1 < NR - 0.1 || $1 > NR + 0.1) bad = 1 }
                    NR > 1 { g = $1 - last; if (g < 0.9 || g > 1.1) bad = 1 }
                    { last = $1 } END { exit bad }' || fail "a sample off its second by more than 10%: $(echo $ts)"
  echo "ok: budget 6 s: elapsed_s $elapsed, command $wall ms; samples at $(echo $ts)"
  ;;
sigint)
  (FAKE_IGNORE_SIGINT=1 fuzz --jobs 2 --time 240) &
  pid=$!
  until_true '[ "$(jobs_left)" -ge 2 ] && ls "$out"/failures/failure-*.json >/dev/null 2>&1' ||
    fail "no two jobs running with a failure saved after 120 s"
  t0=$(now_ms)
  kill -INT "$pid"
  while [ "$(jobs_left)" -gt 0 ] && [ $(( $(now_ms) - t0 )) -lt 5000 ]; do sleep 0.02; done
  took=$(( $(now_ms) - t0 ))
  wait "$pid"
  rc=$?
  [ "$took" -le 1000 ] || fail "jobs still running $took ms after SIGINT"
  [ "$rc" -eq 1 ] || fail "exit $rc, expected 1"
  grep -q "(interrupted)" "$out.stdout" || fail "no (interrupted) in the summary"
  ls "$out"/failures/failure-*.json >/dev/null 2>&1 || fail "no failure files kept"
  echo "ok: jobs that ignore SIGINT gone $took ms after it; exit 1"
  ;;
causes)
  (fuzz --jobs 1 --time 240) &
  pid=$!
  until_true '[ -n "$(pgrep -f -- "$out/corpus")" ]' || fail "no job running after 120 s"
  job=$(pgrep -f -- "$out/corpus" | head -1)
  kill -KILL "$job"
  until_true 'grep -q "=== gmfuzz fuzz: run 2 of job-0" "$out/logs/job-0.log"' ||
    fail "job-0 not restarted 120 s after SIGKILL: $(grep === "$out/logs/job-0.log")"
  kill -INT "$pid"
  wait "$pid"
  grep -q "=== gmfuzz fuzz: run 1 of job-0 ended at [0-9.]* s: killed by signal 9 (crashed or was killed); restarting it" \
    "$out/logs/job-0.log" || fail "job-0.log does not say why run 1 ended: $(grep === "$out/logs/job-0.log")"
  grep -q '"cause": *"killed by signal 9 (crashed or was killed)"' "$out/campaign.json" \
    || fail "campaign.json has no job_ends cause: $(cat "$out/campaign.json")"
  grep -q "job-0 run 1 ended at [0-9.]* s: killed by signal 9 .*, restarted" "$out.stdout" \
    || fail "the summary does not say it"
  echo "ok: SIGKILL of a job: restarted, cause in its log, campaign.json and the summary"
  ;;
stall)
  (FAKE_STALL_AFTER=300 fuzz --jobs 1 --time 240 --stall-timeout 2) &
  pid=$!
  until_true 'grep -q "=== gmfuzz fuzz: run 2 of job-0" "$out/logs/job-0.log" 2>/dev/null' ||
    fail "the stalled job was not restarted in 120 s: $(grep === "$out/logs/job-0.log")"
  kill -INT "$pid"
  wait "$pid"
  n=$(grep -c "no output and no CPU time for 2 s; killed by the driver); restarting it" "$out/logs/job-0.log")
  [ "$n" -ge 1 ] || fail "no stall restart in job-0.log: $(grep === "$out/logs/job-0.log")"
  grep -q '"cause": *"killed by signal 9 (stalled: no output and no CPU time for 2 s; killed by the driver)"' \
    "$out/campaign.json" || fail "campaign.json has no stall cause"
  echo "ok: a stalled job was killed and restarted $n time(s), each cause recorded"
  ;;
spin)
  (FAKE_SPIN_AFTER=300 fuzz --jobs 1 --time 240 --stall-timeout 2) &
  pid=$!
  until_true 'grep -q "=== gmfuzz fuzz: run 2 of job-0" "$out/logs/job-0.log" 2>/dev/null' ||
    fail "the spinning job was not restarted in 120 s: $(grep === "$out/logs/job-0.log")"
  kill -INT "$pid"
  wait "$pid"
  want="killed by signal 9 (no_progress: its execution count stood at 256 for 2 s past its next report, while it printed or used CPU; killed by the driver)"
  n=$(grep -cF "$want; restarting it" "$out/logs/job-0.log")
  [ "$n" -ge 1 ] || fail "no no_progress restart in job-0.log: $(grep === "$out/logs/job-0.log")"
  grep -qF "\"cause\": \"$want\"" "$out/campaign.json" || grep -qF "\"cause\":\"$want\"" "$out/campaign.json" \
    || fail "campaign.json has no no_progress cause: $(grep -o '"cause":[^,]*' "$out/campaign.json")"
  echo "ok: a spinning job was killed and restarted $n time(s), each cause recorded"
  ;;
*) fail "unknown part $part" ;;
esac
