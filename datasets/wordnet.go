package datasets

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// WordNetPrefix marks a WordNet 3.0 database directory wherever a
// relations file is accepted: wordnet:/usr/share/wordnet. The relations
// are the hypernym closure under Options.WordNetRoot (LoadWordNet).
const WordNetPrefix = "wordnet:"

// DefaultWordNetRoot is the root synset of a WordNet closure when none is
// given: all nouns.
const DefaultWordNetRoot = "entity.n.01"

// maxWordNetFile bounds the size of data.noun and index.noun read by
// LoadWordNet (WordNet 3.0's data.noun is 15 MB, index.noun 4.8 MB).
const maxWordNetFile = 64 << 20

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
// Edges (the transitive reduction of the closure) is filled as for a
// relations file; Dist (shortest paths on the edges taken as undirected)
// when the closure has at most MaxItems items (an 82,115-item distance
// matrix does not fit in memory). Errors name the file, the line and the
// problem: a missing file, a file that is not text or too large (refused
// after at most maxWordNetLine bytes), a malformed line, a lemma that is
// not UTF-8 or holds control characters, a link to a synset that does not
// exist, a self-loop, a cycle (also one through the root), a closure too
// large for memory, an unknown root.
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
	if err := wordNetSelfLoops(dataPath, synsets, byOffset); err != nil {
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

// maxWordNetLine bounds one line of data.noun or index.noun (WordNet
// 3.0's longest is 12,972 bytes), so that a file without line ends is
// refused after that much reading.
const maxWordNetLine = 64 << 10

// readWordNetFile reads one database file, naming it in errors. It is
// refused before it is read when it is a regular file larger than
// maxWordNetFile, and while it is read at the first NUL byte or the first
// line longer than maxWordNetLine (so /dev/zero, a FIFO or a binary file
// costs at most maxWordNetLine bytes of reading before the refusal).
func readWordNetFile(path string) ([]byte, error) {
	// A FIFO would block the open itself: only regular files are opened.
	if st, err := os.Stat(path); err == nil && !st.Mode().IsRegular() && !st.IsDir() {
		kind := "a device, FIFO or socket"
		switch m := st.Mode(); {
		case m&os.ModeNamedPipe != 0:
			kind = "a FIFO"
		case m&os.ModeCharDevice != 0:
			kind = "a character device"
		}
		return nil, errf(path, "is %s, not a regular file: want a WordNet database file", kind)
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, errf(path, "cannot read (is this a WordNet 3.0 database directory?): %v", err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, errf(path, "%v", err)
	}
	if st.IsDir() {
		return nil, errf(path, "is a directory, want a WordNet database file")
	}
	if st.Mode().IsRegular() && st.Size() > maxWordNetFile {
		return nil, errf(path, "file of %s is larger than the %d MiB a WordNet noun database file may have (WordNet 3.0's data.noun is 15 MB)", FormatBytes(float64(st.Size())), maxWordNetFile>>20)
	}
	return readWordNetStream(path, f)
}

// readWordNetStream reads r whole with the checks of readWordNetFile.
func readWordNetStream(path string, r io.Reader) ([]byte, error) {
	var out []byte
	buf := make([]byte, 32<<10)
	line, lineLen := 1, 0
	for {
		k, err := r.Read(buf)
		chunk := buf[:k]
		for len(chunk) > 0 {
			nl := bytes.IndexByte(chunk, '\n')
			part := chunk
			if nl >= 0 {
				part = chunk[:nl]
			}
			if z := bytes.IndexByte(part, 0); z >= 0 {
				return nil, lineErrf(path, line, "NUL byte at character %d: not a WordNet database file (they are text)", lineLen+z+1)
			}
			lineLen += len(part)
			if lineLen > maxWordNetLine {
				return nil, lineErrf(path, line, "line longer than %d KiB: not a WordNet database file", maxWordNetLine>>10)
			}
			if nl < 0 {
				break
			}
			chunk = chunk[nl+1:]
			line++
			lineLen = 0
		}
		out = append(out, buf[:k]...)
		if len(out) > maxWordNetFile {
			return nil, errf(path, "more than the %d MiB a WordNet noun database file may have (WordNet 3.0's data.noun is 15 MB)", maxWordNetFile>>20)
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, errf(path, "%v", err)
		}
	}
	if len(out) == 0 {
		return nil, errf(path, "file is empty")
	}
	return out, nil
}

// wordNetLemma checks a lemma of data.noun or index.noun where it is read:
// valid UTF-8 without control characters (so it can be written to every
// output format and read back).
func wordNetLemma(path string, line int, lemma string) error {
	if !utf8.ValidString(lemma) {
		return lineErrf(path, line, "lemma %s is not valid UTF-8", quoteCell(strings.ToValidUTF8(lemma, "\uFFFD")))
	}
	if msg := labelControl(lemma); msg != "" {
		return lineErrf(path, line, "lemma %s %s", quoteCell(lemma), msg)
	}
	return nil
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
		for w := 0; w < int(wc); w++ {
			if err := wordNetLemma(path, ln, f[4+2*w]); err != nil {
				return err
			}
		}
		lemma := strings.ToLower(f[4])
		pc, err := strconv.Atoi(f[k])
		if err != nil || pc < 0 {
			return bad("pointer count %s is not a number", quoteCell(f[k]))
		}
		k++
		if pc > (len(f)-k)/4 {
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
		if err := wordNetLemma(path, ln, f[0]); err != nil {
			return err
		}
		if f[1] != "n" {
			return bad("part of speech %s, want n", quoteCell(f[1]))
		}
		sc, err1 := strconv.Atoi(f[2])
		pc, err2 := strconv.Atoi(f[3])
		if err1 != nil || err2 != nil || sc < 1 || pc < 0 {
			return bad("synset count %s and pointer count %s must be numbers", quoteCell(f[2]), quoteCell(f[3]))
		}
		if sc > len(f) || pc > len(f) {
			return bad("%d synsets and %d pointer symbols announced on a line of %d fields", sc, pc, len(f))
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

// maxWordNetPairs bounds the (child, ancestor) pairs of a WordNet closure
// (WordNet 3.0's noun closure has 743,086): about what the largest
// relations file (MaxFileSize) can hold, so a hypernym chain tens of
// thousands of synsets deep is refused before its quadratic closure is
// built.
const maxWordNetPairs = 50_000_000

// wordNetPairBytes is the memory of one closure pair while it is built:
// the ancestor list entry (int32) and the Relations pair ([2]int).
const wordNetPairBytes = 4 + 16

// wordNetSelfLoops refuses a synset that lists itself as a hypernym, naming
// it (its NLTK name and data.noun line).
func wordNetSelfLoops(dataPath string, syns []wnSynset, byOffset map[int]int) error {
	for i, s := range syns {
		for _, p := range s.parents {
			if byOffset[p] == i {
				return lineErrf(dataPath, s.line, "synset %08d (%s) lists itself as its own hypernym", s.offset, s.name)
			}
		}
	}
	return nil
}

// wordNetCycle returns the names of a hypernym cycle among the synsets
// that Kahn's order left waiting (in the closure, not done), found by
// following not-done parents from start until one repeats, and the
// data.noun line of its first synset.
func wordNetCycle(syns []wnSynset, byOffset map[int]int, in, done []bool, start int) ([]string, int) {
	step := make(map[int]int)
	var path []int
	u := start
	for {
		if k, seen := step[u]; seen {
			path = path[k:]
			break
		}
		step[u] = len(path)
		path = append(path, u)
		next := -1
		for _, p := range syns[u].parents {
			if j := byOffset[p]; in[j] && !done[j] {
				next = j
				break
			}
		}
		if next < 0 { // cannot happen for a waiting synset
			break
		}
		u = next
	}
	names := make([]string, 0, len(path)+1)
	for _, v := range path {
		names = append(names, syns[v].name)
	}
	names = append(names, syns[path[0]].name)
	if len(names) > 8 {
		names = append(names[:7], "...", names[len(names)-1])
	}
	return names, syns[path[0]].line
}

// wordNetClosure builds the dataset of the closure under synset ri. The
// closure's pairs are counted as they are built and refused above
// maxWordNetPairs or the memory limit (CheckMemory) before they are
// allocated; a cycle, also one through the root, is an error naming its
// synsets. Edges, the transitive reduction of the hypernym links inside
// the closure, are always filled (a sampled fit needs them at any size),
// Dist up to MaxItems items.
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
	rootName := syns[ri].name
	for _, p := range syns[ri].parents {
		if j := byOffset[p]; in[j] {
			// j is below the root and above it: a cycle through the root.
			return nil, lineErrf(dataPath, syns[ri].line, "the hypernym links contain a cycle through the root %s: its hypernym %s (line %d) is also one of its hyponyms",
				rootName, syns[j].name, syns[j].line)
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
		return nil, errf(name, "synset %s has no hyponyms: its closure has a single item", rootName)
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
	// First the order alone, with an upper bound of every ancestor set
	// (exact on a tree), so that a closure that is certainly too large is
	// refused before any set is built.
	done := make([]bool, n)
	bound := make([]int, n)
	exact := true
	order := []int{ri}
	ub := 0
	for k := 0; k < len(order); k++ {
		u := order[k]
		done[u] = true
		if u != ri {
			parents := 0
			for _, p := range syns[u].parents {
				if j := byOffset[p]; in[j] {
					bound[u] += bound[j] + 1
					parents++
				}
			}
			bound[u] = min(bound[u], m-1)
			exact = exact && parents == 1
			ub += bound[u]
		}
		for _, c := range child[nchild[u]:nchild[u+1]] {
			if waiting[c]--; waiting[c] == 0 {
				order = append(order, int(c))
			}
		}
	}
	if len(order) < m {
		for i := range syns {
			if in[i] && !done[i] {
				names, line := wordNetCycle(syns, byOffset, in, done, i)
				return nil, lineErrf(dataPath, line, "the hypernym links contain a cycle: %s", strings.Join(names, " -> "))
			}
		}
	}
	tooMany := func(count int) error {
		return errf(name, "the hypernym closure under %s has %d or more (child, ancestor) pairs, more than the %d Burescope builds (WordNet 3.0's whole noun closure has 743,241): refused before it is built",
			rootName, count, maxWordNetPairs)
	}
	if exact && ub > maxWordNetPairs {
		return nil, tooMany(ub)
	}
	if need := wordNetPairBytes * float64(ub); exact && need > float64(MemoryLimit()) {
		return nil, CheckMemory(fmt.Sprintf("%s: the hypernym closure under %s (%d pairs)", name, rootName, ub), need)
	}
	// Then the sets, counted as they are built (the bound may be far above
	// the size when synsets have several hypernyms).
	anc := make([][]int32, n)
	total := 0
	for _, u := range order[1:] {
		var a []int32
		for _, p := range syns[u].parents {
			if j := byOffset[p]; in[j] {
				a = append(a, int32(id[j]))
				a = append(a, anc[j]...)
			}
		}
		slices.Sort(a)
		a = slices.Compact(a)
		anc[u] = a[:len(a):len(a)]
		total += len(a)
		if total > maxWordNetPairs {
			return nil, tooMany(total)
		}
		if need := wordNetPairBytes * float64(total); need > float64(MemoryLimit()) {
			return nil, CheckMemory(fmt.Sprintf("%s: the hypernym closure under %s (%d pairs so far)", name, rootName, total), need)
		}
	}
	pairs := make([][2]int, 0, total)
	for i := range syns {
		for _, a := range anc[i] {
			pairs = append(pairs, [2]int{id[i], int(a)})
		}
		anc[i] = nil
	}
	// The direct links inside the closure; their transitive reduction is
	// that of the closure.
	var links [][2]int
	var lines []int
	first := make([]int, m)
	for i, s := range syns {
		if !in[i] {
			continue
		}
		first[id[i]] = s.line
		if i == ri {
			continue
		}
		for _, p := range s.parents {
			if j := byOffset[p]; in[j] {
				links = append(links, [2]int{id[i], id[j]})
				lines = append(lines, s.line)
			}
		}
	}
	edges, err := hasse(dataPath, m, links, lines, labels, m > MaxItems)
	if err != nil {
		return nil, err
	}
	ds := &Dataset{Name: name, Kind: KindRelations, Labels: labels, Relations: pairs, Edges: edges,
		Source: "WordNet 3.0 noun hypernym closure under " + rootName + " (" + strings.TrimPrefix(name, WordNetPrefix) + ")"}
	if m <= MaxItems {
		dist, err := pathDistances(dataPath, m, edges, labels, first)
		if err != nil {
			return nil, err
		}
		ds.Dist = dist
	}
	return ds, nil
}
