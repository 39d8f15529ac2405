#!/bin/bash -eu
# gmfuzz's build for ClusterFuzzLite and OSS-Fuzz (the base-builder contract):
# the compiler and flags are $CC and $CFLAGS, the engine is $LIB_FUZZING_ENGINE
# (libFuzzer, AFL++ or honggfuzz: the same script), and everything a target
# needs lands in $OUT: the binary, <target>_seed_corpus.zip, <target>.dict,
# <target>.options and, for the differential target, the baseline it loads
# (<target>.baseline.json, found next to the binary: fuzz/fuzz_harness.h).
# A new difference outside the baseline aborts the differential target, so
# the engine records it as a crash; `gmfuzz decode CRASH -o case.json` turns
# the crash file into a case document.
#
# Run from the source tree (the image's WORKDIR). Also runs outside the image
# (tests/cflite_build.sh): then cJSON is the system's unless $SRC/cjson exists,
# and $GMFUZZ_FAULT may plant a fault (kernel/fused_faults.h) for that test.
root="$PWD"
work="${WORK:-/tmp}/gmfuzz-build"
mkdir -p "$work" "$OUT"

cjson_args=()
if [ -f "${SRC:-/nonexistent}/cjson/cJSON.c" ]; then
  mkdir -p "$work/cjson/include/cjson"
  $CC $CFLAGS -c "$SRC/cjson/cJSON.c" -o "$work/cjson/cJSON.o"
  ar rcs "$work/cjson/libcjson.a" "$work/cjson/cJSON.o"
  cp "$SRC/cjson/cJSON.h" "$work/cjson/include/cjson/"
  cjson_args=(-DGMFUZZ_CJSON_INCLUDE_DIR="$work/cjson/include"
              -DGMFUZZ_CJSON_LIBRARY="$work/cjson/libcjson.a")
fi

# No build type: the flags are the builder's alone. No CUDA, no tests.
cmake -S "$root" -B "$work/tree" -DCMAKE_BUILD_TYPE= -DCMAKE_C_COMPILER="$CC" \
  -DCMAKE_C_FLAGS="$CFLAGS" -DGMFUZZ_FUZZ=ON -DGMFUZZ_FUZZ_ENGINE="$LIB_FUZZING_ENGINE" \
  -DGMFUZZ_CUDA=OFF -DGMFUZZ_WERROR=OFF -DBUILD_TESTING=OFF -DGMFUZZ_FAULT="${GMFUZZ_FAULT:-}" \
  "${cjson_args[@]}"
cmake --build "$work/tree" -j "$(nproc)"

# zip without the zip tool (python3 is in every builder image).
seed_zip() {  # zip files...
  local zip="$1"; shift
  [ $# -gt 0 ] || return 0
  python3 - "$zip" "$@" <<'PY'
import os, sys, zipfile
with zipfile.ZipFile(sys.argv[1], "w", zipfile.ZIP_DEFLATED) as z:
    for i, path in enumerate(sys.argv[2:]):
        z.write(path, "%04d-%s" % (i, os.path.basename(path)))
PY
}

install_target() {  # binary dict max_len seeds...
  local bin="$1" dict="$2" max_len="$3" name
  shift 3
  name="$(basename "$bin")"
  cp "$bin" "$OUT/$name"
  cp "$dict" "$OUT/$name.dict"
  printf '[libfuzzer]\ndict = %s.dict\nmax_len = %s\n' "$name" "$max_len" > "$OUT/$name.options"
  seed_zip "$OUT/${name}_seed_corpus.zip" "$@"
  echo "build.sh: $name ($# seeds)"
}

# The differential target on the CPU backend, with its baseline beside it.
install_target "$work/tree/fuzz/gmfuzz-libfuzzer-cpu" "$root/fuzz/gmfuzz.dict" 65536 \
  "$root"/corpus/seed/*
cp "$root/corpus/known.json" "$OUT/gmfuzz-libfuzzer-cpu.baseline.json"

# The reader targets (fuzz/readers), each with the repository's documents of
# its kind.
shopt -s nullglob
data="$root/tests/data"
for bin in "$work"/tree/fuzz/readers/gmfuzz-read-*; do
  kind="${bin##*/gmfuzz-read-}"
  case "$kind" in
    case|vector) seeds=("$data"/cases/*.json "$data"/valid/case_*.json "$data"/malformed/*.json) ;;
    repro) seeds=("$root"/corpus/regress/*.json "$data"/replay/*.json) ;;
    campaign|stats) seeds=("$root"/fuzz/readers/seeds/"$kind"/*) ;;
    baseline) seeds=("$root/corpus/known.json") ;;
    *) seeds=("$root"/corpus/regress/*.json "$data"/cases/*.json "$root/corpus/known.json") ;;
  esac
  install_target "$bin" "$root/fuzz/readers/readers.dict" 16384 "${seeds[@]}"
done
