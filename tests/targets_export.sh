#!/usr/bin/env bash
# A reproducer found on a python: target, exported as a pytest file, runs
# unchanged against that target: it fails while the planted fault is there
# and passes without it. Skips (77) without torch.
#   targets_export.sh PYTHON GMFUZZ TARGET_PY OUTDIR
set -u
python="$1" gmfuzz="$2" target="$3" out="$4"
"$python" -c "import torch" >/dev/null 2>&1 || { echo "SKIP: $python has no torch"; exit 77; }
rm -rf "$out"; mkdir -p "$(dirname "$out")"
GMFUZZ_PYTHON="$python" GMFUZZ_TORCH_FAULT=no_loc_keeps "$gmfuzz" sweep --target "python:$target" \
  --target-device cpu --cases 5000 --jobs 1 --seed 3 --time 120 --stop-on-new --out "$out" >/dev/null 2>&1
repro=$(ls "$out"/repros/*.json 2>/dev/null | head -1)
[ -n "$repro" ] || { echo "FAIL: the sweep wrote no reproducer"; exit 1; }
"$gmfuzz" export pytest "$repro" -o "$out/test_repro.py" || exit 1
if GMFUZZ_TORCH_FAULT=no_loc_keeps "$python" "$out/test_repro.py"; then
  echo "FAIL: the exported test passed against the faulty target"; exit 1
fi
"$python" "$out/test_repro.py" | tee "$out/clean.log"
grep -q "^2 passed, 0 failed" "$out/clean.log" || { echo "FAIL: not clean on the fixed target"; exit 1; }
echo "ok: fails on the faulty target, passes on the fixed one"
