#!/usr/bin/env bash
# Fits wine, iris and a generated 5000-row 3-class table at the defaults
# and renders each through render's PNG export twice: at the defaults
# (after) and with the former defaults (before: data order, fixed 35%
# fill, no glyphs). Usage: bash docs/experiments/screenshots.sh OUTDIR
# (from the repository root; the 5000-row fit takes minutes on 2 cores).
set -euo pipefail
out=${1:?usage: screenshots.sh OUTDIR}
mkdir -p "$out"
go build -o "$out/burescope" .
python3 docs/experiments/gen_3class.py 5000 > "$out/table3.csv"
for ds in wine iris table3; do
  src=builtin:$ds; [[ $ds == table3 ]] && src=$out/table3.csv
  "$out/burescope" fit "$src" --baseline=false --out "$out/$ds.json" | tail -1
  "$out/burescope" render "$out/$ds.json" --out "$out/$ds-after.png" --color-by class --data "$src" --dpi 100
  "$out/burescope" render "$out/$ds.json" --out "$out/$ds-before.png" --color-by class --data "$src" --dpi 100 \
    --glyph off --order data --fixed-alpha
done
