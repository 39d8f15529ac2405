#!/usr/bin/env bash
# Throughput of the campaigns on one target (issue 9 item 7: on one H200
# with 16 cores, `python:` the Triton example: fuzz >= 1,000 exec/s with
# one job and >= 10,000 with 16, sweep >= 20,000 cases/s).
#
#   bench/target_speed.sh GMFUZZ TARGET [options]
#     GMFUZZ               the gmfuzz binary
#     TARGET               e.g. python:examples/triton_fused.py
#     --libfuzzer PATH     the CPU libFuzzer binary (gmfuzz-libfuzzer-cpu;
#                          without it, no fuzz campaigns)
#     --time S             seconds a campaign (default 40)
#     --settle S           seconds before the steady state (default 12)
#     --jobs N             the many-job campaigns' jobs (default: nproc)
#     --out DIR            campaign folders (default: a temporary one)
#     --target-device D    cuda (default) or cpu
#     --warm S             seconds of the warm-up sweep (default 20)
#
# First a warm-up sweep (N jobs, 20 s), so that Triton's on-disk cache
# holds every kernel variant. Then, each: sweep with N jobs, fuzz with N
# jobs, fuzz with 1 job. Prints, per campaign, the whole run's rate (the
# workers' start-up inside it: torch, a CUDA context, the kernels' loads),
# the steady state's (from DIR/stats.jsonl: the executions between --settle
# and the last sample, over that time), the machine's CPU busy share, and
# the last times line of a worker (GMFUZZ_WORKER_TIMES=1: where a case's
# time goes, and its CPU time a case).
set -uo pipefail
gmfuzz="${1:?usage: bench/target_speed.sh GMFUZZ TARGET [options]}"
target="${2:?usage: bench/target_speed.sh GMFUZZ TARGET [options]}"
shift 2
libfuzzer="" seconds=40 settle=12 jobs="$(nproc)" out="" device=cuda warm=20
while [ $# -gt 0 ]; do
  case "$1" in
    --libfuzzer) libfuzzer="$2"; shift 2 ;;
    --time) seconds="$2"; shift 2 ;;
    --settle) settle="$2"; shift 2 ;;
    --jobs) jobs="$2"; shift 2 ;;
    --out) out="$2"; shift 2 ;;
    --target-device) device="$2"; shift 2 ;;
    --warm) warm="$2"; shift 2 ;;
    *) echo "target_speed.sh: unknown option $1" >&2; exit 2 ;;
  esac
done
if [ -z "$out" ]; then
  out="$(mktemp -d)"
  trap 'rm -rf "$out"' EXIT
fi
mkdir -p "$out"

busy() { awk '/^cpu /{print $2 + $3 + $4 + $7 + $8, $5 + $6}' /proc/stat; }

# Steady-state rate from stats.jsonl: samples {"t":T,"execs":N,...}.
steady() {
  awk -v from="$settle" -F'[:,]' '
    { t = $2 + 0; n = $4 + 0 }
    t >= from && t0 == "" { t0 = t; n0 = n }
    { t1 = t; n1 = n }
    END { if (t0 == "" || t1 <= t0) print "-"; else printf "%.0f", (n1 - n0) / (t1 - t0) }' "$1"
}

campaign() {  # label, then gmfuzz's arguments
  local label="$1"; shift
  local name="${label//[^a-z0-9]/-}"
  local dir="$out/$name" b0 b1
  rm -rf "$dir"
  b0=$(busy)
  GMFUZZ_WORKER_TIMES=1 "$gmfuzz" "$@" --time "$seconds" --no-minimize --out "$dir" \
    >"$out/$name.log" 2>&1
  b1=$(busy)
  local whole cpu
  whole=$(sed -n 's/^  ran .*, \([0-9.]*k\{0,1\}\) exec\/s.*/\1/p' "$out/$name.log")
  cpu=$(echo "$b0 $b1" | awk '{u = $3 - $1; i = $4 - $2; printf "%.0f%%", 100 * u / (u + i)}')
  printf '%-28s whole run %8s/s   steady state (after %s s) %8s/s   cpu busy %s\n' \
    "$label" "${whole:--}" "$settle" "$(steady "$dir/stats.jsonl")" "$cpu"
  grep -h "gmfuzz_worker:" "$dir"/logs/*.log 2>/dev/null | tail -n 1 | sed 's/^/    /'
}

t=(--target "$target" --target-device "$device")
"$gmfuzz" sweep "${t[@]}" --jobs "$jobs" --time "$warm" --no-minimize --out "$out/warm" \
  >/dev/null 2>&1
campaign "sweep, $jobs jobs" sweep "${t[@]}" --jobs "$jobs"
if [ -n "$libfuzzer" ]; then
  campaign "fuzz, $jobs jobs" fuzz --engine-binary "$libfuzzer" "${t[@]}" --jobs "$jobs"
  campaign "fuzz, 1 job" fuzz --engine-binary "$libfuzzer" "${t[@]}" --jobs 1
fi
echo "load average at the end: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) cores"
