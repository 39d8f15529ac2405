#!/usr/bin/env bash
# Side-by-side throughput of the libFuzzer CPU target: a base commit's tree
# and this one, on one machine in one run, alternating (base, this, this,
# base, ...) so that a drift of the machine's speed (other work on shared
# cores) hits both alike; the figure is the ratio of each pair (issue 23,
# item 4). Per side and run: executions per CPU second of the fuzzer
# process (user + system, /usr/bin/time: what one dedicated core would do),
# and cov and ft at the end.
#
#   bench/fuzz_paired.sh [options]
#     --base COMMIT   the base tree (default: main); built from `git archive`
#                     in a temporary folder, with fuzz_throughput.sh's options
#     --build DIR     this tree's GMFUZZ_FUZZ build (default build/fuzz)
#     --time S        default mix: seconds per run (default 30), as fuzz_throughput.sh
#     --runs N        pairs, libFuzzer seeds 1..N (default 3)
#     --fixed N       fixed work instead: -runs=N from the corpus folder given by
#                     --corpus (read only; new inputs go to a scratch folder), so
#                     that both sides do about the same work whatever the machine
#     --corpus DIR    the fixed-work corpus (default corpus/seed)
#
# Prints each run, then per figure min / median / max of the ratios this/base.
set -euo pipefail
source "$(dirname "$0")/fuzz_common.sh"
root="$fuzz_common_root"
base_commit=main
build="$root/build/fuzz"
seconds=30
runs=3
fixed=0
corpus="$root/corpus/seed"
while [ $# -gt 0 ]; do
  case "$1" in
    --base) base_commit="$2"; shift 2 ;;
    --build) build="$2"; shift 2 ;;
    --time) seconds="$2"; shift 2 ;;
    --runs) runs="$2"; shift 2 ;;
    --fixed) fixed="$2"; shift 2 ;;
    --corpus) corpus="$2"; shift 2 ;;
    *) echo "fuzz_paired.sh: unknown option $1" >&2; exit 2 ;;
  esac
done
[ -x /usr/bin/time ] || { echo "fuzz_paired.sh: needs /usr/bin/time" >&2; exit 2; }
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/base"
git -C "$root" archive "$base_commit" | tar -x -C "$work/base"
(fuzz_common_root="$work/base"; fuzz_common_build "$work/base/build/fuzz")
fuzz_common_build "$build"
declare -A target=([base]="$work/base/build/fuzz/fuzz/gmfuzz-libfuzzer-cpu"
                   [this]="$build/fuzz/gmfuzz-libfuzzer-cpu")

# One run of side $1 with seed $2: prints "execs-per-cpu-s cov ft".
fuzz_paired_run() {
  local side="$1" seed="$2" limit=(-max_total_time="$seconds") inputs=("$root/corpus/seed")
  rm -rf "$work/corpus" "$work/failures" && mkdir -p "$work/corpus"
  if [ "$fixed" -gt 0 ]; then
    limit=(-runs="$fixed")
    inputs=("$corpus")
  fi
  env GMFUZZ_KEEP_GOING=1 GMFUZZ_FAILURE_DIR="$work/failures" \
    /usr/bin/time -f '%U %S' -o "$work/cpu" "${target[$side]}" "${limit[@]}" -seed="$seed" \
    -dict="$root/fuzz/gmfuzz.dict" -print_final_stats=1 "$work/corpus" "${inputs[@]}" \
    >"$work/log" 2>&1 || true
  local execs done_line
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$work/log")
  done_line=$(grep -E '^#[0-9]+[[:space:]]+DONE' "$work/log" | tail -1)
  awk -v n="${execs:-0}" -v cov="$(sed -n 's/.*cov: \([0-9]*\).*/\1/p' <<<"$done_line")" \
      -v ft="$(sed -n 's/.*ft: \([0-9]*\).*/\1/p' <<<"$done_line")" \
      'NR == 1 {printf "%.0f %s %s\n", n / ($1 + $2), cov, ft}' "$work/cpu"
}

mode=$([ "$fixed" -gt 0 ] && echo "fixed work: -runs=$fixed from $corpus" || echo "default mix: $seconds s a run")
echo "base $base_commit vs this tree; $mode; $runs pairs"
printf '%-5s %-5s %12s %6s %7s\n' seed side exec/cpu-s cov ft
for s in $(seq 1 "$runs"); do
  order=(base this)
  [ $((s % 2)) -eq 0 ] && order=(this base)
  for side in "${order[@]}"; do
    read -r rate cov ft <<<"$(fuzz_paired_run "$side" "$s")"
    printf '%-5s %-5s %12s %6s %7s\n' "$s" "$side" "$rate" "$cov" "$ft"
    echo "$rate $cov $ft" >"$work/$side.$s"
  done
  paste "$work/this.$s" "$work/base.$s" |
    awk '{printf "%.4f %.4f %.4f\n", $1 / $4, $2 / $5, $3 / $6}' >>"$work/ratios"
done
for col in 1 2 3; do
  name=$(echo "exec/cpu-s cov ft" | cut -d' ' -f"$col")
  cut -d' ' -f"$col" "$work/ratios" | sort -g |
    awk -v name="$name" -v med="$(cut -d' ' -f"$col" "$work/ratios" | fuzz_common_median)" \
      '{v[NR] = $1} END {printf "this/base %-10s min %s  median %s  max %s\n", name, v[1], med, v[NR]}'
done
echo "load average at the end: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) cores"
