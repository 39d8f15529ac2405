#!/usr/bin/env bash
# gmfuzz bisect on a repository of its own (issue 25; tests/history_repo.py builds it):
# 40 commits of a CPU torch target, last_page_dropped planted at 23 and removed at 34,
# a syntax error at 12, an import failure at 28. Skips (77) without torch or git.
#   history_bisect.sh PYTHON GMFUZZ SOURCE_DIR WORK_DIR
# Checks, from the printed lines and the record (REPRO.bisect.jsonl):
#   A  --good 1 --bad 33: commit 23, in at most 8 tested revisions;
#   B  --fixed --bad 23 --good 40: commit 34, in at most 8;
#   C  --good 1 --bad 23: commit 12 is tested first and skipped (the syntax error), and
#      the answer is still 23;
#   D  --fixed --bad 23 --good 34: commit 28 is skipped (the import), the answer 34;
#   E  A with a --build that fails at commit 22: skipped, so the answer is not one
#      commit but 22 or 23 (exit 1);
# and after all of them the user's work tree (left dirty on purpose, with a staged
# file), HEAD, branch, index, stash and worktree list are as before, no bisect state
# is left in .git, and the scratch folder is empty.
set -u
python="$1" gmfuzz="$2" src="$3" work="$4"
if ! "$python" -c "import torch" >/dev/null 2>&1 || ! command -v git >/dev/null; then
  echo "SKIP: needs git and $python with torch (apt-get install python3-torch)"
  exit 77
fi
export GMFUZZ_PYTHON="$python" GMFUZZ_TORCH_FAULT=
rm -rf "$work" && mkdir -p "$work/scratch" || exit 1
cd "$work" || exit 1
fail() { echo "FAIL: $*"; exit 1; }
"$python" -B "$src/tests/history_repo.py" "$src" "$work/repo" || fail "building the repository"
c() { awk -v n="$1" '$1 == n {print $2}' "$work/commits.txt"; }
[ -n "$(c 40)" ] || fail "commits.txt lists no commit 40"

# The reproducer: last_page_dropped's case minimized on the example (the fault by name).
GMFUZZ_TORCH_FAULT=last_page_dropped "$gmfuzz" minimize \
  "$src/examples/fault_cases/torch_fused-last_page_dropped.json" \
  --target "python:$src/examples/torch_fused.py" --target-device cpu -o repro.json \
  > minimize.log 2>&1 || { cat minimize.log; fail "minimize"; }

# The user's state, dirty on purpose: a change, an untracked file, a staged file.
echo "work in progress" >> repo/CHANGES
echo "untracked" > repo/notes.txt
echo "staged" > repo/staged.txt && git -C repo add staged.txt
state() {
  for a in "status --porcelain=v1 --untracked-files=all" "rev-parse HEAD" "symbolic-ref HEAD" \
           "diff" "diff --cached" "ls-files --stage" "stash list" "worktree list --porcelain" \
           "branch --list"; do
    echo "== git $a"; git -C repo $a
  done
  ls repo/.git | grep -i bisect
  ls -A scratch
}
state > before.txt 2>&1

# bisect NAME EXPECT_RC ARGS...: one search; NAME.log its output.
bisect() {
  local name="$1" want="$2"; shift 2
  "$gmfuzz" bisect repro.json --repo repo --target python:kernel/fused.py --target-device cpu \
    --scratch "$work/scratch" --record "$name.jsonl" "$@" > "$name.log" 2>&1
  local rc=$?
  cat "$name.log"
  [ "$rc" = "$want" ] || fail "$name: exit $rc, expected $want"
}
# check NAME KIND FIRST_N MAX_TESTED SKIPPED_N...: the record of NAME's search.
check() {
  "$python" - "$work/$1.jsonl" "$work/commits.txt" "${@:2}" << 'PY' || fail "$1: the record"
import json, sys
rec, commits, kind, first, most = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4], int(sys.argv[5])
skipped = sorted(int(n) for n in sys.argv[6:])
number = {h: int(n) for n, h in (l.split() for l in open(commits))}
lines = open(rec).read().splitlines()
assert len(lines) == 1, "one search, one line: %d" % len(lines)
doc = json.loads(lines[0])
assert doc["format"] == "gmfuzz-bisect-v1" and doc["search"] == kind, doc["search"]
assert doc["bucket"].startswith("target_deviates:page_table|"), doc["bucket"]
steps = doc["steps"]
assert doc["tested"] == len(steps) <= most, "%d tested (at most %d)" % (doc["tested"], most)
got = sorted(number[s["commit"]] for s in steps if s["result"] == "skipped")
assert got == skipped and doc["skipped"] == len(skipped), "skipped %s, expected %s" % (got, skipped)
for s in steps:
    n = number[s["commit"]]
    if s["result"] == "skipped":
        want = {12: "SyntaxError", 28: "ModuleNotFoundError", 22: "the build exited with 3"}[n]
        assert want in s["why"], "commit %d: %s" % (n, s["why"])
        continue
    broken = 23 <= n < 34
    assert s["result"] == ("reproduces" if broken else "gone"), "commit %d: %s" % (n, s["result"])
    assert (s["bucket"] == doc["bucket"]) == broken, "commit %d: bucket %s" % (n, s["bucket"])
