#!/usr/bin/env bash
# A full disk loses nothing silently (issue 11 item 3). On a small tmpfs
# (a private mount namespace: needs unshare and mount, else skip 77), the
# job fills the disk at start, then finds failures it cannot save. The
# campaign must end with exit 6 ("a finding could not be saved"), not 1 or
# 0; summary.txt must be the printed summary; campaign.json must be final
# (exit_code 6, a problem naming the job), and failures/ must hold no file
# (nothing half written, nothing counted that is not on disk).
#   campaign_disk_full.sh GMFUZZ FAKE_TARGET SEEDS OUT
set -u
gmfuzz="$1" target="$2" seeds="$3" out="$4"
if [ "${GMFUZZ_IN_NAMESPACE:-}" != 1 ]; then
  rm -rf "$out" "$out.mnt"
  mkdir -p "$out.mnt"
  if ! command -v unshare >/dev/null || ! unshare -m true 2>/dev/null; then
    echo "skip: cannot make a private mount namespace (unshare -m: needs root or user namespaces)"
    exit 77
  fi
  GMFUZZ_IN_NAMESPACE=1 exec unshare -m --propagation private "$0" "$@"
fi
mnt="$out.mnt"
if ! mount -t tmpfs -o size=2m tmpfs "$mnt" 2>/dev/null; then
  echo "skip: cannot mount a tmpfs here"
  exit 77
fi
dir="$mnt/campaign"
fail() { echo "FAIL: $*"; cat "$mnt/stdout" "$mnt/stderr"; cp -r "$mnt" "$out" 2>/dev/null; exit 1; }
FAKE_EXEC_US=1000 FAKE_FILL="$mnt/filler" "$gmfuzz" fuzz --target "$target" --seeds "$seeds" \
  --strict-baseline --jobs 1 --time 120 --out "$dir" >"$out.stdout" 2>"$out.stderr"
rc=$?
cp "$out.stdout" "$mnt/stdout" 2>/dev/null; cp "$out.stderr" "$mnt/stderr" 2>/dev/null
[ "$rc" -eq 6 ] || fail "exit $rc, expected 6"
grep -q "exit 6: a finding could not be saved" "$out.stdout" || fail "the summary does not say it"
grep -q "could not save a finding" "$out.stdout" || fail "no problem line naming the job"
cmp -s "$out.stdout" "$dir/summary.txt" || fail "summary.txt is not the printed summary"
grep -q '"exit_code": *6' "$dir/campaign.json" || fail "campaign.json not final: $(cat "$dir/campaign.json")"
grep -q '"problem": *"job-0 could not save a finding' "$dir/campaign.json" || fail "no problem in campaign.json"
n=$(ls -A "$dir/failures" | wc -l)
[ "$n" -eq 0 ] || fail "failures/ holds $n files on a full disk: $(ls -A "$dir/failures")"
grep -q "could not save the failure .* (3 tries)" "$dir/logs/job-0.log" || fail "the job did not retry"
# (its log is on the full disk too: campaign.json, written after the
# reserve is given back, has the job's end)
grep -q '"cause": *"exit 86 (a finding could not be saved)"' "$dir/campaign.json" \
  || fail "the job's end is not in campaign.json"
echo "ok: disk full: exit 6, summary.txt and campaign.json final, failures/ empty"
umount "$mnt"
