#!/usr/bin/env bash
# The three-way differential finds a fault planted in the C reference
# (reference/reference_faults.h, issue 27): a three-way sweep
# (--reference python:, seed 1, CASES generated cases: the same cases on any
# machine, so the count, not the time, decides what it sees) on a gmfuzz
# linked with the faulty reference finds 1 to 3 new buckets, every one a
# drift and one of them EXPECT (the fault's own), every reproducer
# minimized; the vector `gmfuzz vector` makes of its reproducer fails
# `replay` on the faulty build and passes on the correct one, and so does
# the vector the corpus keeps for it (VECTOR, corpus/vectors/); `retest` of
# the campaign says still failing on the one, fixed on the other. EXPECT
# "none": the correct reference, the same sweep finds nothing.
# Skips (77) when the interpreter has no torch.
#   drift_efficacy.sh PYTHON GMFUZZ_UNDER_TEST GMFUZZ_CORRECT OUT CASES EXPECT [VECTOR]
# With DRIFT_ENGINE_BINARY set, the campaign is `gmfuzz fuzz --engine
# libfuzzer` on that target (a libFuzzer target, or tests/fake_libfuzzer,
# linked with the same faulty reference) for CASES runs, from the seeds in
# DRIFT_SEEDS when set (the target's default corpus otherwise).
set -u
python="$1" gmfuzz="$2" correct="$3" out="$4" cases="$5" expect="$6" vector="${7:-}"
if ! "$python" -c "import torch" >/dev/null 2>&1; then
  echo "SKIP: $python has no torch"
  exit 77
fi
export GMFUZZ_PYTHON="$python"
rm -rf "$out"; mkdir -p "$out"
fail() { echo "FAIL: $*"; tail -25 "$out/sweep.log"; exit 1; }
start=$(date +%s)
# --time only guards a hang: 1,000 cases take about 5 s on an idle core.
campaign=(sweep --cases "$cases")
if [ -n "${DRIFT_ENGINE_BINARY:-}" ]; then
  campaign=(fuzz --engine libfuzzer --engine-binary "$DRIFT_ENGINE_BINARY" --runs "$cases")
  [ -n "${DRIFT_SEEDS:-}" ] && campaign+=(--seeds "$DRIFT_SEEDS")
fi
"$gmfuzz" "${campaign[@]}" --reference python: --time 240 --jobs 1 --seed 1 \
  --out "$out/sweep" >"$out/sweep.log" 2>&1
rc=$?
echo "${campaign[0]}: exit $rc in $(( $(date +%s) - start )) s"
grep -E "ran |bucket |torch" "$out/sweep.log" | head -12
if [ "$expect" = none ]; then
  [ "$rc" -eq 0 ] || fail "the correct reference: exit $rc, expected 0 (nothing new)"
  exit 0
fi
[ "$rc" -eq 1 ] || fail "exit $rc, expected 1 (new findings)"
# The buckets: 1 to 3, all drifts, the expected one among them; every
# reproducer minimized. Prints the reproducer of the expected bucket.
repro=$("$python" - "$out/sweep" "$expect" <<'PY'
import json, os, sys
folder, expect = sys.argv[1], sys.argv[2]
d = json.load(open(os.path.join(folder, "summary.json")))
new = [b for b in d["buckets"] if b["new"]]
names = [b["bucket"] for b in new]
print("buckets: %s" % names, file=sys.stderr)
ok = 1 <= len(new) <= 3 and all(n.startswith("reference_drift:") for n in names)
ok = ok and expect in names
for s in d["signatures"]:
    r = json.load(open(os.path.join(folder, s["repro"]))) if s.get("repro") else {}
    print("  %s: bs %s, minimized %s" % (s["signature"], s.get("smallest_bs"),
          r.get("minimized")), file=sys.stderr)
    ok = ok and r.get("minimized") is True and "torch_reference" in r
if not ok:
    sys.exit(1)
print(os.path.join(folder, [b for b in new if b["bucket"] == expect][0]["smallest"]))
PY
) || fail "expected 1-3 new drift buckets, '$expect' among them, every reproducer minimized"
"$gmfuzz" vector "$repro" -o "$out/drift.vector.json" || fail "gmfuzz vector failed"
replays() { # GMFUZZ VECTOR WANT_RC WHAT
  "$1" replay "$2" >"$out/replay.log" 2>&1
  local got=$?
  [ "$got" -eq "$3" ] || { cat "$out/replay.log"; fail "replay of $2 on $4: exit $got, expected $3"; }
  echo "replay $(basename "$2") on $4: exit $got"
}
replays "$gmfuzz" "$out/drift.vector.json" 1 "the faulty build"
replays "$correct" "$out/drift.vector.json" 0 "the correct build"
# retest of the campaign's reproducers (three-way, as they carry torch's
# outputs): still failing on the faulty build (exit 0), fixed on the correct one (6).
"$gmfuzz" retest "$out/sweep" >"$out/retest.log" 2>&1
got=$?
[ "$got" -eq 0 ] || { cat "$out/retest.log"; fail "retest on the faulty build: exit $got, expected 0"; }
"$correct" retest "$out/sweep" >"$out/retest.log" 2>&1
got=$?
[ "$got" -eq 6 ] || { cat "$out/retest.log"; fail "retest on the correct build: exit $got, expected 6"; }
echo "retest: still failing on the faulty build, $(tail -1 "$out/retest.log") on the correct one"
if [ -n "$vector" ]; then
  replays "$gmfuzz" "$vector" 1 "the faulty build"
  replays "$correct" "$vector" 0 "the correct build"
fi
echo "PASS in $(( $(date +%s) - start )) s"