if first == "none":
    assert doc["first"] is None
    got = sorted(number[c["commit"]] for c in doc["suspects"])
    assert got == [22, 23], "suspects %s" % got
else:
    assert number[doc["first"]["commit"]] == int(first), doc["first"]
    assert doc["first"]["author_date"].startswith("2026-"), doc["first"]
    assert doc["first"]["subject"].startswith("commit %s:" % first), doc["first"]
print("record ok: first %s, %d tested" % (doc["first"], len(steps)))
PY
}

bisect A 0 --good "$(c 1)" --bad "$(c 33)"
grep -q "^first introduced commit: $(c 23) commit 23: " A.log || fail "A: commit 23 not named"
grep -Eq "^[0-9]+ revisions tested, 0 skipped" A.log || fail "A: no count"
check A introduced 23 8
bisect B 0 --fixed --bad "$(c 23)" --good "$(c 40)"
grep -q "^first fixed commit: $(c 34) commit 34: " B.log || fail "B: commit 34 not named"
check B fixed 34 8
bisect C 0 --good "$(c 1)" --bad "$(c 23)"
grep -q "^first introduced commit: $(c 23) " C.log || fail "C: commit 23 not named"
grep -Eq "^[0-9]+ revisions tested, 1 skipped: $(c 12 | cut -c1-12)$" C.log || fail "C: 12 not reported"
check C introduced 23 8 12
bisect D 0 --fixed --bad "$(c 23)" --good "$(c 34)"
grep -Eq "^[0-9]+ revisions tested, 1 skipped: $(c 28 | cut -c1-12)$" D.log || fail "D: 28 not reported"
check D fixed 34 8 28
# The build sees the checkout: CHANGES ends with the commit's own line.
bisect E 1 --good "$(c 1)" --bad "$(c 33)" \
  --build 'test "$(tail -n 1 CHANGES)" != "change 22" || exit 3'
grep -q "^not one commit" E.log || fail "E: an answer where 22 could not be tested"
check E introduced none 8 22

state > after.txt 2>&1
diff before.txt after.txt || fail "the user's repository changed"
# The default record goes beside the reproducer.
"$gmfuzz" bisect repro.json --repo repo --target python:kernel/fused.py --target-device cpu \
  --scratch "$work/scratch" --good "$(c 21)" --bad "$(c 24)" > default.log 2>&1 ||
  { cat default.log; fail "the short search"; }
[ "$(wc -l < repro.bisect.jsonl)" = 1 ] || fail "no record in repro.bisect.jsonl"
# Usage: the ends out of order.
"$gmfuzz" bisect repro.json --repo repo --target python:kernel/fused.py --target-device cpu \
  --good "$(c 33)" --bad "$(c 1)" > order.log 2>&1
rc=$?
[ $rc = 2 ] && grep -q "is not an ancestor" order.log || { cat order.log; fail "ends out of order: $rc"; }
"$gmfuzz" bisect repro.json --repo repo --target python:kernel/fused.py --target-device cpu \
  --good "$(c 5)" --bad "$(c 5)" > same.log 2>&1
rc=$?
[ $rc = 2 ] && grep -q "the same commit" same.log || { cat same.log; fail "same ends: $rc"; }
# Not a commit, and a target outside the repository: usage.
"$gmfuzz" bisect repro.json --repo repo --target python:kernel/fused.py --good no-such-rev \
  --bad "$(c 5)" > rev.log 2>&1
rc=$?
[ $rc = 2 ] && grep -q -- "--good no-such-rev: not a commit" rev.log || { cat rev.log; fail "bad rev: $rc"; }
"$gmfuzz" bisect repro.json --repo repo --target "python:$work/repo/kernel/fused.py" \
  --good "$(c 1)" --bad "$(c 5)" > abs.log 2>&1
rc=$?
[ $rc = 2 ] && grep -q "relative to the repository" abs.log || { cat abs.log; fail "absolute target: $rc"; }
state > after.txt 2>&1
diff before.txt after.txt || fail "the user's repository changed"
echo "PASS"
