#!/usr/bin/env bash
# Stress-1, the means' share of the squared distances and the silhouette of
# the means by class, for covariance structures and scale budgets, on
# built-in wine and on a generated 3-class, 5-feature table.
# Usage: bash docs/experiments/model_choices.sh [TABLE_ITERS] > results.md
# (run from the repository root; builds ./burescope-exp; minutes per table
# fit at n = 5000 on 2 cores).
set -euo pipefail
iters_table=${1:-300}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go build -o "$tmp/burescope" .
python3 docs/experiments/gen_3class.py 5000 > "$tmp/table3.csv"
settings=(
  "full|--structure full"
  "full, budget 0.01|--structure full --scale-budget 0.01"
  "full, budget 0.03|--structure full --scale-budget 0.03"
  "full, budget 0.1|--structure full --scale-budget 0.1"
  "diagonal|--structure diagonal"
  "spherical|--structure spherical"
  "points|--structure points"
)
echo "| data | setting | iterations | stress-1 | means' share | silhouette (means) | seconds |"
echo "|---|---|---|---|---|---|---|"
for data in "builtin:wine|1000" "$tmp/table3.csv|$iters_table"; do
  src=${data%%|*}; it=${data##*|}
  name=$src; [[ $src == *table3.csv ]] && name="3-class table (n = 5000)"
  for s in "${settings[@]}"; do
    label=${s%%|*}; flags=${s##*|}
    # shellcheck disable=SC2086
    line=$("$tmp/burescope" fit "$src" $flags --iters "$it" --baseline=false --backend cpu 2>/dev/null | tail -1)
    python3 - "$name" "$label" "$line" <<'PY'
import json, sys
name, label, line = sys.argv[1:4]
r = json.loads(line)
print("| %s | %s | %d | %.4f | %.3f | %.3f | %.1f |" % (name, label, r["iters"], r["stress1"], r["mean_share"], r["silhouette"], r["seconds"]))
PY
  done
done
