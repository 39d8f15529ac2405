#!/usr/bin/env bash
# .clusterfuzzlite/build.sh as ClusterFuzzLite's `compile` runs it, outside
# the image, three times:
#   1. libFuzzer + ASan: every target lands in $OUT with its seed corpus,
#      dictionary and options; each runs 1,000 inputs from its seed zip, from
#      $OUT; the differential target loads the baseline next to it (a broken
#      one stops it, naming it);
#   2. the same with a planted fault: the differential target aborts, and its
#      crash file becomes a case (gmfuzz decode) that the faulty build flags;
#   3. AFL++'s driver as the engine (CC=afl-clang-fast): the targets build
#      and replay their seeds, and afl-fuzz runs 1,000 inputs.
#   cflite_build.sh SOURCE_DIR WORK
set -u
src="$1" work="$2"
command -v clang >/dev/null || { echo "SKIP: no clang"; exit 77; }
rm -rf "$work"; mkdir -p "$work"
asan="-O1 -fno-omit-frame-pointer -gline-tables-only -fsanitize=address -fsanitize-address-use-after-scope"
t=gmfuzz-libfuzzer-cpu

build() {  # name CC CFLAGS LIB_FUZZING_ENGINE [ENV=V...]
  local name="$1"; mkdir -p "$work/$name/out" "$work/$name/run"
  (cd "$src" && env CC="$2" CFLAGS="$3" LIB_FUZZING_ENGINE="$4" OUT="$work/$name/out" \
     WORK="$work/$name/work" SRC=/nonexistent "${@:5}" bash .clusterfuzzlite/build.sh) \
     > "$work/$name/build.log" 2>&1 ||
    { tail -30 "$work/$name/build.log"; echo "FAIL: build.sh ($name)"; exit 1; }
  grep "^build.sh:" "$work/$name/build.log" | sed "s/^/$name: /"
}

unzip_seeds() {  # out name -> the corpus folder
  local corpus="$1/../run/$2-corpus"; mkdir -p "$corpus"
  [ -f "$1/${2}_seed_corpus.zip" ] && python3 -m zipfile -e "$1/${2}_seed_corpus.zip" "$corpus"
  echo "$corpus"
}

# 1. libFuzzer + ASan
build libfuzzer clang "$asan -fsanitize=fuzzer-no-link" -fsanitize=fuzzer
out="$work/libfuzzer/out"
for f in "$t" "$t.dict" "$t.options" "${t}_seed_corpus.zip" "$t.baseline.json"; do
  [ -s "$out/$f" ] || { echo "FAIL: \$OUT/$f missing"; exit 1; }
done
for bin in "$out"/gmfuzz-*; do
  case "$bin" in *.*) continue ;; esac
  name="${bin##*/}"
  [ -s "$out/$name.options" ] && [ -s "$out/$name.dict" ] ||
    { echo "FAIL: $name has no options or dict"; exit 1; }
  corpus="$(unzip_seeds "$out" "$name")"
  (cd "$work/libfuzzer/run" && GMFUZZ_KEEP_GOING=1 GMFUZZ_FAILURE_DIR="$PWD/failures" \
     "$bin" -runs=1000 -seed=1 -dict="$out/$name.dict" "$corpus") > "$corpus.log" 2>&1 ||
    { tail -20 "$corpus.log"; echo "FAIL: $name did not run 1,000 inputs"; exit 1; }
  # libFuzzer may count a few runs past -runs ("Done 1002 runs"): at least 1,000
  done_runs=$(sed -n 's/^Done \([0-9]*\) runs.*/\1/p' "$corpus.log" | tail -1)
  [ "${done_runs:-0}" -ge 1000 ] || { tail -5 "$corpus.log"; echo "FAIL: $name: not 1,000 runs"; exit 1; }
  echo "libfuzzer: $name ran 1,000 inputs"
