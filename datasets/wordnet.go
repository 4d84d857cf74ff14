package datasets

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
)

// WordNetPrefix marks a WordNet 3.0 database directory wherever a
// relations file is accepted: wordnet:/usr/share/wordnet. The relations
// are the hypernym closure under Options.WordNetRoot (LoadWordNet).
const WordNetPrefix = "wordnet:"

// DefaultWordNetRoot is the root synset of a WordNet closure when none is
// given: all nouns.
const DefaultWordNetRoot = "entity.n.01"

// maxWordNetFile bounds the size of data.noun and index.noun read by
// LoadWordNet (WordNet 3.0's data.noun is 15 MB).
const maxWordNetFile = 256 << 20

// wnSynset is one noun synset of data.noun.
type wnSynset struct {
	offset  int
	line    int    // line in data.noun
	lemma   string // first lemma, lower case
	parents []int  // offsets of the @ and @i targets
	name    string // NLTK name, e.g. dog.n.01
}

// LoadWordNet reads the noun database of a WordNet 3.0 directory
// (data.noun and index.noun, as Debian's wordnet-base installs them in
// /usr/share/wordnet) and returns the transitive closure of the hypernym
// links (@ and instance hypernyms @i) under the synset root (an NLTK
// name such as entity.n.01 or mammal.n.01; "" means DefaultWordNetRoot):
// the items are root and every synset below it, and Relations holds every
// (synset, ancestor) pair with both ends in that set, self pairs excluded,
// sorted by (child, ancestor) index. Synsets are named as NLTK names them:
// the first lemma of the synset in lower case, ".n.", and the 1-based
// position of the synset among the senses of that lemma in index.noun
// (two digits). Items are in data.noun order (by byte offset).
//
// When the closure has at most MaxItems items, Edges (the transitive
// reduction of the closure) and Dist (shortest paths on them taken as undirected) are
// filled as for a relations file; above, they are nil (an 82,115-item
// distance matrix does not fit in memory). Errors name the file, the line
// and the problem: a missing file, a malformed line, a link to a synset
// that does not exist, a cycle, an unknown root.
func LoadWordNet(dir, root string) (*Dataset, error) {
	if root == "" {
		root = DefaultWordNetRoot
	}
	name := WordNetPrefix + dir
	if st, err := os.Stat(dir); err != nil {
		return nil, errf(name, "cannot open the WordNet directory: %v", err)
	} else if !st.IsDir() {
		return nil, errf(name, "%s is not a directory (want a WordNet 3.0 database directory holding data.noun and index.noun)", dir)
	}
	dataPath := filepath.Join(dir, "data.noun")
	indexPath := filepath.Join(dir, "index.noun")
	data, err := readWordNetFile(dataPath)
	if err != nil {
		return nil, err
	}
	index, err := readWordNetFile(indexPath)
	if err != nil {
		return nil, err
	}
	return wordNetFromBytes(name, dataPath, indexPath, data, index, root)
}

// wordNetFromBytes is LoadWordNet on the contents of data.noun and
// index.noun (named dataPath and indexPath in errors).
func wordNetFromBytes(name, dataPath, indexPath string, data, index []byte, root string) (*Dataset, error) {
	if root == "" {
		root = DefaultWordNetRoot
	}
	synsets, byOffset, err := parseWordNetData(dataPath, data)
	if err != nil {
		return nil, err
	}
	if err := nameWordNetSynsets(indexPath, index, synsets, byOffset); err != nil {
		return nil, err
	}
	ri := -1
	for i := range synsets {
		if synsets[i].name == root {
			ri = i
			break
		}
	}
	if ri < 0 {
		return nil, errf(name, "no noun synset named %q in %s (want an NLTK name such as %s or mammal.n.01)", root, dataPath, DefaultWordNetRoot)
	}
	return wordNetClosure(name, dataPath, synsets, byOffset, ri)
}

// readWordNetFile reads one database file, naming it in errors.
func readWordNetFile(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, errf(path, "cannot read (is this a WordNet 3.0 database directory?): %v", err)
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, maxWordNetFile+1))
	if err != nil {
		return nil, errf(path, "%v", err)
	}
	if len(b) > maxWordNetFile {
		return nil, errf(path, "file is larger than %d MiB", maxWordNetFile>>20)
	}
	if len(b) == 0 {
		return nil, errf(path, "file is empty")
	}
	return b, nil
}

// wnLines calls f with every line of b (1-based numbers, without the line
// end) that is not blank and not part of the licence header (lines
// starting with two spaces).
func wnLines(b []byte, f func(line int, s string) error) error {
	ln := 0
	for len(b) > 0 {
		ln++
		i := bytes.IndexByte(b, '\n')
		var s []byte
		if i < 0 {
			s, b = b, nil
		} else {
			s, b = b[:i], b[i+1:]
		}
		s = bytes.TrimRight(s, "\r")
		if len(bytes.TrimSpace(s)) == 0 || bytes.HasPrefix(s, []byte("  ")) {
			continue
		}
		if err := f(ln, string(s)); err != nil {
			return err
		}
	}
	return nil
}

