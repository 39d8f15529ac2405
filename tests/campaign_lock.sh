#!/usr/bin/env bash
# One campaign per --out folder (issue 11 item 4): while a campaign runs,
# a second one into the same folder refuses at once with exit 5 and a
# message naming the folder and the first one's pid, and changes nothing
# there (the first one's stats.jsonl stays monotonic, its job logs its
# own). Once the first one has ended, the folder is free again.
#   campaign_lock.sh GMFUZZ FAKE_TARGET SEEDS OUT
set -u
gmfuzz="$1" target="$2" seeds="$3" out="$4"
rm -rf "$out"
fail() { echo "FAIL: $*"; cat "$out.stderr" "$out.second" 2>/dev/null; exit 1; }
run() { FAKE_EXEC_US=1000 "$gmfuzz" fuzz --target "$target" --seeds "$seeds" \
          --strict-baseline --jobs 1 --out "$out" "$@"; }
(run() { FAKE_EXEC_US=1000 exec "$gmfuzz" fuzz --target "$target" --seeds "$seeds" \
          --strict-baseline --jobs 1 --out "$out" "$@"; }
 run --time 240 >"$out.stdout" 2>"$out.stderr") &
pid=$!
# Until the first campaign holds the folder and has saved a failure (so that
# it exits 1 when interrupted), polled: a loaded machine starts it late.
for _ in $(seq 1200); do  # at most 120 s
  [ -s "$out/stats.jsonl" ] && ls "$out"/failures/failure-*.json >/dev/null 2>&1 && break
  sleep 0.1
done
run --time 5 >/dev/null 2>"$out.second"
rc=$?
[ "$rc" -eq 5 ] || { kill -INT "$pid"; wait "$pid"; fail "second campaign: exit $rc, expected 5"; }
grep -q -- "--out $out: the folder is in use by another campaign (pid $pid holds $out/campaign.lock)" \
  "$out.second" || { kill -INT "$pid"; wait "$pid"; fail "message does not name the folder and pid $pid"; }
runs=$(grep -c "=== gmfuzz fuzz: run" "$out/logs/job-0.log")
kill -INT "$pid"
wait "$pid"
first=$?
[ "$first" -eq 1 ] || fail "first campaign: exit $first, expected 1"
[ "$runs" -eq 1 ] || fail "job-0.log has $runs runs, expected the first campaign's one"
awk -F'[:,]' '{ if ($2 + 0 < last) bad = 1; last = $2 + 0 } END { exit bad }' "$out/stats.jsonl" \
  || fail "stats.jsonl time goes backwards"
run --runs 50 --time 120 >/dev/null 2>>"$out.second"
again=$?
[ "$again" -le 1 ] || fail "a campaign after the first one ended: exit $again, expected 0 or 1"
echo "ok: second campaign refused with exit 5 naming pid $pid; the folder free again after (exit $again)"
