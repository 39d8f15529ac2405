#!/usr/bin/env bash
# The "Against Triton" table of docs/KERNEL_ABI.md in one run (GPU machine):
#   bench/kernel_vs_table.sh LIB TARGET OUTDIR
# kernel_vs.py's event-timed replays (--json), then Nsight Compute's GPU time
# per kernel with the caches flushed before each kernel (cold) and not (warm),
# clocks left as they are; prints the merged markdown table.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
lib="$1" target="$2" out="$3" calls=7
mkdir -p "$out"
python3 "$here/kernel_vs.py" --ours "$lib" --vs "$target" --json "$out/kernel_vs.json"
for cc in all none; do
  ncu --clock-control none --cache-control "$cc" --metrics gpu__time_duration.sum --csv \
    --kernel-name regex:'fused_cuda_kernel|_metadata_kernel' \
    python3 "$here/kernel_vs.py" --ours "$lib" --vs "$target" --eager "$calls" \
    >"$out/ncu_$cc.csv" 2>"$out/ncu_$cc.err"
done
python3 "$here/ncu_kernel_vs.py" --table "$calls" "$out/ncu_all.csv" "$out/ncu_none.csv" \
  "$out/kernel_vs.json" | tee "$out/table.md"