// parseWordNetData parses data.noun: per line
//
//	offset lex_filenum ss_type w_cnt (word lex_id){w_cnt} p_cnt (symbol offset pos source/target){p_cnt} [frames] | gloss
//
// (w_cnt is two hexadecimal digits), keeping the first word and the @ and
// @i pointers to nouns. It checks that no offset is defined twice and
// that every hypernym pointer targets a synset of the file.
func parseWordNetData(path string, data []byte) ([]wnSynset, map[int]int, error) {
	var out []wnSynset
	byOffset := make(map[int]int)
	err := wnLines(data, func(ln int, s string) error {
		if i := strings.Index(s, " | "); i >= 0 {
			s = s[:i]
		}
		f := strings.Fields(s)
		bad := func(format string, a ...any) error {
			return lineErrf(path, ln, "not a WordNet data.noun line: "+format, a...)
		}
		if len(f) < 6 {
			return bad("%d fields, want at least 6 (offset, lex_filenum, ss_type, w_cnt, word, lex_id)", len(f))
		}
		off, err := strconv.Atoi(f[0])
		if err != nil || off < 0 || len(f[0]) != 8 {
			return bad("synset offset %s is not 8 digits", quoteCell(f[0]))
		}
		if f[2] != "n" {
			return bad("synset type %s, want n (a noun)", quoteCell(f[2]))
		}
		wc, err := strconv.ParseUint(f[3], 16, 8)
		if err != nil || wc == 0 {
			return bad("word count %s is not a positive hexadecimal number", quoteCell(f[3]))
		}
		k := 4 + 2*int(wc)
		if len(f) < k+1 {
			return bad("%d words announced but the line ends after %d fields", wc, len(f))
		}
		lemma := strings.ToLower(f[4])
		pc, err := strconv.Atoi(f[k])
		if err != nil || pc < 0 {
			return bad("pointer count %s is not a number", quoteCell(f[k]))
		}
		k++
		if len(f) < k+4*pc {
			return bad("%d pointers announced but the line has room for %d", pc, (len(f)-k)/4)
		}
		syn := wnSynset{offset: off, line: ln, lemma: lemma}
		for p := 0; p < pc; p++ {
			sym, to, pos := f[k+4*p], f[k+4*p+1], f[k+4*p+2]
			if sym != "@" && sym != "@i" {
				continue
			}
			if pos != "n" {
				return bad("hypernym pointer %d to a %s synset, want n", p+1, quoteCell(pos))
			}
			t, err := strconv.Atoi(to)
			if err != nil || t < 0 {
				return bad("hypernym pointer %d: target %s is not an offset", p+1, quoteCell(to))
			}
			syn.parents = append(syn.parents, t)
		}
		if prev, dup := byOffset[off]; dup {
			return lineErrf(path, ln, "synset offset %08d already defined on line %d", off, out[prev].line)
		}
		byOffset[off] = len(out)
		out = append(out, syn)
		return nil
	})
	if err != nil {
		return nil, nil, err
	}
	if len(out) == 0 {
		return nil, nil, errf(path, "no synset lines (is this a WordNet data.noun file?)")
	}
	for _, s := range out {
		for _, p := range s.parents {
			if _, ok := byOffset[p]; !ok {
				return nil, nil, lineErrf(path, s.line, "synset %08d (%s) has a hypernym %08d that is not in the file (partial database?)", s.offset, quoteCell(s.lemma), p)
			}
		}
	}
	return out, byOffset, nil
}

// nameWordNetSynsets gives every synset its NLTK name from index.noun:
//
//	lemma pos synset_cnt p_cnt (ptr_symbol){p_cnt} sense_cnt tagsense_cnt (synset_offset){synset_cnt}
//
// The sense number of a synset is the position of its offset in the list
// of its first lemma.
func nameWordNetSynsets(path string, index []byte, syns []wnSynset, byOffset map[int]int) error {
	senses := make(map[string][]int)
	err := wnLines(index, func(ln int, s string) error {
		f := strings.Fields(s)
		bad := func(format string, a ...any) error {
			return lineErrf(path, ln, "not a WordNet index.noun line: "+format, a...)
		}
		if len(f) < 4 {
			return bad("%d fields, want at least 4", len(f))
		}
		if f[1] != "n" {
			return bad("part of speech %s, want n", quoteCell(f[1]))
		}
		sc, err1 := strconv.Atoi(f[2])
		pc, err2 := strconv.Atoi(f[3])
		if err1 != nil || err2 != nil || sc < 1 || pc < 0 {
			return bad("synset count %s and pointer count %s must be numbers", quoteCell(f[2]), quoteCell(f[3]))
		}
		k := 4 + pc + 2
		if len(f) != k+sc {
			return bad("%d fields, want %d for %d pointer symbols and %d synsets", len(f), k+sc, pc, sc)
		}
		offs := make([]int, sc)
		for i := range offs {
			o, err := strconv.Atoi(f[k+i])
			if err != nil || o < 0 {
				return bad("synset offset %s is not a number", quoteCell(f[k+i]))
			}
			offs[i] = o
		}
		senses[f[0]] = offs
		return nil
	})
	if err != nil {
		return err
	}
	for i := range syns {
		s := &syns[i]
		pos := -1
		for j, o := range senses[s.lemma] {
			if o == s.offset {
				pos = j
				break
			}
		}
		if pos < 0 {
			return errf(path, "lemma %s of synset %08d (data.noun line %d) does not list that synset (index.noun and data.noun do not match)", quoteCell(s.lemma), s.offset, s.line)
		}
		s.name = fmt.Sprintf("%s.n.%02d", s.lemma, pos+1)
	}
	return nil
}

