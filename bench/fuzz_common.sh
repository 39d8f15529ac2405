# Shared by the fuzz benchmarks (sourced): the libFuzzer tree they use.
#   fuzz_common_build DIR   configures (once) and builds gmfuzz-libfuzzer-cpu
#                           and gmfuzz-afl (the replay program) in DIR
fuzz_common_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"

fuzz_common_build() {
  local dir="$1"
  if [ ! -f "$dir/CMakeCache.txt" ]; then
    cmake -S "$fuzz_common_root" -B "$dir" -DCMAKE_C_COMPILER=clang -DCMAKE_BUILD_TYPE=Release \
      -DGMFUZZ_FUZZ=ON -DGMFUZZ_CUDA=OFF -DBUILD_TESTING=OFF >/dev/null
  fi
  cmake --build "$dir" -j "$(nproc 2>/dev/null || echo 2)" --target gmfuzz-libfuzzer-cpu gmfuzz-afl >/dev/null
}

# Median of the numbers on stdin.
fuzz_common_median() {
  sort -g | awk '{v[NR] = $1} END {if (NR == 0) print "-"; else if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2}'
}
