#!/usr/bin/env bash
# Efficacy on a python: target (issue 23): a campaign with planted faults
# must give MIN to MAX new buckets, none of them the bare
# "target_deviates|-|-" of before (a bucket that cannot tell one bug from
# another); the correct target (MIN = MAX = 0) none. Skips (77) when the
# test interpreter has no torch. The table of buckets is in OUT.table.txt.
#   efficacy_targets.sh PYTHON GMFUZZ OUT MIN MAX [ENV=V...] -- gmfuzz args...
# The args must make the run a fixed set of cases (sweep --cases N --seed S
# with a --time past it): the same cases whatever the machine's load.
set -u
python="$1" gmfuzz="$2" out="$3" min="$4" max="$5"
shift 5
envs=()
while [ $# -gt 0 ] && [ "$1" != -- ]; do
  envs+=("$1")
  shift
done
shift
if ! "$python" -c "import torch" >/dev/null 2>&1; then
  echo "SKIP: $python cannot import torch (apt-get install python3-torch)"
  exit 77
fi
cases=""
prev=""
for a in "$@"; do
  [ "$prev" = --cases ] && cases="$a"
  prev="$a"
done
rm -rf "$out"; mkdir -p "$(dirname "$out")"
log="$out.log"
env GMFUZZ_PYTHON="$python" "${envs[@]}" "$gmfuzz" "$@" --out "$out" >"$log" 2>&1
rc=$?
grep -E '^  (ran|found|bucket|exit)' "$log"
want_rc=1
[ "$max" = 0 ] && want_rc=0
if [ "$rc" != "$want_rc" ]; then
  tail -20 "$log"
  echo "FAIL: exit $rc, expected $want_rc"
  exit 1
fi
# Every case checked, or the count below says nothing of the fault.
if [ -n "$cases" ] && ! grep -Eq "^  ran [^:]*: $cases execs" "$log"; then
  echo "FAIL: the sweep did not check all $cases cases (its --time too short for this machine?)"
  exit 1
fi
"$python" - "$out/summary.json" "$min" "$max" "$out.table.txt" <<'PY'
import json, sys
path, lo, hi, table = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
summary = json.load(open(path))
new = [b for b in summary["buckets"] if b["new"]]
with open(table, "w") as f:
    for b in new:
        f.write("%s\t%d inputs\tbs %s\n" % (b["bucket"], b["inputs"], b["smallest_bs"]))
print("%d new bucket(s): %s" % (len(new), ", ".join(b["bucket"] for b in new) or "none"))
bare = [b["bucket"] for b in new if b["bucket"].endswith("|-|-")
        and b["bucket"].split("|")[0] == "target_deviates"]
if bare:
    sys.exit("FAIL: a bucket that says nothing: " + ", ".join(bare))
if not lo <= len(new) <= hi:
    sys.exit("FAIL: %d new buckets, expected %d to %d" % (len(new), lo, hi))
print("ok: %d to %d new buckets" % (lo, hi))
PY