// wordNetClosure builds the dataset of the closure under synset ri.
func wordNetClosure(name, dataPath string, syns []wnSynset, byOffset map[int]int, ri int) (*Dataset, error) {
	n := len(syns)
	// Children lists, then the synsets below the root by a search down.
	nchild := make([]int, n+1)
	for _, s := range syns {
		for _, p := range s.parents {
			nchild[byOffset[p]+1]++
		}
	}
	for i := 0; i < n; i++ {
		nchild[i+1] += nchild[i]
	}
	child := make([]int32, nchild[n])
	fill := append([]int(nil), nchild[:n]...)
	for i, s := range syns {
		for _, p := range s.parents {
			j := byOffset[p]
			child[fill[j]] = int32(i)
			fill[j]++
		}
	}
	in := make([]bool, n)
	in[ri] = true
	stack := []int{ri}
	for len(stack) > 0 {
		u := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, c := range child[nchild[u]:nchild[u+1]] {
			if !in[c] {
				in[c] = true
				stack = append(stack, int(c))
			}
		}
	}
	// Item numbers in data.noun order.
	id := make([]int, n)
	var labels []string
	for i := range syns {
		id[i] = -1
		if in[i] {
			id[i] = len(labels)
			labels = append(labels, syns[i].name)
		}
	}
	m := len(labels)
	if m < 2 {
		return nil, errf(name, "synset %s has no hyponyms: its closure has a single item", syns[ri].name)
	}
	// Ancestor sets in topological order from the root (Kahn): a synset is
	// done once all its parents inside the closure are.
	waiting := make([]int, n)
	for i, s := range syns {
		if in[i] && i != ri {
			for _, p := range s.parents {
				if in[byOffset[p]] {
					waiting[i]++
				}
			}
		}
	}
	anc := make([][]int32, n)
	order := []int{ri}
	for k := 0; k < len(order); k++ {
		u := order[k]
		if u != ri {
			var a []int32
			for _, p := range syns[u].parents {
				j := byOffset[p]
				if !in[j] {
					continue
				}
				a = append(a, int32(id[j]))
				a = append(a, anc[j]...)
			}
			sort.Slice(a, func(x, y int) bool { return a[x] < a[y] })
			w := 0
			for x, v := range a {
				if x == 0 || v != a[w-1] {
					a[w] = v
					w++
				}
			}
			anc[u] = a[:w:w]
		}
		for _, c := range child[nchild[u]:nchild[u+1]] {
			if waiting[c]--; waiting[c] == 0 {
				order = append(order, int(c))
			}
		}
	}
	if len(order) < m {
		for i, s := range syns {
			if in[i] && waiting[i] > 0 {
				return nil, lineErrf(dataPath, s.line, "the hypernym links contain a cycle through or above synset %08d (%s)", s.offset, quoteCell(s.name))
			}
		}
	}
	var total int
	for i := range syns {
		total += len(anc[i])
	}
	pairs := make([][2]int, 0, total)
	for i := range syns {
		for _, a := range anc[i] {
			pairs = append(pairs, [2]int{id[i], int(a)})
		}
	}
	ds := &Dataset{Name: name, Kind: KindRelations, Labels: labels, Relations: pairs,
		Source: "WordNet 3.0 noun hypernym closure under " + syns[ri].name + " (" + strings.TrimPrefix(name, WordNetPrefix) + ")"}
	if m <= MaxItems {
		edges, err := hasse(dataPath, m, pairs, make([]int, len(pairs)), labels)
		if err != nil {
			return nil, err
		}
		first := make([]int, m)
		for i := range syns {
			if in[i] {
				first[id[i]] = syns[i].line
			}
		}
		dist, err := pathDistances(dataPath, m, edges, labels, first)
		if err != nil {
			return nil, err
		}
		ds.Edges, ds.Dist = edges, dist
	}
	return ds, nil
}
