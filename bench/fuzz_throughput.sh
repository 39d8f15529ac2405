#!/usr/bin/env bash
# Throughput of the libFuzzer CPU target (issue 4 target: >= 20,000 exec/s
# median over 60 s on one core, default mix). The default mix: the seed
# corpus (corpus/seed), the dictionary, both mutation levels
# (GMFUZZ_CASE_MUTATION default), run past findings (GMFUZZ_KEEP_GOING=1,
# each new signature saved once). One libFuzzer process is one core.
#
#   bench/fuzz_throughput.sh [options]
#     --build DIR          the GMFUZZ_FUZZ tree (default build/fuzz; made if missing)
#     --time S             seconds per run (default 60)
#     --runs N             runs, libFuzzer seeds 1..N (default 3)
#     --case-mutation P    GMFUZZ_CASE_MUTATION for the runs (default: the target's)
#     -- FLAGS...          extra libFuzzer flags (e.g. -entropic_scale_per_exec_time=1)
#
# Prints, per run, libFuzzer's average exec/s over the run (wall clock),
# the executions per CPU second of the fuzzer process (user + system time,
# from /usr/bin/time: what one dedicated core would do, on a machine where
# other work competes for the cores), executions, cov and ft at the end;
# then the medians over the runs.
set -euo pipefail
source "$(dirname "$0")/fuzz_common.sh"
root="$fuzz_common_root"
build="$root/build/fuzz"
seconds=60
runs=3
case_mutation=""
extra=()
while [ $# -gt 0 ]; do
  case "$1" in
    --build) build="$2"; shift 2 ;;
    --time) seconds="$2"; shift 2 ;;
    --runs) runs="$2"; shift 2 ;;
    --case-mutation) case_mutation="$2"; shift 2 ;;
    --) shift; extra=("$@"); break ;;
    *) echo "fuzz_throughput.sh: unknown option $1" >&2; exit 2 ;;
  esac
done
fuzz_common_build "$build"
target="$build/fuzz/gmfuzz-libfuzzer-cpu"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

timer=()
[ -x /usr/bin/time ] && timer=(/usr/bin/time -f '%U %S' -o "$work/cpu")
printf '%-5s %10s %12s %12s %6s %7s\n' seed exec/s exec/cpu-s execs cov ft
for s in $(seq 1 "$runs"); do
  rm -rf "$work/corpus" && mkdir -p "$work/corpus" && echo "- -" >"$work/cpu"
  env GMFUZZ_KEEP_GOING=1 GMFUZZ_FAILURE_DIR="$work/failures" \
    ${case_mutation:+GMFUZZ_CASE_MUTATION=$case_mutation} \
    "${timer[@]}" "$target" -max_total_time="$seconds" -seed="$s" -dict="$root/fuzz/gmfuzz.dict" \
    -print_final_stats=1 "${extra[@]}" "$work/corpus" "$root/corpus/seed" >"$work/log" 2>&1 || true
  rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$work/log")
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$work/log")
  done_line=$(grep -E '^#[0-9]+[[:space:]]+DONE' "$work/log" | tail -1)
  cov=$(sed -n 's/.*cov: \([0-9]*\).*/\1/p' <<<"$done_line")
  ft=$(sed -n 's/.*ft: \([0-9]*\).*/\1/p' <<<"$done_line")
  per_cpu=$(awk -v n="${execs:-0}" 'NR == 1 && $1 != "-" {printf "%.0f", n / ($1 + $2)}' "$work/cpu")
  printf '%-5s %10s %12s %12s %6s %7s\n' "$s" "${rate:--}" "${per_cpu:--}" "${execs:--}" "${cov:--}" "${ft:--}"
  echo "${rate:-0}" >>"$work/rates"
  echo "${per_cpu:-0}" >>"$work/per_cpu"
done
echo "median over $runs runs of ${seconds} s: $(fuzz_common_median <"$work/rates") exec/s," \
     "$(fuzz_common_median <"$work/per_cpu") exec per CPU second"
echo "load average at the end: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) cores"
