#!/usr/bin/env bash
# End-to-end check of the tooltip when the pointer leaves the window
# straight from the canvas (GLFW reports no leave to Fyne, so no
# MouseOut comes): under Xvfb, hover an item with xdotool, jump the
# pointer outside the window, capture at once and after view.HoverIdle.
# Usage (repository root): xvfb-run -a -s "-screen 0 1600x1000x24" \
#   bash docs/experiments/tooltip_leave.sh OUTDIR
# Look at OUTDIR/tip-*.png: 1 shows the tooltip, 2 still does (no event
# came), 3 (9 s later) shows none. Needs xdotool and imagemagick.
set -euo pipefail
out=${1:?usage: tooltip_leave.sh OUTDIR}
mkdir -p "$out"
go build -o "$out/burescope" .
cfg=$(mktemp -d)
XDG_CONFIG_HOME=$cfg "$out/burescope" builtin:pisa2015 >"$out/tip.log" 2>&1 &
pid=$!
trap 'kill $pid 2>/dev/null; wait $pid 2>/dev/null; rm -rf "$cfg"' EXIT
sleep 8
# An item at the right of the default 1280x800 window (Turkey in the
# default fit; the seed is fixed).
xdotool mousemove 1050 280
sleep 0.3
xdotool mousemove 1056 282
sleep 1.5
import -window root "$out/tip-1-hover.png"
xdotool mousemove 1590 990
sleep 1
import -window root "$out/tip-2-left-window.png"
sleep 9
import -window root "$out/tip-3-after-idle.png"
