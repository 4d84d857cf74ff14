#!/usr/bin/env bash
# The runs of .ci/e2e-prefs.sh, under one X server: start the app on a
# new copy of iris, wait for its run to end, close the window
# (WM_DELETE_WINDOW) and check its log. Args: OUT BIN RUNS OLD OLDSUM OURS.
set -euo pipefail
out=$1 bin=$2 runs=$3 old=$4 oldsum=$5 ours=$6
py=/usr/bin/python3
[ -x "$py" ] || py=python3
fail() { echo "e2e-prefs: FAIL: $*" >&2; echo "--- log ($log) ---" >&2; cat "$log" >&2; [ -n "${pid:-}" ] && kill "$pid" 2>/dev/null; exit 1; }
for i in $(seq "$runs"); do
  log="$out/run$i.log"
  cp assets/iris.csv "$out/data/iris$i.csv"
  HOME="$out/home" XDG_CONFIG_HOME= LANG=en_US.UTF-8 LC_ALL= "$bin" "$out/data/iris$i.csv" --width 1024 --height 700 2>"$log" &
  pid=$!
  for t in $(seq 600); do
    grep -q '^burescope: run done ' "$log" && break
    kill -0 "$pid" 2>/dev/null || fail "run $i: the app exited early"
    sleep 0.1
  done
  grep -q '^burescope: run done ' "$log" || fail "run $i: no 'run done' within 60 s"
  PYTHONIOENCODING=utf-8 "$py" .ci/xdnd-drop.py close --title-prefix "Burescope" >"$out/close$i.json" ||
    fail "run $i: close: $(cat "$out/close$i.json")"
  # A window manager's close button can be pressed again. xdnd-drop.py
  # now waits for the X server to have taken its WM_DELETE_WINDOW (a
  # round trip before it exits): with only a flush, about one close in
  # 50 under load (one in CI, 2026-11-27) never reached the app, whose
  # GLFW loop was seen polling on for 10 s without it. If the app still
  # runs with its window open 20 s after the close, the close is sent
  # once more (said on stderr and counted); a window that is gone means
  # the close was taken and the app is still shutting down: wait for it.
  for t in $(seq 200); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
  if kill -0 "$pid" 2>/dev/null && PYTHONIOENCODING=utf-8 "$py" .ci/xdnd-drop.py close --title-prefix "Burescope" --timeout 1 >>"$out/close$i.json" 2>&1; then
    echo "e2e-prefs: WARNING: run $i: still running with its window 20 s after WM_DELETE_WINDOW; closed again" >&2
    echo "$i" >>"$out/close-retries"
  fi
  set +e
  wait "$pid"
  rc=$?
  set -e
  pid=
  [ "$rc" -eq 0 ] || fail "run $i exited with status $rc"
  grep -q "^burescope: ready dataset=$out/data/iris$i.csv " "$log" || fail "run $i: no 'ready' line"
  if grep -Eiq 'error|panic|fatal|Preferences' "$log"; then fail "run $i: the log reports an error"; fi
  [ "$(sha256sum "$old")" = "$oldsum" ] || fail "run $i: Fyne's old preference file was written"
  [ -f "$ours" ] || fail "run $i: no $ours"
done
