#!/usr/bin/python3
"""Proxy word benchmarks from WordNet for the word-embedding experiments
(docs/words.md). NOT the paper's benchmarks: the paper's similarity sets
(SimLex, WordSim, MEN, ...) and Baroni et al.'s entailment set cannot be
installed here, so this builds stand-ins from WordNet 3.0 (Debian
wordnet-base, /usr/share/wordnet) restricted to frequent nouns of a corpus (words whose SemCor-tagged noun
senses are at least as many as their verb, adjective or adverb ones; the
first two noun senses of each):

  * similarity proxy: noun pairs scored by Wu-Palmer similarity (NLTK's
    definition: 2 depth(lcs) / (depth(lcs)*2 + the two path lengths to the
    lcs), max over those senses), stratified over five score bins;
  * entailment proxy (Baroni et al. 2012 style): positives (hyponym,
    hypernym) from the hypernym closure (<= 3 links) of a word's first
    noun sense; negatives the same pairs reversed and random noun pairs
    not related by hypernymy, as many negatives as positives.

It reads only the WordNet noun files it needs (data.noun, index.noun);
the hypernymy engine has its own WordNet loader, to be merged later.

usage: words_proxies.py CORPUS.txt OUT_PREFIX [--top 2000] [--min-count 20]
       [--pairs 1000] [--seed 1]
writes OUT_PREFIX-wup-proxy.tsv (word1 word2 score) and
OUT_PREFIX-entail-proxy.tsv (word1 word2 label).
"""
import argparse
import collections
import random
import sys
import unicodedata

WN = "/usr/share/wordnet"
MAX_SENSES = 2  # noun senses considered per word (WordNet's most frequent first)


def tokenize(line):
    """Lower-case, drop Unicode punctuation (P*) and symbols (S*), split on
    white space: the tokenisation of burescope train-words."""
    out = []
    for ch in line:
        cat = unicodedata.category(ch)
        if cat[0] in "PS":
            continue
        out.append(ch.lower())
    return "".join(out).split()


def read_wordnet():
    hyper = {}  # synset offset -> list of hypernym offsets (@ and @i)
    with open(f"{WN}/data.noun", encoding="latin-1") as f:
        for line in f:
            if line.startswith("  "):
                continue
            parts = line.split()
            off = parts[0]
            nw = int(parts[3], 16)
            i = 4 + 2 * nw
            np_ = int(parts[i])
            hs = []
            for k in range(np_):
                sym, tgt, pos = parts[i + 1 + 4 * k], parts[i + 2 + 4 * k], parts[i + 3 + 4 * k]
                if sym in ("@", "@i") and pos == "n":
                    hs.append(tgt)
            hyper[off] = hs
    senses = {}  # lemma -> synset offsets in sense order
    tagged = collections.defaultdict(dict)  # lemma -> pos -> tagged sense count
    for pos in ("noun", "verb", "adj", "adv"):
        with open(f"{WN}/index.{pos}", encoding="latin-1") as f:
            for line in f:
                if line.startswith("  "):
                    continue
                parts = line.split()
                lemma = parts[0]
                ncount, pcount = int(parts[2]), int(parts[3])
                tagged[lemma][pos] = int(parts[5 + pcount])
                if pos == "noun":
                    senses[lemma] = parts[-ncount:][:MAX_SENSES]
    # Keep words used mostly as nouns (SemCor-tagged sense counts).
    senses = {w: s for w, s in senses.items() if tagged[w]["noun"] >= max(tagged[w].values()) and tagged[w]["noun"] > 0}
    return hyper, senses


def ancestors(hyper, s, cache):
    """Distances from s to each of its ancestors (s itself at 0), shortest."""
    if s in cache:
        return cache[s]
    dist = {s: 0}
    frontier = [s]
    while frontier:
        nxt = []
        for u in frontier:
            for h in hyper.get(u, ()):
                if h not in dist:
                    dist[h] = dist[u] + 1
                    nxt.append(h)
        frontier = nxt
    cache[s] = dist
    return dist


def max_depth(hyper, s, cache):
    """Longest path from s to a root, in links (NLTK's max_depth)."""
    if s in cache:
        return cache[s]
    hs = hyper.get(s, ())
    d = 0 if not hs else 1 + max(max_depth(hyper, h, cache) for h in hs)
    cache[s] = d
    return d


