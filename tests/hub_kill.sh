#!/usr/bin/env bash
# A campaign whose target hub is killed goes on: the hub is started again,
# the jobs reconnect, the batch in flight is re-run case by case, and the
# summary counts the restart (campaign/campaign_hub.h).
#   hub_kill.sh PYTHON GMFUZZ TORCH_TARGET OUT
set -u
python="$1" gmfuzz="$2" target="$3" out="$4"
if ! "$python" -c "import torch" >/dev/null 2>&1; then
  echo "SKIP: $python cannot import torch (apt-get install python3-torch)"
  exit 77
fi
rm -rf "$out"; mkdir -p "$(dirname "$out")"
GMFUZZ_PYTHON="$python" "$gmfuzz" sweep --target "$target" --target-device cpu --hubs 1 \
  --jobs 2 --time 60 --no-minimize --out "$out" >"$out.log" 2>&1 &
driver=$!
# Until the jobs run (their logs have a status line): polled, at most 120 s (a
# loaded machine starts torch late); the 60 s budget leaves the restarted hub
# time to serve them.
for _ in $(seq 1 1200); do
  grep -qs "exec/s" "$out"/logs/job-0.log && break
  sleep 0.1
done
grep -qs "exec/s" "$out"/logs/job-0.log ||
  { kill "$driver"; echo "FAIL: no job ran in 120 s"; exit 1; }
pkill -KILL -f "target-hub --name gmfuzz-hub-$driver-" || { echo "FAIL: no hub to kill"; exit 1; }
wait "$driver"
rc=$?
tail -20 "$out.log"
[ "$rc" = 0 ] || { echo "FAIL: exit $rc, expected 0"; exit 1; }
grep -Eq "target workers restarted: [1-9][0-9]* after a crash" "$out.log" ||
  { echo "FAIL: the summary does not count the restart"; exit 1; }
[ "$(grep -c "target-hub @" "$out/logs/hub-0.log")" -ge 1 ] ||
  { echo "FAIL: the hub started again did not log its end"; exit 1; }
echo "ok: the campaign survived its hub"