done
echo '{"broken' > "$out/$t.baseline.json"
(cd "$work/libfuzzer/run" && "$out/$t" -runs=1 "$work/libfuzzer/run/$t-corpus") \
  > "$work/libfuzzer/run/broken.log" 2>&1 &&
  { echo "FAIL: $t ran with a broken baseline beside it"; exit 1; }
grep -q "GMFUZZ_BASELINE.*$t.baseline.json" "$work/libfuzzer/run/broken.log" ||
  { tail -5 "$work/libfuzzer/run/broken.log"; echo "FAIL: the error does not name the baseline beside it"; exit 1; }
echo "libfuzzer: a broken baseline beside the target stops it, named"

# 2. a planted fault: a crash, and the crash file as a case
build fault clang "$asan -fsanitize=fuzzer-no-link" -fsanitize=fuzzer GMFUZZ_FAULT=scan_exclusive
out="$work/fault/out" run="$work/fault/run"
corpus="$(unzip_seeds "$out" "$t")"
(cd "$run" && GMFUZZ_FAILURE_DIR="$run/failures" "$out/$t" -runs=50000 -seed=1 \
   -artifact_prefix="$run/" "$corpus") > "$run/fuzz.log" 2>&1 &&
  { echo "FAIL: the faulty target did not abort"; exit 1; }
crash="$(ls "$run"/crash-* 2>/dev/null | head -1)"
[ -n "$crash" ] || { tail -10 "$run/fuzz.log"; echo "FAIL: no crash file"; exit 1; }
gmfuzz="$work/fault/work/gmfuzz-build/tree/cli/gmfuzz"
"$gmfuzz" decode "$crash" -o "$run/crash.json" || { echo "FAIL: decode of the crash"; exit 1; }
"$gmfuzz" run "$run/crash.json" > "$run/run.txt"; rc=$?
[ $rc = 1 ] || { cat "$run/run.txt"; echo "FAIL: the crash case runs clean on the faulty build (exit $rc)"; exit 1; }
echo "fault: the target aborted; ${crash##*/} decodes to a case the faulty build flags: $(grep -m1 '^verdict' "$run/run.txt")"

# 3. AFL++'s driver as the engine
if command -v afl-clang-fast >/dev/null && [ -f /usr/lib/afl/libAFLDriver.a ]; then
  build afl afl-clang-fast "$asan" /usr/lib/afl/libAFLDriver.a
  out="$work/afl/out" run="$work/afl/run"
  corpus="$(unzip_seeds "$out" "$t")"
  (cd "$run" && GMFUZZ_KEEP_GOING=1 GMFUZZ_FAILURE_DIR="$run/failures" "$out/$t" "$corpus"/*) \
    > "$run/replay.log" 2>&1 || { tail -10 "$run/replay.log"; echo "FAIL: AFL build does not replay its seeds"; exit 1; }
  if command -v afl-fuzz >/dev/null; then
    mkdir -p "$run/in"; ls "$corpus" | head -20 | while read -r f; do cp "$corpus/$f" "$run/in/"; done
    (cd "$run" && AFL_SKIP_CPUFREQ=1 AFL_NO_UI=1 AFL_I_DONT_CARE_ABOUT_MISSING_CRASHES=1 \
       AFL_NO_AFFINITY=1 GMFUZZ_KEEP_GOING=1 GMFUZZ_FAILURE_DIR="$run/failures" \
       timeout 120 afl-fuzz -i "$run/in" -o "$run/afl-out" -E 1000 -m none -- "$out/$t") \
       > "$run/afl.log" 2>&1 || { tail -15 "$run/afl.log"; echo "FAIL: afl-fuzz did not run 1,000 inputs"; exit 1; }
    echo "afl: $t replayed its seeds and afl-fuzz ran 1,000 inputs"
  else
    echo "afl: $t replayed its seeds (no afl-fuzz here)"
  fi
else
  echo "afl: skipped (no afl-clang-fast or libAFLDriver.a)"
fi
echo "ok: build.sh, three engines' builds"
