#!/usr/bin/env bash
# Ctrl-C (SIGINT) or SIGTERM ends a campaign cleanly: started for two
# minutes and signalled once its jobs have saved a failure (not after a
# fixed time: a loaded machine may start them late), `gmfuzz fuzz` stops
# its jobs, still minimizes what was found, reports "(interrupted)" and
# exits 1 (it found new signatures) well before its budget, keeping every
# failure file.
#   campaign_sigint.sh GMFUZZ FAKE_TARGET SEEDS OUT [SIGNAL]   (default INT)
set -u
gmfuzz="$1" target="$2" seeds="$3" out="$4" sig="${5:-INT}"
rm -rf "$out"
FAKE_EXEC_US=1000 "$gmfuzz" fuzz --target "$target" --seeds "$seeds" --strict-baseline \
  --jobs 2 --time 120 --out "$out" >"$out.stdout" 2>"$out.stderr" &
pid=$!
for _ in $(seq 1200); do  # at most 120 s
  ls "$out"/failures/failure-*.json >/dev/null 2>&1 && break
  sleep 0.1
done
kill -"$sig" "$pid"
start=$SECONDS
wait "$pid"
rc=$?
took=$((SECONDS - start))
cat "$out.stdout"
fail() { echo "FAIL: $*"; cat "$out.stderr"; exit 1; }
[ "$rc" -eq 1 ] || fail "exit $rc, expected 1"
[ "$took" -le 30 ] || fail "took $took s to stop (a 120 s budget)"
grep -q "(interrupted)" "$out.stdout" || fail "no (interrupted) in the summary"
ls "$out"/failures/failure-*.json >/dev/null 2>&1 || fail "no failure files kept"
ls "$out"/repros/*.json >/dev/null 2>&1 || fail "no reproducers"
if pgrep -f "$out/corpus" >/dev/null 2>&1; then fail "a job is still running"; fi
echo "ok: SIG$sig once a failure was saved, stopped in $took s, exit 1"
