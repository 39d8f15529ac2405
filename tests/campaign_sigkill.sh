#!/usr/bin/env bash
# SIGKILL of the driver leaves no engine job behind (issue 11 item 1): a
# campaign of two jobs is started for a minute and the driver is killed
# with SIGKILL once a job runs (polled: a loaded machine starts them late);
# within ten seconds no job process may be left (they go at once: the bound
# is for a loaded machine), and DIR/failures must not grow afterwards.
#   campaign_sigkill.sh GMFUZZ FAKE_TARGET SEEDS OUT
set -u
gmfuzz="$1" target="$2" seeds="$3" out="$4"
rm -rf "$out"
mkdir -p "$out"
fail() { echo "FAIL: $*"; cat "$out.stderr"; exit 1; }
jobs_left() { pgrep -f -- "$out/corpus" | wc -l; }
FAKE_EXEC_US=1000 "$gmfuzz" fuzz --target "$target" --seeds "$seeds" --strict-baseline \
  --abort-on-failure --jobs 2 --time 60 --out "$out" >"$out.stdout" 2>"$out.stderr" &
pid=$!
before=0
for _ in $(seq 1200); do  # at most 120 s
  before=$(jobs_left)
  [ "$before" -ge 1 ] && break
  sleep 0.1
done
[ "$before" -ge 1 ] || fail "no job was running after 120 s"
kill -KILL "$pid"
wait "$pid" 2>/dev/null
left=$before
for _ in $(seq 100); do
  left=$(jobs_left)
  [ "$left" -eq 0 ] && break
  sleep 0.1
done
if [ "$left" -ne 0 ]; then
  pgrep -af -- "$out/corpus"
  pkill -KILL -f -- "$out/corpus" # this test's own orphans, by their unique folder
  fail "$left of $before job processes still running 10 s after SIGKILL of the driver"
fi
n1=$(ls "$out/failures" | wc -l)
sleep 2
n2=$(ls "$out/failures" | wc -l)
[ "$n1" -eq "$n2" ] || fail "failures/ grew from $n1 to $n2 files after the driver died"
echo "ok: $before job processes before SIGKILL, 0 after; failures/ stayed at $n1 files"
