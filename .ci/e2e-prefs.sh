#!/usr/bin/env bash
# End-to-end check of the app's preference file: the real binary under
# Xvfb, RUNS runs (default 10) in one private HOME, each opening another
# copy of iris (so the recent files, last folder and dataset settings
# change and are saved) and closed like a user closes it, once its run is
# done (.ci/e2e-prefs-runs.sh). Verifies
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
out=$(cd "$out" && pwd)
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

timeout 600 xvfb-run -a -s "-screen 0 1400x900x24" bash .ci/e2e-prefs-runs.sh "$out" "$bin" "$runs" "$old" "$oldsum" "$ours" ||
  fail "a run failed (above)"
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
retries=0; [ -f "$out/close-retries" ] && retries=$(wc -l <"$out/close-retries")
echo "e2e-prefs: OK ($runs runs, $ours; closes repeated: $retries)"
