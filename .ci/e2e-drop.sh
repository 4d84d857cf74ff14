#!/usr/bin/env bash
# End-to-end drag and drop: the real app under Xvfb receives real XDND
# drops (X11 ClientMessages and the XdndSelection transfer, through GLFW
# and Fyne) from .ci/xdnd-drop.py, a minimal drag source. It starts the
# app on its default dataset (PISA 2015), then
#   1. drops a copy of iris named "iris copy.csv" in a folder "drop é"
#      (the URI is percent-encoded, as file managers send it; four types
#      offered through XdndTypeList; five XdndPosition steps): the drop
#      must be accepted (XdndStatus, a text/uri-list request, XdndFinished)
#      and the window title must become "Burescope — iris copy.csv";
#      the window capture after it must show ellipses (shotcheck);
#   2. drags a bad file in and cancels (XdndLeave): nothing may load;
#      then drops it (a 2 x 2 table): the log must show the loader's
#      message naming the file and line, and the title must stay;
#   3. drops two files at once that are not a Projector pair: the log
#      must show the drop handler's message naming both;
#   4. closes the window (WM_DELETE_WINDOW): the app must exit with 0 and
#      log no other error, panic or fatal.
# Exits non-zero on any failure. Usage: .ci/e2e-drop.sh [OUTDIR]
# Needs xvfb-run and python3-xlib.
set -euo pipefail
cd "$(dirname "$0")/.."

py=/usr/bin/python3
[ -x "$py" ] || py=python3
drop=(env PYTHONIOENCODING=utf-8 "$py" .ci/xdnd-drop.py)

if [ "${1:-}" = "--inner" ]; then # under xvfb-run, from below
  out=$2 bin=$3
  log="$out/e2e-drop.log"
  data="$out/drop é"
  fail() {
    echo "e2e-drop: FAIL: $*" >&2
    echo "--- app log ($log) ---" >&2
    cat "$log" >&2 || true
    [ -n "${pid:-}" ] && kill "$pid" 2>/dev/null
    exit 1
  }
  # wait_log PATTERN [N]: waits up to 60 s for N (default 1) log lines
  # matching an extended regexp.
  wait_log() {
    local i
    for i in $(seq 600); do
      [ "$(grep -Ec "$1" "$log")" -ge "${2:-1}" ] && return 0
      kill -0 "$pid" 2>/dev/null || fail "the app exited while waiting for /$1/"
      sleep 0.1
    done
    fail "no log line /$1/ within 60 s"
  }
  # A real locale keeps Fyne from logging "Error parsing user locale C";
  # a fresh private HOME keeps the run independent of saved preferences.
  HOME="$out/home" LANG=en_US.UTF-8 LC_ALL= "$bin" --width 1280 --height 800 2>"$log" &
  pid=$!
  wait_log '^burescope: ready dataset=builtin:pisa2015 n=35 '
  wait_log '^burescope: run done ' # PISA's run ends before the drop

  # Offered as a file manager does: several types (so GLFW reads them
  # from XdndTypeList), the pointer moving in over five positions.
  "${drop[@]}" drop --title-prefix "Burescope" --expect-title "Burescope — iris copy.csv" \
    --offer "x-special/gnome-icon-list,text/uri-list,UTF8_STRING,text/plain" --steps 5 \
    "$data/iris copy.csv" >"$out/drop1.json" || fail "drop of iris: $(cat "$out/drop1.json")"
  grep -q '"status_accept": true' "$out/drop1.json" || fail "no accepting XdndStatus: $(cat "$out/drop1.json")"
  grep -q '"types_via": "XdndTypeList"' "$out/drop1.json" || fail "types not offered via XdndTypeList"
  grep -q '"selection_requests": \["text/uri-list"\]' "$out/drop1.json" || fail "no text/uri-list request"
  wait_log '^burescope: run done ' 2 # iris's run
  sleep 1 # a frame after the run's end
  "${drop[@]}" shot --title-prefix "Burescope" "$out/e2e-drop-iris.png" >/dev/null || fail "no window capture"
  go run ./ui/internal/shotcheck/cmd "$out/e2e-drop-iris.png" || fail "the window after the drop shows no ellipses"

  # A cancelled drag (XdndLeave): nothing is asked for, nothing loads
  # (the error count at the end would show a load of bad.csv).
  "${drop[@]}" drop --title-prefix "Burescope" --leave --steps 3 "$data/bad.csv" >"$out/leave.json" ||
    fail "cancelled drag: $(cat "$out/leave.json")"

  "${drop[@]}" drop --title-prefix "Burescope" "$data/bad.csv" >"$out/drop2.json" ||
    fail "drop of bad.csv: $(cat "$out/drop2.json")"
  wait_log '^burescope: error: Could not open bad\.csv: .*/bad\.csv: .*\(line 2, column 1'
  "${drop[@]}" shot --title-prefix "Burescope" "$out/e2e-drop-bad.png" >"$out/shot2.json" || fail "no window capture"
  grep -q '"title_before": "Burescope — iris copy.csv"' "$out/shot2.json" ||
    fail "a bad drop changed the window: $(cat "$out/shot2.json")"

  "${drop[@]}" drop --title-prefix "Burescope" "$data/iris copy.csv" "$data/bad.csv" >"$out/drop3.json" ||
    fail "drop of two files: $(cat "$out/drop3.json")"
  wait_log '^burescope: error: Cannot open the dropped files: two files dropped \(iris copy\.csv, bad\.csv\)'

  "${drop[@]}" close --title-prefix "Burescope" >"$out/close.json" || fail "close: $(cat "$out/close.json")"
  grep -q '"title_before": "Burescope — iris copy.csv"' "$out/close.json" ||
    fail "a bad drop changed the window: $(cat "$out/close.json")"
  set +e
  wait "$pid"
  rc=$?
  set -e
  pid=
  [ "$rc" -eq 0 ] || fail "burescope exited with status $rc"
  others=$(grep -Ei 'error|panic|fatal|Preferences' "$log" |
    grep -Ev '^burescope: error: (Could not open bad\.csv|Cannot open the dropped files: two files dropped)' || true)
  [ -z "$others" ] || fail "unexpected errors in the log: $others"
  [ "$(grep -c '^burescope: error: ' "$log")" -eq 2 ] || fail "want exactly 2 error lines"
  exit 0
fi

out=${1:-$(mktemp -d)}
mkdir -p "$out"
out=$(cd "$out" && pwd)
bin="$out/burescope"
command -v xvfb-run >/dev/null || { echo "e2e-drop: xvfb-run not found (apt-get install xvfb xauth)" >&2; exit 1; }
"$py" -c 'import Xlib' 2>/dev/null || { echo "e2e-drop: python3-xlib not found (apt-get install python3-xlib)" >&2; exit 1; }
go build -o "$bin" .

data="$out/drop é"
rm -rf "$data" "$out/home"
mkdir -p "$data" "$out/home"
cp assets/iris.csv "$data/iris copy.csv"
printf 'a,b\n1,2\n3,4\n' >"$data/bad.csv" # 2 items: too few for MDS

timeout 240 xvfb-run -a -s "-screen 0 1400x900x24" bash "$0" --inner "$out" "$bin"
echo "e2e-drop: OK ($out/e2e-drop-iris.png, $out/e2e-drop-bad.png)"
