#!/usr/bin/env bash
# Both engines find a planted fault from a cold start: no seed corpus, no
# dictionary, one job each, the same fault (kernel/fused_faults.h).
#
#   libFuzzer  the variant that bench/detect_faults.sh builds
#              (BUILD/variants/<fault>/)
#   AFL++      a tree compiled by afl-clang-fast with the same fault
#              (BUILD-afl/, gmfuzz-afl in persistent mode)
#
# Each runs `gmfuzz fuzz --no-seeds --no-dict --jobs 1 --stop-on-new` and
# counts as a detection when it stops at a new signature whose reproducer
# does not replay on the correct kernel (the difference is the fault's).
#
#   bench/cold_start.sh [--fault NAME] [--time S] [--build DIR] [--out DIR] [--no-build]
#     --fault   the planted fault (default scan_exclusive)
#     --time    seconds each engine gets (default 300)
#     --build   the libFuzzer variants' tree (default build/faults); the
#               AFL++ tree is DIR-afl
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
fault=scan_exclusive
time_limit=300
build="$root/build/faults"
out=""
do_build=1
while [ $# -gt 0 ]; do
  case "$1" in
    --fault) fault="$2"; shift 2 ;;
    --time) time_limit="$2"; shift 2 ;;
    --build) build="$2"; shift 2 ;;
    --out) out="$2"; shift 2 ;;
    --no-build) do_build=0; shift ;;
    -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) echo "cold_start: unknown argument $1" >&2; exit 2 ;;
  esac
done
for tool in clang afl-clang-fast afl-fuzz; do
  command -v "$tool" >/dev/null 2>&1 || { echo "cold_start: $tool is needed" >&2; exit 77; }
done
afl_build="$build-afl"
jobs="$(nproc 2>/dev/null || echo 2)"

if [ "$do_build" = 1 ]; then
  "$root/bench/detect_faults.sh" --build-only --build "$build" "$fault" none
  mkdir -p "$afl_build"
  cmake -S "$root" -B "$afl_build" -DCMAKE_C_COMPILER=afl-clang-fast -DCMAKE_BUILD_TYPE=Release \
    -DGMFUZZ_CUDA=OFF -DBUILD_TESTING=OFF -DGMFUZZ_FAULT="$fault" >"$afl_build/cold-start-configure.log" 2>&1 ||
    { cat "$afl_build/cold-start-configure.log" >&2; exit 1; }
  AFL_QUIET=1 cmake --build "$afl_build" -j "$jobs" --target gmfuzz-afl gmfuzz \
    >"$afl_build/cold-start-build.log" 2>&1 || { tail -40 "$afl_build/cold-start-build.log" >&2; exit 1; }
fi

built="$(sed -n 's/^GMFUZZ_FAULT:STRING=//p' "$afl_build/CMakeCache.txt" 2>/dev/null || true)"
if [ "$built" != "$fault" ]; then
  echo "cold_start: $afl_build is built with fault '$built', not '$fault' (drop --no-build)" >&2
  exit 2
fi
[ -n "$out" ] || out="$root/out/cold-start-$(date -u +%Y%m%dT%H%M%SZ)"
mkdir -p "$out"
failed=0

# One engine's campaign; prints its line. The first of its signatures
# whose reproducer does not replay on the correct kernel is the detection.
run_engine() {  # name gmfuzz target engine
  local name="$1" gmfuzz="$2" target="$3" engine="$4" dir="$out/$1" rc=0 line repro
  rm -rf "$dir"
  "$gmfuzz" fuzz --engine "$engine" --target "$target" --no-seeds --no-dict --jobs 1 \
    --stop-on-new --time "$time_limit" --out "$dir" >"$dir.summary" 2>"$dir.stderr" || rc=$?
  while IFS= read -r line; do
    repro="$(sed -nE 's/^    repro: (.*) \(bs .*/\1/p' <<<"$line")"
    if [ -n "$repro" ] && ! "$build/variants/none/gmfuzz" replay "$repro" >>"$dir.replay-correct" 2>&1; then
      echo "$name: found $fault from a cold start: $(grep -B1 -F "$repro" "$dir.summary" | head -1 | sed 's/^  signature //')"
      return
    fi
  done < <(grep '^    repro: ' "$dir.summary")
  echo "$name: NOT found (exit $rc; see $dir.summary)"
  failed=$((failed + 1))
}

: >"$out/result.txt"
run_engine libfuzzer "$build/variants/$fault/gmfuzz" \
  "$build/variants/$fault/gmfuzz-libfuzzer-cpu" libfuzzer >>"$out/result.txt"
run_engine afl++ "$afl_build/cli/gmfuzz" "$afl_build/fuzz/gmfuzz-afl" afl++ >>"$out/result.txt"
cat "$out/result.txt"
[ "$failed" -eq 0 ]
