#!/usr/bin/env bash
# Speed of the real desktop app at size, beside `burescope bench` at the
# same n and d in the same run. Launches the app under Xvfb on a
# generated 3-class, 5-feature table of N rows (default 5000; fresh
# preferences, so the defaults: d = 2, exact pairs, backend auto) and
# reports
#   - time to the first frame showing the fit: from just before the
#     process is started to the app's "ready" line (logged when the first
#     frame with the fit's ellipses reaches the window; it carries the
#     wall clock as at=),
#   - the app's iterations per second over its whole run (its iteration
#     budget, 1000 by default; the app logs it/s on "run done"),
#   - the process's CPU seconds at both moments (from /proc; the machine
#     may be shared, so CPU time is the steadier figure),
#   - `burescope bench --n N --dim 2` before and after the app
#     (iterations per second = 1 / seconds_per_iter),
#   - the load average at the start.
# Nothing is run under nice. Usage, from the repository root:
#   bash docs/experiments/app_speed.sh [OUTDIR]     (N=2000 ... to change n)
# FIRST_ONLY=1 stops after the first frame (prints first_frame_s only).
# BIN=path runs that binary instead of building this tree (an older
# build, for a before/after pair: without at= and it/s in its log the
# script uses the moments it saw the lines, polled every 10 ms, and times
# the run from the first frame to "run done").
set -euo pipefail
out=${1:-/tmp/burescope-app-speed}
n=${N:-5000}
mkdir -p "$out"
if [[ -n ${BIN:-} ]]; then cp "$BIN" "$out/burescope"; else go build -o "$out/burescope" .; fi
python3 docs/experiments/gen_3class.py "$n" > "$out/table3.csv"
export HOME="$out/home" XDG_CONFIG_HOME="$out/home/.config"
rm -rf "$HOME"
mkdir -p "$HOME"
clk=$(getconf CLK_TCK)
cpu_of() { awk -v c="$clk" '{printf "%.2f", ($14 + $15) / c}' "/proc/$1/stat"; }
bench() {
  "$out/burescope" bench --n "$n" --dim 2 --iters 30 | tail -1
}

# Xvfb picks a free display and writes its number to fd 3 once it is
# ready; on a busy machine (or when another Xvfb takes the same number at
# the same moment) it can take seconds or exit: wait up to 30 s, retry
# twice, and stop with a message rather than start the app on no display.
xpid=
trap '[[ -z $xpid ]] || kill $xpid 2>/dev/null || true' EXIT
for _ in 1 2 3; do
  : >"$out/display"
  Xvfb -displayfd 3 -screen 0 1600x1000x24 3>"$out/display" 2>"$out/xvfb.log" &
  xpid=$!
  for _ in $(seq 600); do
    [[ -s $out/display ]] && break
    kill -0 $xpid 2>/dev/null || break
    sleep 0.05
  done
  [[ -s $out/display ]] && break
  kill $xpid 2>/dev/null || true
  xpid=
done
if [[ ! -s $out/display ]]; then
  echo "app_speed.sh: Xvfb did not start (see $out/xvfb.log)" >&2
  exit 1
fi
export DISPLAY=:$(cat "$out/display")

load=$(cut -d' ' -f1-3 /proc/loadavg)
[[ -n ${FIRST_ONLY:-} ]] || bench_before=$(bench)

: >"$out/app.log" # not the last run's "ready" line
t0=$(date +%s.%N)
"$out/burescope" --dataset "$out/table3.csv" 2>"$out/app.log" &
pid=$!
until grep -q "burescope: ready" "$out/app.log"; do
  kill -0 $pid 2>/dev/null || { cat "$out/app.log"; exit 1; }
  sleep 0.01
done
t_ready=$(date +%s.%N)
cpu_ready=$(cpu_of $pid)
if [[ -n ${FIRST_ONLY:-} ]]; then
  kill $pid
  wait $pid 2>/dev/null || true
  at=$(grep "burescope: ready" "$out/app.log" | sed -n 's/.* at=\([0-9.]*\).*/\1/p')
  python3 -c "import sys; t0, at, tr, c = sys.argv[1:]; print('{\"first_frame_s\": %.3f, \"timed_in_app\": %s, \"cpu_s_at_first_frame\": %s, \"load_average\": \"%s\"}' % (float(at or tr) - float(t0), 'true' if at else 'false', c, open('/proc/loadavg').read()[:14]))" "$t0" "$at" "$t_ready" "$cpu_ready"
  exit 0
fi
until grep -q "burescope: run done" "$out/app.log"; do
  kill -0 $pid 2>/dev/null || { cat "$out/app.log"; exit 1; }
  sleep 0.05
done
t_done=$(date +%s.%N)
cpu_done=$(cpu_of $pid)
kill $pid
wait $pid 2>/dev/null || true

bench_after=$(bench)

ready=$(grep "burescope: ready" "$out/app.log")
done_line=$(grep "burescope: run done" "$out/app.log")
python3 - "$t0" "$load" "$cpu_ready" "$cpu_done" "$n" "$ready" "$done_line" "$bench_before" "$bench_after" "$t_ready" "$t_done" <<'EOF'
import json, re, sys
t0, load, cpu_ready, cpu_done, n, ready, done, b1, b2, t_ready, t_done = sys.argv[1:]
def field(line, k):
    m = re.search(r"(?<![\w-])" + re.escape(k) + r"=([0-9.]+)", line)
    return m.group(1) if m else None
b1, b2 = json.loads(b1), json.loads(b2)
at = field(ready, "at")
first = (float(at) if at else float(t_ready)) - float(t0)
if field(done, "run-iterations"):
    its, secs = int(field(done, "run-iterations")), float(field(done, "run-seconds"))
else:  # an older build: from the first frame to "run done", as seen
    its, secs = int(field(done, "iteration")), float(t_done) - float(t_ready)
app_rate = its / secs
bench_rate = [1 / b["seconds_per_iter"] for b in (b1, b2)]
pairs = int(n) * (int(n) - 1) / 2
res = {
    "n": int(n), "load_average": load, "timed_in_app": bool(at),
    "first_frame_s": round(first, 3), "cpu_s_at_first_frame": float(cpu_ready),
    "app_iterations": its, "app_run_s": secs, "app_it_per_s": round(app_rate, 2),
    "app_cpu_s_whole_process": float(cpu_done),
    "app_cpu_s_per_iteration": round((float(cpu_done) - float(cpu_ready)) / its, 5),
    "bench_it_per_s_before_after": [round(r, 2) for r in bench_rate],
    "bench_cpu_s_per_iteration_before_after": [round(b["cpu_ns_per_pair"] * pairs * 1e-9, 5) for b in (b1, b2)],
    "app_over_bench": round(app_rate / (sum(bench_rate) / 2), 3),
}
print(json.dumps(res))
EOF
