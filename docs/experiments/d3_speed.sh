#!/usr/bin/env bash
# Speed of the d = 3 stress + full gradient beside d = 2, in one run
# (docs/mds.md, "d = 3 vector kernel"). Run by hand from the repository
# root (about a minute on a 2-core machine):
#
#   go build -o burescope .
#   bash docs/experiments/d3_speed.sh
#
# Prints, all at nice 10 (the machine is shared: compare CPU ns/pair,
# wall time depends on the load):
#   1. go test -bench CPUStressGradient, n = 2000, d = 2 and 3, 1 and 2
#      threads (ns/pair wall, cpu-ns/pair all threads);
#   2. burescope bench --n 2000 --dim 2 / --dim 3 (JSON lines);
#   3. BenchmarkD3Row: the d = 3 row kernel alone on one thread, vector
#      and scalar; min-ns/pair is the fastest row (~30 us), the figure
#      least disturbed by other processes.
set -euo pipefail
bin=${BURESCOPE:-./burescope}
iters=${ITERS:-20}
echo "# $(date -u +%FT%TZ) $(uptime)"
nice -n 10 go test ./engine -run '^$' -bench 'CPUStressGradient/n=2000/d=[23]/' -benchtime 10x | grep '^Benchmark'
for d in 2 3; do
  nice -n 10 "$bin" bench --n 2000 --dim "$d" --iters "$iters" 2>/dev/null
done
nice -n 10 go test ./engine -run '^$' -bench 'D3Row' -benchtime 3000x | grep '^Benchmark'
echo "# $(uptime)"
