#!/usr/bin/env bash
# Campaigns on a JIT-specializing target, every one from an EMPTY compile
# cache (issue 22; on one H200 with 16 cores: first case checked within
# 15 s, sweep >= 10,000 cases/s over the whole run and 20,000 steady, fuzz
# >= 5,000 and 10,000, every planted fault found by both within 30 s, and
# cold campaigns on the correct kernel with no finding).
#
#   bench/specializing.sh GMFUZZ LIBFUZZER TARGET OUT [options]
#     GMFUZZ               the gmfuzz binary
#     LIBFUZZER            the CPU libFuzzer binary (gmfuzz-libfuzzer-cpu)
#     TARGET               e.g. python:examples/triton_specializing.py
#     OUT                  campaign folders and logs
#     --jobs N             jobs a campaign (default: nproc)
#     --time S             seconds of the throughput campaigns (default 60)
#     --settle S           seconds before the steady state (default 20)
#     --fault-time S       a fault campaign's budget (default 30)
#     --faults "A B ..."   the planted faults (default: GMFUZZ_SPEC_FAULT's seven)
#     --cold N             cold campaigns on the correct kernel (default 10)
#     --cold-time S        their seconds (default 20)
#     --target-device D    cuda (default) or cpu
#     --only LIST          some of: speed faults cold (default all three)
#
# Each campaign gets a new empty TRITON_CACHE_DIR (--target-cache). Prints
# one line a campaign: rates (whole run, steady state), when the first case
# was checked (the first second of stats.jsonl with executions), what the
# JIT did, and the exit code with its new signatures.
set -uo pipefail
gmfuzz="${1:?usage: bench/specializing.sh GMFUZZ LIBFUZZER TARGET OUT [options]}"
libfuzzer="${2:?}" target="${3:?}" out="${4:?}"
shift 4
jobs="$(nproc)" seconds=60 settle=20 fault_time=30 cold=10 cold_time=20 device=cuda
faults="scan_past_1000 swa_out_tile_pad page_cols_past_512 loc_sentinel_eq tok_guard_dropped floor_div bs1_no_offset"
only="speed faults cold"
while [ $# -gt 0 ]; do
  case "$1" in
    --jobs) jobs="$2"; shift 2 ;;
    --time) seconds="$2"; shift 2 ;;
    --settle) settle="$2"; shift 2 ;;
    --fault-time) fault_time="$2"; shift 2 ;;
    --faults) faults="$2"; shift 2 ;;
    --cold) cold="$2"; shift 2 ;;
    --cold-time) cold_time="$2"; shift 2 ;;
    --target-device) device="$2"; shift 2 ;;
    --only) only="$2"; shift 2 ;;
    *) echo "specializing.sh: unknown option $1" >&2; exit 2 ;;
  esac
done
mkdir -p "$out"

# From stats.jsonl ({"t":T,"execs":N,...} a second): the first second with
# executions, and the rate between --settle and the last sample.
first_case() { awk -F'[:,]' '$4 + 0 > 0 { print $2 + 0; exit }' "$1"; }
steady() {
  awk -v from="$settle" -F'[:,]' '
    { t = $2 + 0; n = $4 + 0 }
    t >= from && t0 == "" { t0 = t; n0 = n }
    { t1 = t; n1 = n }
    END { if (t0 == "" || t1 <= t0) print "-"; else printf "%.0f", (n1 - n0) / (t1 - t0) }' "$1"
}

campaign() {  # name, seconds, engine (sweep|fuzz), then more of gmfuzz's arguments
  local name="$1" secs="$2" engine="$3"
  shift 3
  local dir="$out/$name" cache="$out/$name.cache"
  rm -rf "$dir" "$cache"
  local extra=()
  [ "$engine" = fuzz ] && extra=(--engine-binary "$libfuzzer")
  local t0=$SECONDS
  "$gmfuzz" "$engine" --target "$target" --target-device "$device" --jobs "$jobs" \
    --time "$secs" --no-minimize --target-cache "$cache" --out "$dir" "${extra[@]}" "$@" \
    >"$out/$name.log" 2>&1
  local rc=$? wall=$((SECONDS - t0))
  local whole ran jit new
  whole=$(sed -n 's/^  ran .*, \([0-9.]*k\{0,1\}\) exec\/s.*/\1/p' "$out/$name.log")
  ran=$(sed -n 's/^  ran \([0-9.]*\) s.*/\1/p' "$out/$name.log")
  jit=$(sed -n 's/^  target JIT: \(.*\)/\1/p' "$out/$name.log")
  new=$(grep -c '^  NEW\|  new signature\|^    NEW' "$out/$name.log")
  printf '%-34s exit %s  ran %6s s (wall %3s s)  whole %7s/s  steady %7s/s  first case at %3s s  jit: %s\n' \
    "$name" "$rc" "${ran:--}" "$wall" "${whole:--}" "$(steady "$dir/stats.jsonl")" \
    "$(first_case "$dir/stats.jsonl")" "${jit:-none}"
  grep -E '^  (found|unreliable|by specialization|target workers|minimization)' "$out/$name.log" | sed 's/^/    /'
  rm -rf "$cache"
}

case " $only " in *" speed "*)
  campaign sweep "$seconds" sweep
  campaign fuzz "$seconds" fuzz
esac
case " $only " in *" faults "*)
  for f in $faults; do
    GMFUZZ_SPEC_FAULT="$f" campaign "sweep-$f" "$fault_time" sweep --stop-on-new
    GMFUZZ_SPEC_FAULT="$f" campaign "fuzz-$f" "$fault_time" fuzz --stop-on-new
  done
esac
case " $only " in *" cold "*)
  for k in $(seq 1 "$cold"); do
    if [ $((k % 2)) = 1 ]; then
      campaign "cold-sweep-$k" "$cold_time" sweep --seed "$k"
    else
      campaign "cold-fuzz-$k" "$cold_time" fuzz --seed "$k"
    fi
  done
esac
