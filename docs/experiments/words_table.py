#!/usr/bin/python3
"""Prints the comparison table of docs/words.md from the JSON results that
words.sh leaves in its work folder (argument; default /tmp/burescope-words)."""
import json
import os
import sys

W = sys.argv[1] if len(sys.argv) > 1 else "/tmp/burescope-words"


def load(name):
    p = os.path.join(W, name)
    if not os.path.exists(p) or os.path.getsize(p) == 0:
        return None
    with open(p) as f:
        return json.loads(f.read().strip().splitlines()[-1])


print("| corpus | model | d | params / measure | epochs | set | similarity proxy: Spearman x 100 | entailment proxy: AP | entailment proxy: best F1 |")
print("|---|---|---|---|---|---|---|---|---|")
for c in ("brown", "austen"):
    for m, label, d, params in (("full", "ours, full covariance", 12, 90), ("diag", "ours, diagonal", 45, 90)):
        tr = load(f"{c}_{m}.json")
        for s in ("context", "input"):
            sim, ent = load(f"{c}_{m}_{s}_sim.json"), load(f"{c}_{m}_{s}_ent.json")
            if not (tr and sim and ent):
                print(f"| {c} | {label} | {d} | {params} | - | {s} | not run | | |")
                continue
            print(f"| {c} | {label} | {d} | {params} | {tr['epochs']} | {s} | {sim['spearman']:.2f} | {ent['ap']:.3f} | {ent['f1']:.3f} |")
    for g, label in (("gensim", "gensim skipgram, same settings"), ("gensim_defaults", "gensim skipgram, 5 negatives, subsample 1e-3")):
        r = load(f"{c}_{g}.json")
        for s in ("context", "input"):
            if not r:
                print(f"| {c} | {label} | 90 | 90 | - | {s} | not run | | |")
                continue
            print(f"| {c} | {label} | {r['dim']} | {r['dim']} | {r['epochs']} | {s} | {r[s + '_spearman']:.2f} | {r[s + '_ap']:.3f} | {r[s + '_f1']:.3f} |")
