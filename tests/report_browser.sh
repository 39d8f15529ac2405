#!/usr/bin/env bash
# report.html in a real browser: headless Chromium renders the page offline
# and its DOM must have the title, the verdict, the charts (<svg> with
# drawn lines or bars) and the signature table's rows; then a screenshot at
# 1280 px wide is taken into WORK (look at it: is it readable?).
#   report_browser.sh REPORT_HTML WORK MIN_ROWS [TITLE_PART]
# Exit 77 (skipped) where Chromium is not installed ($CHROMIUM overrides
# the command).
set -u
html="$1" work="$2" min_rows="$3" title="${4:-gmfuzz report: }"
browser="${CHROMIUM:-}"
if [ -z "$browser" ]; then
  for b in chromium chromium-browser; do
    if command -v "$b" >/dev/null 2>&1; then browser="$b"; break; fi
  done
fi
if [ -z "$browser" ]; then
  echo "no chromium: skipped"
  exit 77
fi
fail() { echo "FAIL: $*"; [ -f "$work/chromium.log" ] && tail -n 20 "$work/chromium.log"; exit 1; }
[ -f "$html" ] || fail "no $html"
rm -rf "$work" && mkdir -p "$work/home" || fail "cannot create $work"
abs="$(cd "$(dirname "$html")" && pwd)/$(basename "$html")"
# Everything the browser writes stays under WORK; no network is needed (the
# page has no external reference), so every background service is off.
run_browser() {
  HOME="$work/home" timeout 90 "$browser" --headless --no-sandbox --disable-gpu \
    --no-first-run --no-default-browser-check --disable-extensions --disable-sync \
    --disable-background-networking --disable-component-update --mute-audio \
    --user-data-dir="$work/profile" "$@" "file://$abs" 2>>"$work/chromium.log"
}
run_browser --dump-dom >"$work/dom.html" || fail "chromium --dump-dom failed (exit $?)"
dom="$work/dom.html"
grep -q "<title>$title" "$dom" || fail "no <title> with '$title' in the rendered page"
grep -q 'id="verdict"' "$dom" || fail "no verdict in the rendered page"
svgs=$(grep -o '<svg ' "$dom" | wc -l)
[ "$svgs" -ge 4 ] || fail "$svgs charts rendered, expected 4"
grep -qE '<(polyline|rect) ' "$dom" || fail "the charts draw nothing"
rows=$(grep -o '<tr class="\(new\|known\)"' "$dom" | wc -l)
[ "$rows" -ge "$min_rows" ] || fail "$rows signature rows, expected at least $min_rows"
run_browser --screenshot="$work/report.png" --window-size=1280,1600 --hide-scrollbars \
  >/dev/null || fail "chromium --screenshot failed"
[ "$(head -c 4 "$work/report.png" | od -An -c | tr -d ' \n')" = "211PNG" ] ||
  fail "no PNG screenshot"
echo "ok: $svgs charts, $rows signature rows; screenshot $work/report.png"
