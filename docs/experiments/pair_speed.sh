#!/usr/bin/env bash
# Speed of the MDS stress + full gradient for d = 2..16 against an older
# tree and the NumPy forward-only baseline, in one run (docs/mds.md,
# "Pair kernel for d >= 4"), and of the pair kernel alone for d = 17..20
# (MDS stops at MaxDim = 16; hypernymy and words go further). Run by hand
# from the repository root:
#
#   go build -o burescope .
#   mkdir -p /tmp/pkold && git archive OLDCOMMIT | tar -x -C /tmp/pkold
#   (cd /tmp/pkold && go build -o burescope .)
#   OLD=/tmp/pkold/burescope bash docs/experiments/pair_speed.sh
#
# For each d it alternates old, new and NumPy ROUNDS times (default 3) and
# keeps each one's fastest wall ns per pair (2 threads, n chosen so a run
# takes about a second) and fastest CPU ns per pair (all threads), then
# prints one line per d:
#   d n old_wall new_wall numpy_wall old/new numpy/new old_cpu new_cpu old/new_cpu
# The machine is shared: note the load printed first, and compare ratios
# of one run rather than absolute figures between runs.
set -euo pipefail
new=${BURESCOPE:-./burescope}
old=${OLD:-}
rounds=${ROUNDS:-3}
py=${PYTHON:-/usr/bin/python3}
dims=${DIMS:-2 3 4 5 6 8 10 12 14 16}
echo "# $(date -u +%FT%TZ) $(uptime)"
echo "# $(grep -m1 'model name' /proc/cpuinfo), $(nproc) CPUs"
bench() { # binary d n -> "wall cpu" ns per pair
  nice -n 5 "$1" bench --n "$3" --dim "$2" --iters "${ITERS:-3}" 2>/dev/null | tail -1 |
    "$py" -c 'import json,sys; j=json.load(sys.stdin); print("%s,%s" % (j["ns_per_pair"], j["cpu_ns_per_pair"]))'
}
numpy() { # d n -> ns per pair
  nice -n 5 "$py" docs/experiments/numpy_bures.py --n "$2" --dims "$1" |
    "$py" -c 'import json,sys; print(json.load(sys.stdin)["ns_per_pair"])'
}
minof() { "$py" -c 'import sys; print(min(float(x) for x in sys.argv[1:]))' "$@"; }
mincpu() { "$py" -c 'import sys; print(min(float(x.split(",")[1]) for x in sys.argv[1:]))' "$@"; }
minwall() { "$py" -c 'import sys; print(min(float(x.split(",")[0]) for x in sys.argv[1:]))' "$@"; }
echo "d n old_wall new_wall numpy_wall old/new numpy/new old_cpu new_cpu old/new_cpu"
for d in $dims; do
  case $d in 2 | 3) n=2000 ;; 4 | 5 | 6) n=400 ;; 8 | 10) n=200 ;; *) n=120 ;; esac
  o=() w=() p=()
  for _ in $(seq "$rounds"); do
    if [ -n "$old" ]; then o+=("$(bench "$old" "$d" "$n")"); fi
    w+=("$(bench "$new" "$d" "$n")")
    if [ "$d" -ge 4 ]; then p+=("$(numpy "$d" "$((n / 2))")"); fi
  done
  on=nan pn=nan oc=nan
  wn=$(minwall "${w[@]}")
  wc=$(mincpu "${w[@]}")
  if [ -n "$old" ]; then on=$(minwall "${o[@]}"); oc=$(mincpu "${o[@]}"); fi
  if [ "$d" -ge 4 ]; then pn=$(minof "${p[@]}"); fi
  "$py" -c 'import sys; d,n,o,w,p,oc,wc=sys.argv[1:]; o,w,p,oc,wc=map(float,(o,w,p,oc,wc)); print(d, n, "%.4g %.4g %.4g %.3g %.3g %.4g %.4g %.3g" % (o, w, p, o/w, p/w, oc, wc, oc/wc))' "$d" "$n" "$on" "$wn" "$pn" "$oc" "$wc"
done
