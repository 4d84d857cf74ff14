#!/usr/bin/env python3
"""Collect the noun runs of docs/experiments/figure6_nouns.sh (OUTDIR) into
the JSON lines plot.go reads, with the earlier noun runs of
docs/hypernymy.md (d = 2 and 5, exact over all rows) and Nickel & Kiela's
Poincare figures (2017, Table 1, WordNet nouns reconstruction) beside them.

usage: nouns_jsonl.py OUTDIR [OUTDIR50] > nouns.jsonl

OUTDIR50 (optional) holds the 50-epoch runs of figure6_50.sh
(nouns50_dD.*); with it the 50-epoch series is made of those runs, and
the earlier d = 2 run at 50 epochs (dense Adam, 97239f1) is drawn as its
own series.
"""
import json
import os
import sys

out = sys.argv[1]
out50 = sys.argv[2] if len(sys.argv) > 2 else None
rows = []


def last_json(path):
    if not os.path.exists(path) or os.path.getsize(path) == 0:
        return None
    return json.loads(open(path).read().strip().splitlines()[-1])


def add(set_, name, d, train, folder=None):
    folder = folder or out
    a = last_json(os.path.join(folder, name + ".eval.directed.json"))
    b = last_json(os.path.join(folder, name + ".eval.undirected.json"))
    if a is None:
        return
    r = {"set": set_, "protocol": train, "dim": d, "mean_rank": a["mean_rank"], "map": a["map"], "rows": a["rows"]}
    if b is not None:
        r["undir_mean_rank"], r["undir_map"] = b["mean_rank"], b["map"]
    rows.append(r)


# Earlier runs (docs/hypernymy.md, Figure 6 table), all rows exact.
rows.append({"set": "nouns, 10 epochs", "protocol": "directed", "dim": 2, "mean_rank": 78.108, "map": 0.6337,
             "undir_mean_rank": 2021.2, "undir_map": 0.5850, "rows": 82114})
rows.append({"set": "nouns, 50 epochs, dense Adam (97239f1)" if out50 else "nouns, 50 epochs",
             "protocol": "directed", "dim": 2, "mean_rank": 62.93, "map": 0.6736,
             "undir_mean_rank": 1211.5, "undir_map": 0.6231, "rows": 82114})
add("nouns, 10 epochs", "nouns_d3", 3, "directed")
add("nouns, 10 epochs", "nouns_d4", 4, "directed")
rows.append({"set": "nouns, 8 epochs", "protocol": "directed", "dim": 5, "mean_rank": 30.05, "map": 0.6828,
             "undir_mean_rank": 2165.1, "undir_map": 0.6318, "rows": 82114})
add("nouns, 10 epochs, no self pairs", "nouns_undir_d2", 2, "undirected")
add("nouns, 10 epochs", "nouns_undirself_d2", 2, "undirected")
add("nouns, 2 epochs (every 25th row)", "nouns_d10", 10, "directed")
add("nouns, 1 epoch (every 100th row)", "nouns_d20", 20, "directed")
if out50:
    for d in (2, 3, 4, 5, 10, 20):
        add("nouns, 50 epochs", "nouns50_d%d" % d, d, "directed", out50)
for d, r, m in [(5, 4.9, 0.823), (10, 4.02, 0.851), (20, 3.84, 0.855), (50, 3.98, 0.86)]:
    rows.append({"set": "nouns", "model": "poincare (Nickel & Kiela 2017, Table 1)", "protocol": "directed",
                 "dim": d, "mean_rank": r, "map": m})
for r in rows:
    print(json.dumps(r))
