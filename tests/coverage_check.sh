#!/usr/bin/env bash
# coverage.campaign: gmfuzz coverage on a real campaign folder.
#   coverage_check.sh GMFUZZ WORK TREE SOURCE PYTHON
set -uo pipefail
gmfuzz="$1" work="$2" tree="$3" source="$4" python="$5"
camp="$work/camp"
fail() { echo "FAIL: $*"; exit 1; }

rm -rf "$work" && mkdir -p "$work" || fail "cannot make $work"

# Usage and folder errors come before any tool is looked for.
"$gmfuzz" coverage >/dev/null 2>&1; [ $? -eq 2 ] || fail "no folder: exit 2 expected"
"$gmfuzz" coverage "$work/none" 2>"$work/err"; rc=$?
[ $rc -eq 3 ] || [ $rc -eq 4 ] || fail "missing folder: exit $rc"
mkdir -p "$work/empty"

# The tools, as the command finds them: a missing one is a skip.
"$gmfuzz" coverage "$work/empty" --build "$tree" --source "$source" 2>"$work/err"; rc=$?
if [ $rc -eq 4 ] && grep -Eq "(llvm-profdata|llvm-cov|clang) not found" "$work/err"; then
  echo "skipped: $(tail -1 "$work/err")"; exit 77
fi
[ $rc -eq 3 ] && grep -q "no inputs: none of corpus/" "$work/err" ||
  fail "a folder with no inputs: exit $rc: $(cat "$work/err")"
LLVM_COV=/nonexistent/llvm-cov "$gmfuzz" coverage "$work/empty" 2>"$work/err"; rc=$?
[ $rc -eq 4 ] && grep -q 'LLVM_COV=/nonexistent/llvm-cov: no such program' "$work/err" ||
  fail "a bad \$LLVM_COV: exit $rc: $(cat "$work/err")"

# A real campaign: a short sweep on the CPU, ended by --cases, not by 2 s
# of time (on a loaded machine those may pass before its job has checked a
# case). Its corpus/ holds the seeds, which it never runs: the profile draws
# its cases again instead (the runner's --sweep, from the job's log), as
# many as it checked.
"$gmfuzz" sweep --cases 64 --time 120 --jobs 1 --seed 1 --out "$camp" >"$work/sweep.log" 2>&1 ||
  fail "sweep: $(tail -5 "$work/sweep.log")"
cp "$source/corpus/regress/decode.legacy_raises._.json" \
   "$source/corpus/regress/decode.fused_out_of_bounds._.json" "$camp/failures/" || fail "cp"
"$gmfuzz" report "$camp" >/dev/null 2>&1
grep -q 'id="coverage"' "$camp/report.html" && fail "report.html links coverage before there is one"

"$gmfuzz" coverage "$camp" --build "$tree" --source "$source" --jobs 2 \
  >"$work/cov1.out" 2>"$work/cov1.err" || fail "coverage: $(cat "$work/cov1.err")"
"$python" - "$camp/coverage/summary.json" <<'PY' || fail "summary.json"
import json, sys
s = json.load(open(sys.argv[1]))
assert s["format"] == "gmfuzz-coverage-v1", s["format"]
for g in ("semantics", "reference", "oracle"):
    group = s["groups"][g]
    assert group["files"] >= 1, (g, group)
    for k in ("lines", "branches"):
        p = group[k]["percent"]
        assert isinstance(p, (int, float)) and 0 <= p <= 100, (g, k, p)
        assert group[k]["covered"] <= group[k]["count"], (g, k)
files = {f["file"]: f for f in s["files"]}
assert {"kernel/fused_program.h", "reference/reference.c", "core/gm_oracle.c",
        "triage/triage_classify.c", "triage/triage_predict.c"} <= set(files), sorted(files)
# The corpus really ran: an empty profile would be 0 %.
assert files["kernel/fused_program.h"]["lines"]["percent"] > 50, files["kernel/fused_program.h"]
assert " 2 JSON" in s["inputs"], s["inputs"]
assert "(0 raw," in s["inputs"], s["inputs"]  # not the seeds in corpus/
swept = int(s["inputs"].split(" swept)")[0].rsplit(" ", 1)[1])
log = open(sys.argv[1].replace("coverage/summary.json", "logs/job-0.log")).read()
checked = int(log.split("stat::number_of_executed_units:")[1].split()[0])
assert swept == checked > 0, (s["inputs"], checked)
unreached = {u["file"]: u for u in s["unreached"]}
assert "kernel/fused_program.h" in unreached and "reference/reference.c" in unreached
for u in unreached.values():
    for b in u["branches"]:
        assert b["never"] in ("true", "false", "evaluated") and b["line"] > 0, b
        assert b["true"] == 0 or b["false"] == 0, b
PY
grep -q "kernel/fused_program.h" "$camp/coverage/summary.txt" || fail "summary.txt"
grep -q "fused_program.h" "$camp/coverage/html/index.html" || fail "html/index.html"
grep -q 'href="coverage/html/index.html"' "$camp/report.html" || fail "report.html: no link"
grep -q '](coverage/html/index.html)' "$camp/report.md" || fail "report.md: no link"

# Again: the tree is reused, the profile is this run's alone.
"$gmfuzz" coverage "$camp" --build "$tree" --source "$source" --jobs 2 \
  >"$work/cov2.out" 2>"$work/cov2.err" || fail "second coverage: $(cat "$work/cov2.err")"
grep -q "reused the tree" "$work/cov2.err" || fail "tree not reused: $(cat "$work/cov2.err")"
n=$(ls "$camp/coverage/profiles" | wc -l)
[ "$n" -eq 1 ] || fail "$n raw profiles after the second run (one expected)"
echo "coverage.campaign: passed"
