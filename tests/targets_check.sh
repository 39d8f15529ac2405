#!/usr/bin/env bash
# One check of a python: target or the torch reference through the real
# worker (docs/TARGETS.md). Skips (77) when the test interpreter has no torch.
#   targets_check.sh PYTHON GMFUZZ OUT (a folder the args may use; OUT.log the output) EXPECT_RC EXPECT_REGEX [ENV=V...] -- gmfuzz args...
# REQUIRE=cuda among the ENVs (not passed on): skips unless torch sees a CUDA
# device; REQUIRE=triton: and Triton imports too; REQUIRE=none: no torch needed
# (lib: targets).
set -u
python="$1" gmfuzz="$2" out="$3" want_rc="$4" want="$5"
shift 5
envs=()
probe="import torch"
while [ $# -gt 0 ] && [ "$1" != -- ]; do
  case "$1" in
    REQUIRE=none) probe="pass" ;;
    REQUIRE=cuda) probe="import torch; assert torch.cuda.is_available()" ;;
    REQUIRE=triton) probe="import torch, triton; assert torch.cuda.is_available()" ;;
    *) envs+=("$1") ;;
  esac
  shift
done
shift
if ! "$python" -c "$probe" >/dev/null 2>&1; then
  echo "SKIP: $python cannot run: $probe (apt-get install python3-torch; a GPU for CUDA)"
  exit 77
fi
rm -rf "$out"; mkdir -p "$(dirname "$out")"
# The campaign's own --out folder too: a folder left by an earlier run would
# be resumed (its corpus, its signatures), and the test would not be the same.
prev=""
for a in "$@"; do
  [ "$prev" = --out ] && rm -rf "$a"
  prev="$a"
done
log="$out.log"
env GMFUZZ_PYTHON="$python" "${envs[@]}" "$gmfuzz" "$@" >"$log" 2>&1
rc=$?
cat "$log" | tail -40
if [ "$rc" != "$want_rc" ]; then
  echo "FAIL: exit $rc, expected $want_rc"
  exit 1
fi
if ! grep -Eq "$want" "$log"; then
  echo "FAIL: the output has no line matching: $want"
  exit 1
fi
echo "ok: exit $rc and /$want/"