def wup_synsets(hyper, a, b, acache, dcache):
    da, db = ancestors(hyper, a, acache), ancestors(hyper, b, acache)
    common = set(da) & set(db)
    if not common:
        return 0.0
    lcs = max(common, key=lambda s: (max_depth(hyper, s, dcache), -da[s] - db[s]))
    depth = max_depth(hyper, lcs, dcache) + 1
    return 2.0 * depth / (da[lcs] + db[lcs] + 2 * depth)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("corpus", nargs="+")
    ap.add_argument("--out", required=True)
    ap.add_argument("--top", type=int, default=2000)
    ap.add_argument("--min-count", type=int, default=20)
    ap.add_argument("--pairs", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()
    rng = random.Random(a.seed)
    counts = collections.Counter()
    for path in a.corpus:
        with open(path, encoding="utf-8") as f:
            for line in f:
                counts.update(tokenize(line))
    hyper, senses = read_wordnet()
    nouns = [w for w, c in counts.most_common() if c >= a.min_count and w in senses and w.isalpha() and len(w) > 2][: a.top]
    print(f"{len(nouns)} frequent corpus nouns in WordNet", file=sys.stderr)
    acache, dcache = {}, {}

    def wup(u, v):
        return max(wup_synsets(hyper, s, t, acache, dcache) for s in senses[u] for t in senses[v])

    # Similarity proxy: stratify random pairs over five Wu-Palmer bins.
    per_bin = a.pairs // 5
    bins = [[] for _ in range(5)]
    seen = set()
    tries = 0
    # Near pairs come from shared close ancestors so that high bins fill.
    by_anc = collections.defaultdict(list)
    for w in nouns:
        for anc, d in ancestors(hyper, senses[w][0], acache).items():
            if 1 <= d <= 2:
                by_anc[anc].append(w)
    groups = [g for g in by_anc.values() if len(g) >= 2]
    while min(len(b) for b in bins) < per_bin and tries < 400000:
        tries += 1
        if tries % 2 and groups:
            u, v = rng.sample(rng.choice(groups), 2)
        else:
            u, v = rng.sample(nouns, 2)
        key = tuple(sorted((u, v)))
        if key in seen:
            continue
        seen.add(key)
        s = wup(u, v)
        k = min(int(s * 5), 4)
        if len(bins[k]) < per_bin:
            bins[k].append((u, v, s))
    sim = [p for b in bins for p in b]
    rng.shuffle(sim)
    with open(f"{a.out}-wup-proxy.tsv", "w") as f:
        f.write("word1\tword2\twup_proxy\n")
        for u, v, s in sim:
            f.write(f"{u}\t{v}\t{s:.4f}\n")
    print(f"similarity proxy: {len(sim)} pairs (bins {[len(b) for b in bins]})", file=sys.stderr)

    # Entailment proxy.
    nounset = set(nouns)
    off2words = collections.defaultdict(list)
    for w in nouns:
        for s in senses[w]:
            off2words[s].append(w)
    pos = []
    for w in nouns:
        for anc, d in ancestors(hyper, senses[w][0], acache).items():
            if 1 <= d <= 3:
                for h in off2words.get(anc, ()):
                    if h != w:
                        pos.append((w, h))
    pos = sorted(set(pos))
    rng.shuffle(pos)
    pos = pos[: a.pairs // 2]
    posset = set(pos)
    neg = [(h, w) for (w, h) in pos[: len(pos) // 2] if (h, w) not in posset]

    def related(u, v):
        su = set().union(*(ancestors(hyper, s, acache) for s in senses[u]))
        sv = set().union(*(ancestors(hyper, s, acache) for s in senses[v]))
        return any(s in sv for s in senses[u]) or any(s in su for s in senses[v])

    while len(neg) < len(pos):
        u, v = rng.sample(nouns, 2)
        if not related(u, v):
            neg.append((u, v))
    ent = [(u, v, 1) for u, v in pos] + [(u, v, 0) for u, v in neg]
    rng.shuffle(ent)
    with open(f"{a.out}-entail-proxy.tsv", "w") as f:
        f.write("word1\tword2\tentails\n")
        for u, v, l in ent:
            f.write(f"{u}\t{v}\t{l}\n")
    print(f"entailment proxy: {len(pos)} positives, {len(neg)} negatives ({len(pos)//2} reversed)", file=sys.stderr)


if __name__ == "__main__":
    main()
