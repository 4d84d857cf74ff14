#!/usr/bin/env bash
# Training speed at the WordNet nouns' size (docs/hypernymy.md, "Speed at
# the nouns' size"): BenchmarkHypernymyNounsBatch (one batch of 1,000
# relations, 50 negatives, the optimiser step included, n = 82,115) at
# d = 2, 5, 10 for two revisions of the repository, run one after the
# other in one session so that both see the same machine load. Wall time
# per batch is the benchmark's ns/op; CPU time per batch is the task-clock
# of a 6-batch run minus that of a 1-batch run (the setup), over 5.
# Then, optionally, one real epoch over all nouns at d = 10 through the CLI
# under /usr/bin/time -v (wall, CPU, peak resident memory).
# Run by hand, not in CI (needs perf and, for the epoch, wordnet-base):
#   bash docs/experiments/nouns_batch.sh OLD_REV [NEW_REV|.] [--epoch]
set -euo pipefail
old=${1:?usage: nouns_batch.sh OLD_REV [NEW_REV|.] [--epoch]}
new=${2:-.}
out=${OUT:-/tmp/burescope-nouns}
mkdir -p "$out"
build() { # REV NAME: test binary of engine/hypernymy at REV ("." = work tree)
  if [ "$1" = . ]; then
    go test -c -o "$out/$2.test" ./engine/hypernymy
  else
    rm -rf "$out/src-$2" && mkdir -p "$out/src-$2"
    git archive "$1" | tar -x -C "$out/src-$2"
    (cd "$out/src-$2" && go test -c -o "$out/$2.test" ./engine/hypernymy)
  fi
}
build "$old" old
build "$new" new
cpu() { # BIN D N: task-clock (ms) and the benchmark line
  (cd engine/hypernymy && perf stat -e task-clock -x, "$1" -test.run XXX \
    -test.bench "NounsBatch/d=$2\$" -test.benchtime "$3x" 2>&1) |
    awk -F, '/^Benchmark/{b=$0} /task-clock/{c=$1} END{print c "\t" b}'
}
echo "load before: $(cat /proc/loadavg)"
printf "rev\td\twall_ms_per_batch\tcpu_ms_per_batch\n"
for d in 2 5 10; do
  for rev in old new; do
    one=$(cpu "$out/$rev.test" "$d" 1 | cut -f1)
    six=$(cpu "$out/$rev.test" "$d" 6)
    echo "$six" | awk -v rev="$rev" -v d="$d" -v one="$one" \
      '{printf "%s\t%s\t%.0f\t%.0f\n", rev, d, $(NF-3) / 1e6, ($1 - one) / 5}'
  done
done
echo "load after: $(cat /proc/loadavg)"
if [ "${3:-}" = --epoch ]; then
  go build -o "$out/burescope" .
  /usr/bin/time -v "$out/burescope" train-relations wordnet:/usr/share/wordnet \
    --dim 10 --epochs 1 --no-eval --out "$out/nouns10.json" \
    > "$out/epoch10.json" 2> "$out/epoch10.log"
  cat "$out/epoch10.json"
  grep -E "Elapsed|User time|System time|Maximum resident" "$out/epoch10.log"
fi
