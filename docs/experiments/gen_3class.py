#!/usr/bin/env python3
"""Write a 3-class, 5-feature table of N rows (default 5000) to stdout:
class k has mean 3*e_k (k = 0, 1, 2) in the first three features and unit
Gaussian noise in all five. Seeded, so the table is the same every run.
Usage: python3 gen_3class.py [N] > table3.csv"""
import random
import sys

n = int(sys.argv[1]) if len(sys.argv) > 1 else 5000
rng = random.Random(20261123)
print("id,class,f1,f2,f3,f4,f5")
for i in range(n):
    k = i % 3
    x = [rng.gauss(0, 1) for _ in range(5)]
    x[k] += 3.0
    print("r%d,c%d,%s" % (i, k, ",".join("%.5f" % v for v in x)))
