#!/usr/bin/env bash
# End-to-end check of the app's preference file: the real binary under
# Xvfb, RUNS runs (default 10) in one private HOME, each opening another
# copy of iris (so the recent files, last folder and dataset settings
# change and are saved) and quitting after its screenshot. Verifies
#   - the first run migrates Fyne's old preference file (recent files),
#   - no run logs an error, "Preferences load error" or Fyne's
#     "Preferences API requires a unique ID",
#   - the app's file (~/.config/burescope/preferences.json) is JSON
#     holding the last eight files opened, newest first,
#   - Fyne's old file is never written again.
# Usage: .ci/e2e-prefs.sh [OUTDIR [RUNS]]
set -euo pipefail
cd "$(dirname "$0")/.."

out=${1:-$(mktemp -d)}
runs=${2:-10}
mkdir -p "$out"
bin="$out/burescope"
fail() { echo "e2e-prefs: FAIL: $*" >&2; [ -n "${log:-}" ] && { echo "--- log ($log) ---" >&2; cat "$log" >&2; }; exit 1; }

command -v xvfb-run >/dev/null || { echo "e2e-prefs: xvfb-run not found (apt-get install xvfb xauth)" >&2; exit 1; }
go build -o "$bin" .

home="$out/home"
rm -rf "$home"
old="$home/.config/fyne/io.github.burescope.burescope/preferences.json"
ours="$home/.config/burescope/preferences.json"
mkdir -p "$(dirname "$old")" "$out/data"
printf '{"files.recent":["%s/data/migrated.csv"],"model.iterations":300}\n' "$out" >"$old"
oldsum=$(sha256sum "$old")
cp assets/iris.csv "$out/data/migrated.csv"

for i in $(seq "$runs"); do
  log="$out/run$i.log"
  cp assets/iris.csv "$out/data/iris$i.csv"
  set +e
  HOME="$home" XDG_CONFIG_HOME= LANG=en_US.UTF-8 LC_ALL= timeout 120 xvfb-run -a -s "-screen 0 1400x900x24" \
    "$bin" "$out/data/iris$i.csv" --screenshot "$out/shot$i.png" --after 1s --width 1024 --height 700 2>"$log"
  rc=$?
  set -e
  [ "$rc" -eq 0 ] || fail "run $i exited with status $rc"
  grep -q "^burescope: ready dataset=$out/data/iris$i.csv " "$log" || fail "run $i: no 'ready' line"
  if grep -Eiq 'error|panic|fatal|Preferences' "$log"; then fail "run $i: the log reports an error"; fi
  [ "$(sha256sum "$old")" = "$oldsum" ] || fail "run $i: Fyne's old preference file was written"
  [ -f "$ours" ] || fail "run $i: no $ours"
done
log=

/usr/bin/python3 - "$ours" "$out" "$runs" <<'PY' || fail "wrong preferences file"
import json, sys
path, out, runs = sys.argv[1], sys.argv[2], int(sys.argv[3])
p = json.load(open(path))
want = [f"{out}/data/iris{i}.csv" for i in range(runs, 0, -1)] + [f"{out}/data/migrated.csv"]
got = p.get("files.recent")
if got != want[:8]:
    sys.exit(f"files.recent = {got}, want {want[:8]}")
if p.get("files.lastDir") != f"{out}/data" or p.get("model.iterations") != 300:
    sys.exit(f"lastDir/iterations: {p.get('files.lastDir')} {p.get('model.iterations')}")
PY
echo "e2e-prefs: OK ($runs runs, $ours)"
