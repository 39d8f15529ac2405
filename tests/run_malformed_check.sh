#!/usr/bin/env bash
# cli.run_malformed_files (issue 24 item 3): a file is an engine's raw input only where that
# is unambiguous (--raw, or bytes that cannot start a JSON document and a name not ending
# in .json); every malformed document here is exit 3 with a message naming the file, never
# a verdict on some decoded case. A real raw crash file (binary, no .json name) still runs.
#   run_malformed_check.sh GMFUZZ OUT
set -u
gmfuzz="$1" out="$2"
rm -rf "$out"; mkdir -p "$out"
cd "$out" || exit 1
fails=0
w() { printf -- "$2" > "$1"; }              # w NAME PRINTF-FORMAT
w empty.json ''
w empty ''
w blank.json '  \n\t  '
w blank '\n\n'
w array.json '[1,2,3]'
w array '[1,2,3]'
w string '"a case"'
w number '42'
w negative '-1'
w true 'true'
w false 'false'
w null 'null'
w word 'nope'
w brace '{'
w truncated.json '{"format": "gmfuzz-case-v1", "mode": "dec'
w truncated '{"format": "gmfuzz-case-v1", "mode": "decode", "page_size": 4, '
w trailing.json '{"format": "gmfuzz-case-v1"} garbage'
w trailing_comma.json '{"format": "gmfuzz-case-v1",}'
w no_format.json '{}'
w bad_format '{"format": "gmfuzz-case-v9"}'
w bom.json '\xef\xbb\xbf{"format": "gmfuzz-case-v1"}'
w binary.json '\x01\x02\x03\xff not json'
python3 -c "open('deep.json','w').write('[' * 100000 + ']' * 100000)"
python3 -c "open('deep_objects','w').write('{\"a\":' * 100000)"
for f in *; do
  "$gmfuzz" run "$f" >"$f.out" 2>&1
  rc=$?
  if [ "$rc" != 3 ]; then
    echo "FAIL: gmfuzz run $f: exit $rc, expected 3: $(head -c 300 "$f.out")"; fails=$((fails + 1))
  elif ! grep -q "gmfuzz: $f: " "$f.out"; then
    echo "FAIL: gmfuzz run $f: no message naming the file: $(head -c 300 "$f.out")"
    fails=$((fails + 1))
  elif grep -q "^verdict:" "$f.out"; then
    echo "FAIL: gmfuzz run $f: a verdict for a malformed file"; fails=$((fails + 1))
  else
    echo "ok: $f: $(head -1 "$f.out" | head -c 200)"
  fi
done
n=$(ls | grep -vc '\.out$')
# show reads files the same way
for f in empty.json array deep.json; do
  "$gmfuzz" show "$f" >"show.$f.out" 2>&1
  rc=$?
  [ "$rc" = 3 ] && grep -q "gmfuzz: $f: " "show.$f.out" ||
    { echo "FAIL: gmfuzz show $f: exit $rc: $(head -c 300 "show.$f.out")"; fails=$((fails + 1)); }
done
# A libFuzzer crash file (no .json name, binary bytes) runs as the case it decodes to, and so
# does any file given with --raw, even one named .json that starts like JSON.
mkdir raw
printf '\x07\x00\x10\x03\xfe\x81\x00\x00\x02\x09\x40\x00\x11\x22\x33\x44' > raw/crash-5d3c0f1e
printf '\x00\x02\x01\x02\xa0d\x00\x00' > raw/crash-00a0  # a NUL first: never JSON
cp array.json raw/forced.json
for f in "raw/crash-5d3c0f1e" "raw/crash-00a0" "--raw raw/forced.json"; do
  "$gmfuzz" run $f >raw/out 2>&1
  rc=$?
  if [ "$rc" != 0 ] && [ "$rc" != 1 ]; then
    echo "FAIL: gmfuzz run $f: exit $rc: $(head -c 300 raw/out)"; fails=$((fails + 1))
  elif ! grep -q "decoded from raw/" raw/out || ! grep -q "^verdict:" raw/out; then
    echo "FAIL: gmfuzz run $f was not run as a raw input: $(head -c 300 raw/out)"
    fails=$((fails + 1))
  else
    echo "ok: $f runs as a raw input: $(grep '^verdict:' raw/out)"
  fi
done
if [ "$fails" != 0 ]; then
  echo "FAIL: $fails problem(s)"
  exit 1
fi
echo "ok: $n malformed files are exit 3 naming the file; raw inputs still run"
