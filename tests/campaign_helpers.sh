#!/usr/bin/env bash
# A target's processes end with the campaign (issue 24 item 4): the hostile
# python: target (tests/data/python/hostile_target.py) starts a helper in a
# session of its own at import and writes its pid down; after the campaign
# every such helper is gone, and campaign.json counts what the driver had to
# end ("left_behind"). Skips (77) when the interpreter has no torch.
#   campaign_helpers.sh PYTHON GMFUZZ TARGET_FILE OUT HUBS
set -u
python="$1" gmfuzz="$2" target="$3" out="$4" hubs="$5"
if ! "$python" -c "import torch" >/dev/null 2>&1; then
  echo "SKIP: $python has no torch"
  exit 77
fi
rm -rf "$out" "$out".*; mkdir -p "$(dirname "$out")"
pids="$out.pids"
: >"$pids"
alive() { for p in $(cat "$pids"); do kill -0 "$p" 2>/dev/null && echo "$p"; done; }
fail() {
  echo "FAIL: $*"; tail -15 "$out.log"
  for p in $(alive); do kill -KILL "$p" 2>/dev/null; done # leave the machine as it was
  exit 1
}
GMFUZZ_PYTHON="$python" GMFUZZ_HOSTILE_HELPER="$pids" "$gmfuzz" sweep --target "python:$target" \
  --target-device cpu --hubs "$hubs" --jobs 1 --time 20 --no-minimize --out "$out" >"$out.log" 2>&1
rc=$?
# 4: on a machine so loaded that the target checked nothing in 20 s; the
# helpers must be gone all the same.
[ "$rc" -eq 0 ] || [ "$rc" -eq 4 ] || fail "exit $rc, expected 0 (or 4)"
[ -s "$pids" ] || fail "the target started no helper (no pid in $pids)"
left=$(alive)
[ -z "$left" ] || fail "helpers still running after the campaign: $left"
n=$(grep -o '"left_behind": *[0-9]*' "$out/campaign.json" | grep -o '[0-9]*$')
[ -n "$n" ] && [ "$n" -ge 1 ] || fail "campaign.json's left_behind is '${n}', expected >= 1"
echo "ok: $(wc -l <"$pids") helper(s) gone with the campaign (hubs $hubs), left_behind $n"
