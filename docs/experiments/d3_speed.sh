#!/usr/bin/env bash
# Speed of the d = 3 stress + full gradient beside d = 2, in one run
# (docs/mds.md, "d = 3 vector kernel"). Run by hand from the repository
# root (a few minutes on a 2-core machine):
#
#   go build -o burescope .
#   bash docs/experiments/d3_speed.sh
#
# To compare with an older tree in the same run, build its test binary
# and app, then name the folder in OLD; every measurement then alternates
# old and new ROUNDS times (default 3):
#
#   mkdir -p /tmp/d3old && git archive OLDCOMMIT | tar -x -C /tmp/d3old
#   (cd /tmp/d3old && go test -c -o engine.test ./engine && go build -o burescope .)
#   OLD=/tmp/d3old bash docs/experiments/d3_speed.sh
#
# Prints, all at nice 10 (the machine is shared: compare CPU ns/pair,
# wall time depends on the load):
#   1. go test -bench CPUStressGradient, n = 2000, d = 2 and 3, all
#      threads and 1 thread (ns/pair wall, cpu-ns/pair all threads);
#   2. burescope bench --n 2000 --dim 2 / --dim 3 (JSON lines);
#   3. (new tree only) BenchmarkD3Evaluate: the whole d = 3 evaluation
#      with each kernel this CPU has (scalar, avx2, avx512: a machine with
#      AVX-512 also gives the AVX2-only figure), and BenchmarkD3Row: the
#      row kernel alone on one thread; min-ns/pair is the fastest row
#      (~20 us), the figure least disturbed by other processes.
# GODEBUG=cpu.avx512f=off makes the engine use the AVX2 kernel where it
# would use the AVX-512 one.
set -euo pipefail
bin=${BURESCOPE:-./burescope}
iters=${ITERS:-20}
rounds=${ROUNDS:-3}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go test -c -o "$tmp/engine.test" ./engine/emds
echo "# $(date -u +%FT%TZ) $(uptime)"
echo "# $(grep -m1 'model name' /proc/cpuinfo)"
trees=(new)
if [ -n "${OLD:-}" ]; then
  trees=(old new)
fi
for r in $(seq "$rounds"); do
  for t in "${trees[@]}"; do
    if [ "$t" = old ]; then
      tb=$OLD/engine.test
      ab=$OLD/burescope
    else
      tb=$tmp/engine.test
      ab=$bin
    fi
    nice -n 10 "$tb" -test.run '^$' -test.bench 'CPUStressGradient/n=2000/d=[23]/' -test.benchtime 10x |
      grep '^Benchmark' | sed "s/^/$t round $r: /"
    for d in 2 3; do
      echo "$t round $r: $(nice -n 10 "$ab" bench --n 2000 --dim "$d" --iters "$iters" 2>/dev/null)"
    done
  done
done
nice -n 10 "$tmp/engine.test" -test.run '^$' -test.bench 'D3Evaluate' -test.benchtime 5x | grep '^Benchmark'
nice -n 10 "$tmp/engine.test" -test.run '^$' -test.bench 'D3Row' -test.benchtime 3000x | grep '^Benchmark'
echo "# $(uptime)"
