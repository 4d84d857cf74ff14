#!/usr/bin/env python3
"""Split the mixture cosine of a train-words model (.npz) into its two
parts and rank each against a pair file (docs/words.md, "Where the mixture
cosine's points come from"): the means' cosine, the covariance term
X / sqrt(tr A tr B), their sum (the mixture cosine) and the
Wasserstein-Bures cosine, Spearman x 100, context set then input set.

usage: /usr/bin/python3 words_decompose.py MODEL.npz PAIRS.tsv
"""
import sys, numpy as np
from scipy.stats import spearmanr
from scipy.linalg import sqrtm
z = np.load(sys.argv[1], allow_pickle=True)
labels = [str(x) for x in z['labels']]
idx = {w:i for i,w in enumerate(labels)}
pairs = []
for line in open(sys.argv[2]).read().splitlines()[1:]:
    a,b,s = line.split('\t')
    if a in idx and b in idx: pairs.append((idx[a],idx[b],float(s)))
gold = np.array([p[2] for p in pairs])
def psd_sqrt(A):
    w,V = np.linalg.eigh(A); w = np.clip(w,0,None); return (V*np.sqrt(w))@V.T
for pre in ['c_','']:
    M = z[pre+'means']; C = z[pre+'vars']
    mc, cov, wb, mix = [],[],[],[]
    for a,b,_ in pairs:
        ma, mb = M[a], M[b]; A, B = C[a], C[b]
        ra = psd_sqrt(A); X = np.trace(psd_sqrt(ra@B@ra))
        c1 = ma@mb/np.sqrt((ma@ma)*(mb@mb)); c2 = X/np.sqrt(np.trace(A)*np.trace(B))
        mc.append(c1); cov.append(c2); mix.append(c1+c2)
        wb.append((ma@mb+X)/np.sqrt((ma@ma+np.trace(A))*(mb@mb+np.trace(B))))
    r = lambda v: round(100*spearmanr(v,gold).correlation,2)
    tr = np.array([np.trace(C[i]) for i in range(len(labels))]); nm = np.linalg.norm(M,axis=1)
    print(pre or 'in_', 'mean-cos', r(mc), 'cov-term', r(cov), 'mixture', r(mix), 'wb', r(wb),
          'cov-term sd', round(float(np.std(cov)),4), 'mean-cos sd', round(float(np.std(mc)),4),
          'median |m|', round(float(np.median(nm)),3), 'median trC', round(float(np.median(tr)),3))
