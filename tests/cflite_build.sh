#!/usr/bin/env bash
# .clusterfuzzlite/build.sh as ClusterFuzzLite's `compile` runs it (the
# environment of a libFuzzer + ASan build), outside the image: every target
# lands in $OUT with its seed corpus, dictionary and options; the
# differential target loads the baseline next to it (a broken one beside it
# stops it, naming it); each target runs briefly on its seeds, from $OUT.
#   cflite_build.sh SOURCE_DIR WORK
set -u
src="$1" work="$2"
command -v clang >/dev/null || { echo "SKIP: no clang"; exit 77; }
rm -rf "$work"; mkdir -p "$work/out" "$work/run"
export CC=clang OUT="$work/out" WORK="$work/work" SRC=/nonexistent
export CFLAGS="-O1 -fno-omit-frame-pointer -gline-tables-only -fsanitize=address -fsanitize-address-use-after-scope -fsanitize=fuzzer-no-link"
export LIB_FUZZING_ENGINE="-fsanitize=fuzzer"
(cd "$src" && bash .clusterfuzzlite/build.sh) > "$work/build.log" 2>&1 ||
  { tail -30 "$work/build.log"; echo "FAIL: build.sh"; exit 1; }
grep "^build.sh:" "$work/build.log"
t=gmfuzz-libfuzzer-cpu
for f in "$t" "$t.dict" "$t.options" "${t}_seed_corpus.zip" "$t.baseline.json"; do
  [ -s "$OUT/$f" ] || { echo "FAIL: \$OUT/$f missing"; exit 1; }
done
for bin in "$OUT"/gmfuzz-*; do
  case "$bin" in *.*) continue ;; esac
  name="${bin##*/}"
  [ -s "$OUT/$name.options" ] && [ -s "$OUT/$name.dict" ] ||
    { echo "FAIL: $name has no options or dict"; exit 1; }
  corpus="$work/run/$name-corpus"; mkdir -p "$corpus"
  [ -f "$OUT/${name}_seed_corpus.zip" ] &&
    python3 -m zipfile -e "$OUT/${name}_seed_corpus.zip" "$corpus"
  (cd "$work/run" && GMFUZZ_KEEP_GOING=1 GMFUZZ_FAILURE_DIR="$work/run/failures" \
     "$bin" -runs=300 -seed=1 -dict="$OUT/$name.dict" "$corpus") > "$work/run/$name.log" 2>&1 ||
    { tail -20 "$work/run/$name.log"; echo "FAIL: $name did not run"; exit 1; }
  echo "ran $name: $(grep -c . "$work/run/$name.log") log lines"
done
echo '{"broken' > "$OUT/$t.baseline.json"
(cd "$work/run" && "$OUT/$t" -runs=1 "$work/run/$t-corpus") > "$work/run/broken.log" 2>&1 &&
  { echo "FAIL: $t ran with a broken baseline beside it"; exit 1; }
grep -q "GMFUZZ_BASELINE.*$t.baseline.json" "$work/run/broken.log" ||
  { tail -5 "$work/run/broken.log"; echo "FAIL: the error does not name the baseline beside it"; exit 1; }
echo "ok: build.sh made every target, each ran from \$OUT with its files"
