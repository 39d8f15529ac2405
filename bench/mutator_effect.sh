#!/usr/bin/env bash
# Does the case-level custom mutator help? The libFuzzer CPU target runs
# with GMFUZZ_CASE_MUTATION=0 (libFuzzer's byte mutators only, through
# LLVMFuzzerMutate) and with case-level mutation (by default 20 and 50
# percent), for the same time and libFuzzer seeds, and each run reports:
#   cov, ft       libFuzzer's coverage and features at the end
#   signatures    distinct classification signatures (known and new) that
#                 the final corpus reaches: its inputs replayed through the
#                 harness (gmfuzz-afl) -- semantic coverage of the SPEC
#                 section 4 classes, modes and buffers
#
#   bench/mutator_effect.sh [options]
#     --build DIR        the GMFUZZ_FUZZ tree (default build/fuzz; made if missing)
#     --time S           seconds per run (default 60)
#     --runs N           libFuzzer seeds 1..N per setting (default 3)
#     --settings "P..."  GMFUZZ_CASE_MUTATION values to compare (default "0 20 50")
#     --start seed|empty start from corpus/seed (default) or from nothing
#
# Prints one line per run and the medians per setting.
set -euo pipefail
source "$(dirname "$0")/fuzz_common.sh"
root="$fuzz_common_root"
build="$root/build/fuzz"
seconds=60
runs=3
settings="0 20 50"
start=seed
while [ $# -gt 0 ]; do
  case "$1" in
    --build) build="$2"; shift 2 ;;
    --time) seconds="$2"; shift 2 ;;
    --runs) runs="$2"; shift 2 ;;
    --settings) settings="$2"; shift 2 ;;
    --start) start="$2"; shift 2 ;;
    *) echo "mutator_effect.sh: unknown option $1" >&2; exit 2 ;;
  esac
done
fuzz_common_build "$build"
target="$build/fuzz/gmfuzz-libfuzzer-cpu"
replay="$build/fuzz/gmfuzz-afl"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
seeds=()
[ "$start" = seed ] && seeds=("$root/corpus/seed")

# One run: setting name, GMFUZZ_CASE_MUTATION, libFuzzer seed. The
# target adds -entropic_scale_per_exec_time=1 itself (fuzz_libfuzzer.c).
one_run() {
  local name="$1" percent="$2" s="$3" dir="$work/$1-$3"
  mkdir -p "$dir/corpus"
  env GMFUZZ_CASE_MUTATION="$percent" GMFUZZ_KEEP_GOING=1 GMFUZZ_FAILURE_DIR="$dir/failures" \
    "$target" -max_total_time="$seconds" -seed="$s" -dict="$root/fuzz/gmfuzz.dict" \
    -print_final_stats=1 "$dir/corpus" "${seeds[@]}" >"$dir/log" 2>&1 || true
  local done_line cov ft execs sigs
  done_line=$(grep -E '^#[0-9]+[[:space:]]+DONE' "$dir/log" | tail -1)
  cov=$(sed -n 's/.*cov: \([0-9]*\).*/\1/p' <<<"$done_line")
  ft=$(sed -n 's/.*ft: \([0-9]*\).*/\1/p' <<<"$done_line")
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$dir/log")
  # Every input the run kept (its corpus and the seeds it started from).
  sigs=$(find "$dir/corpus" "${seeds[@]}" -type f -print0 | xargs -0 -r env GMFUZZ_FAILURE_DIR="$dir/replay" \
           "$replay" 2>/dev/null | awk '$2 != "match" {print $3}' | sort -u | wc -l)
  printf '%-8s %4s %10s %6s %7s %10s\n' "$name" "$s" "${execs:--}" "${cov:--}" "${ft:--}" "$sigs"
  echo "$cov $ft $sigs" >>"$work/$name.results"
}

printf '%-8s %4s %10s %6s %7s %10s\n' setting seed execs cov ft signatures
for s in $(seq 1 "$runs"); do
  for p in $settings; do
    one_run "case$p" "$p" "$s"
  done
done
for p in $settings; do
  name="case$p"
  printf 'median %-8s cov %s  ft %s  signatures %s\n' "$name" \
    "$(cut -d' ' -f1 "$work/$name.results" | fuzz_common_median)" \
    "$(cut -d' ' -f2 "$work/$name.results" | fuzz_common_median)" \
    "$(cut -d' ' -f3 "$work/$name.results" | fuzz_common_median)"
done
echo "($runs runs of ${seconds} s per setting, start: $start; load average $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) cores)"
