#!/usr/bin/env bash
# gmfuzz's kernel against another kernel and the row-work floor, GPU cold and warm
# (bench/kernel_row_floor.py; GPU machine):
#   bench/kernel_row_floor.sh FLOOR_LIB TARGET OUTDIR LIB [LIB...]
# FLOOR_LIB is libgmfuzz_row_floor.so (build/*/bench), TARGET python:PATH or lib:PATH, each
# LIB a libgmfuzz_kernel.so (CALLS=N timed calls each, default 7); prints one table per cache regime (ncu --cache-control all:
# cold, none: warm; the clocks left as they are).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
floor="$1" target="$2" out="$3" calls="${CALLS:-7}"
shift 3
ours=()
for lib in "$@"; do ours+=(--ours "$lib"); done
mkdir -p "$out"
python3 "$here/kernel_row_floor.py" run "${ours[@]}" --vs "$target" --floor "$floor" --calls 1
for cc in all none; do
  ncu --clock-control none --cache-control "$cc" --metrics gpu__time_duration.sum --csv \
    --kernel-name regex:'fused_cuda_kernel|_metadata_kernel|row_floor' \
    python3 "$here/kernel_row_floor.py" run "${ours[@]}" --vs "$target" --floor "$floor" --calls "$calls" \
    >"$out/row_floor_$cc.csv" 2>"$out/row_floor_$cc.err"
  echo "== cache-control $cc ($([ "$cc" = all ] && echo cold || echo warm))"
  python3 "$here/kernel_row_floor.py" read "$out/row_floor_$cc.csv" "${ours[@]}" --calls "$calls" | tee "$out/row_floor_$cc.md"
done
