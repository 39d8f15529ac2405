#!/usr/bin/env bash
# check-layout on a made-up tree that breaks each rule once: it must fail and
# name every file; the same tree with the problems removed must pass.
#   check_layout_check.sh CHECK_LAYOUT WORK_DIR
set -u
check="$1" work="$2"
rm -rf "$work" && mkdir -p "$work"/{core,reference,kernel,harness,cli}
cd "$work" || exit 1
printf '#include "gm_up.h"\n' > core/gm_low.h            # (b) core includes harness
printf '#include "gm_low.h"\n' > harness/gm_up.h         # ... and back: (c)
printf '#include "kernel.h"\n#include "k_private.h"\n' > harness/harness_run.c   # (d): k_private.h
printf '/* contract */\n' > kernel/kernel.h
printf '/* private */\n' > kernel/k_private.h
printf '#include "reference.h"\n' > kernel/k.c            # (e) kernel includes reference
printf '/* contract */\n' > reference/reference.h
for i in $(seq 701); do echo "/* $i */"; done > cli/long.c # (a)
printf '#include "gm_up.h"\n#include "kernel.h"\n' > cli/main.c  # allowed: downward, contract
out="$("$check" "$work")"; rc=$?
echo "$out"
fail=0
expect() { grep -qF -- "$1" <<<"$out" || { echo "MISSING: $1"; fail=1; }; }
[ "$rc" = 1 ] || { echo "exit $rc, expected 1"; fail=1; }
expect "(a) cli/long.c: 701 lines, over 700"
expect "(b) core/gm_low.h:1: includes harness/gm_up.h: harness comes after core in the room order"
expect "(c) include circle core -> harness -> core"
expect "(d) harness/harness_run.c:2: includes kernel/k_private.h: not a public header of kernel"
expect "(e) kernel/k.c:1: includes reference/reference.h: kernel and reference share nothing"
expect "5 rooms (core, reference, kernel, harness, cli): 5 problem(s)"
if grep -qF "cli/main.c" <<<"$out" || grep -qF "harness/harness_run.c:1" <<<"$out"; then
  echo "an allowed include was reported"; fail=1
fi
list="$("$check" --list "$work")"
echo "$list"
grep -qxF "cli (2 files, 703 lines) -> kernel (1), harness (1)" <<<"$list" || { echo "bad --list"; fail=1; }
# Without the problems: passes.
rm cli/long.c kernel/k.c kernel/k_private.h
printf '/* nothing upward */\n' > core/gm_low.h
printf '#include "kernel.h"\n' > harness/harness_run.c
out="$("$check" "$work")" || { echo "$out"; echo "the clean tree failed"; fail=1; }
exit $fail
