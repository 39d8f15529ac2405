#!/usr/bin/env bash
# gmfuzz retest over a campaign folder with three buckets (issue 25), built without a
# campaign's luck: three planted faults of examples/torch_fused.py, each one's case
# minimized into repros/ (and copied into failures/, as a campaign keeps the inputs
# too), then retested after one fault is fixed: 1 fixed, 2 still failing, exit 6. Then
# one reproducer whose fault turned into another (raise -> segfault): changed, exit 1.
# Skips (77) without torch.
#   history_retest.sh PYTHON GMFUZZ SOURCE_DIR WORK_DIR
set -u
python="$1" gmfuzz="$2" src="$3" work="$4"
if ! "$python" -c "import torch" >/dev/null 2>&1; then
  echo "SKIP: $python cannot import torch (apt-get install python3-torch)"
  exit 77
fi
export GMFUZZ_PYTHON="$python"
target=(--target "python:$src/examples/torch_fused.py" --target-device cpu)
fail() { echo "FAIL: $*"; exit 1; }
rm -rf "$work" && mkdir -p "$work/camp/repros" "$work/camp/failures" || exit 1
cd "$work" || exit 1
echo '{"format": "gmfuzz-campaign-v1", "engine": "libfuzzer", "backend": "cpu"}' > camp/campaign.json
for fault in raise q_last_row_plus_one last_page_dropped; do
  GMFUZZ_TORCH_FAULT=$fault "$gmfuzz" minimize "$src/examples/fault_cases/torch_fused-$fault.json" \
    "${target[@]}" -o "camp/repros/$fault.json" > "minimize-$fault.log" 2>&1 ||
    { cat "minimize-$fault.log"; fail "minimize $fault"; }
  cp "camp/repros/$fault.json" "camp/failures/crash-$fault.json"
done

# last_page_dropped fixed; the other two still planted.
GMFUZZ_TORCH_FAULT=raise+q_last_row_plus_one "$gmfuzz" retest camp "${target[@]}" \
  --record retest.json > retest.log 2>&1
rc=$?
cat retest.log
[ $rc = 6 ] || fail "exit $rc, expected 6 (one fixed, none changed)"
grep -q "^3 reproducers: 1 fixed, 2 still failing, 0 changed$" retest.log || fail "the counts"
grep -Eq "^fixed +target_deviates:page_table\|.* camp/repros/last_page_dropped.json$" retest.log ||
  fail "last_page_dropped not fixed"
"$python" - retest.json << 'PY' || fail "the record"
import json, sys
doc = json.load(open(sys.argv[1]))
assert doc["format"] == "gmfuzz-retest-v1"
assert doc["counts"] == {"fixed": 1, "still_failing": 2, "changed": 0, "not_run": 0}, doc["counts"]
states = {r["path"].rsplit("/", 1)[1]: r for r in doc["reproducers"]}
assert sorted(states) == ["last_page_dropped.json", "q_last_row_plus_one.json", "raise.json"], states
assert states["last_page_dropped.json"]["state"] == "fixed"
assert states["last_page_dropped.json"]["bucket"] is None
for name in ("raise.json", "q_last_row_plus_one.json"):
    r = states[name]
    assert r["state"] == "still_failing" and r["bucket"] == r["recorded_bucket"], r
assert states["raise.json"]["bucket"].startswith("target_raised|ValueError|"), states["raise.json"]
print("record ok")
PY

# Nothing fixed: exit 0. (--json: the record on stdout.)
GMFUZZ_TORCH_FAULT=raise+q_last_row_plus_one+last_page_dropped "$gmfuzz" retest camp \
  "${target[@]}" --json > all.json 2> all.err
rc=$?
[ $rc = 0 ] || { cat all.json all.err; fail "all still failing: exit $rc, expected 0"; }
grep -q '"still_failing":[[:space:]]*3' all.json || fail "all still failing: the record"

# The raise became a crash: changed, exit 1 (on the target the reproducer records).
GMFUZZ_TORCH_FAULT=segfault "$gmfuzz" retest camp/repros/raise.json > changed.log 2>&1
rc=$?
cat changed.log
[ $rc = 1 ] || fail "changed: exit $rc, expected 1"
grep -Eq "^changed +target_raised\|ValueError\|[^ ]* -> target_crashed\|SIGSEGV" changed.log ||
  fail "changed: the buckets"

# The nightly's "Fixed since" (scripts/nightly-retest): an earlier night whose target
# campaign is the folder above, a CUDA campaign left out without a GPU, tonight's own
# folder left out.
mkdir -p history/nightly-20260101T000000Z/libfuzzer-cuda history/nightly-20260102T000000Z
cp -r camp history/nightly-20260101T000000Z/libfuzzer-target
cp camp/campaign.json history/nightly-20260101T000000Z/libfuzzer-cuda/
cp -r camp history/nightly-20260102T000000Z/libfuzzer-target
GMFUZZ_TORCH_FAULT=raise+q_last_row_plus_one "$python" "$src/scripts/nightly-retest" "$gmfuzz" \
  history/nightly-20260102T000000Z history --target "python:$src/examples/torch_fused.py" \
  --target-device cpu > nightly.log 2>&1
rc=$?
cat nightly.log
[ $rc = 0 ] || fail "nightly-retest: exit $rc, expected 0"
grep -q "^3 retested from 1 nights: 1 fixed since, 2 still failing, 0 changed$" nightly.log ||
  fail "nightly-retest: the counts"
md=history/nightly-20260102T000000Z/retest/fixed-since.md
cat "$md"
grep -q "^## Fixed since$" "$md" || fail "no Fixed since section"
grep -F '| fixed | nightly-20260101T000000Z | libfuzzer-target | `target_deviates:page_table\|' "$md" |
  grep -q '/last_page_dropped.json |$' ||
  fail "the Fixed since row"
[ "$(grep -c '^| fixed' "$md")" = 1 ] || fail "one fixed row"
echo "PASS"
