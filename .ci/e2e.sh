#!/usr/bin/env bash
# End-to-end check of the desktop app: build the real binary, start it
# under Xvfb with no dataset argument (PISA 2015, elliptical MDS running),
# let it write its own window capture after 5 s and quit, then verify
#   - the log says it became ready and wrote the screenshot,
#   - the window title is "Burescope — pisa2015",
#   - the canvas area of the PNG holds ellipses (shotcheck),
#   - no error, panic or Fyne error appears in the log.
# Exits non-zero on any failure. Usage: .ci/e2e.sh [OUTDIR]
set -euo pipefail
cd "$(dirname "$0")/.."

out=${1:-$(mktemp -d)}
mkdir -p "$out"
bin="$out/burescope"
shot="$out/e2e-shot.png"
log="$out/e2e.log"
rm -f "$shot" "$log"

fail() { echo "e2e: FAIL: $*" >&2; echo "--- log ($log) ---" >&2; cat "$log" >&2 || true; exit 1; }

command -v xvfb-run >/dev/null || { echo "e2e: xvfb-run not found (apt-get install xvfb xauth)" >&2; exit 1; }
go build -o "$bin" .

# A real locale keeps Fyne from logging "Error parsing user locale C";
# a fresh private HOME keeps the run independent of saved preferences.
apphome="$out/home"
rm -rf "$apphome"
mkdir -p "$apphome"
set +e
HOME="$apphome" LANG=en_US.UTF-8 LC_ALL= timeout 180 xvfb-run -a -s "-screen 0 1400x900x24" \
  "$bin" --screenshot "$shot" --after 5s --width 1280 --height 800 2>"$log"
rc=$?
set -e
[ "$rc" -eq 0 ] || fail "burescope exited with status $rc"

grep -q '^burescope: ready dataset=builtin:pisa2015 n=35' "$log" || fail "no 'ready' line for PISA 2015"
grep -q '^burescope: screenshot ' "$log" || fail "no 'screenshot' line"
grep -q 'title="Burescope — pisa2015"' "$log" || fail "window title is not 'Burescope — pisa2015'"
if grep -Eiq 'error|panic|fatal' "$log"; then fail "the log reports an error"; fi
[ -s "$shot" ] || fail "no screenshot at $shot"
go run ./ui/internal/shotcheck/cmd "$shot" || fail "the screenshot has no ellipses"
echo "e2e: OK ($shot)"
