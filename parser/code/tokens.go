package code

// A file's tokens are stored compactly: 12 bytes a token (offsets, and its kind with the
// index of its text or string literal), in fixed-size chunks that are never copied to grow,
// with each distinct text stored once. A token value (token) is built when the parser reads
// one. A 15 MB line of "a+a+…" is 7.9 million tokens: 94 MB stored this way, where a slice
// of token values (48 bytes each, regrown by copying) took 2.5 GB.

const (
	chunkBits = 12
	chunkLen  = 1 << chunkBits
)

// ctok is a stored token: the top kindShift bits of aux are its kind, the rest index
// tokStore.texts (identifiers, numbers, operators) or tokStore.lits (strings).
type ctok struct {
	off, end uint32
	aux      uint32
}

// kindShift places a token's kind in the top three bits of ctok.aux.
const kindShift = 29

// tokStore holds one file's tokens.
type tokStore struct {
	chunks [][]ctok
	n      int
	texts  []string
	lits   []*strLit
	// ids interns texts: a file repeats few names many times.
	ids map[string]uint32
	// op1 holds 1 + the index in texts of each one-byte ASCII operator seen, 0 for the others:
	// operators are most tokens of some files, and this spares each a lookup in ids.
	op1 [128]uint32
}

func newTokStore() *tokStore { return &tokStore{ids: map[string]uint32{}} }

// id returns the index of text b in texts, adding a copy of it the first time.
func (s *tokStore) id(b []byte) uint32 {
	if id, ok := s.ids[string(b)]; ok {
		return id
	}
	return s.idOf(string(b))
}

// opID is id for an operator's text.
func (s *tokStore) opID(b []byte) uint32 {
	if len(b) != 1 || b[0] >= 128 {
		return s.id(b)
	}
	if id := s.op1[b[0]]; id > 0 {
		return id - 1
	}
	id := s.id(b)
	s.op1[b[0]] = id + 1
	return id
}

// idOf is id for a string.
func (s *tokStore) idOf(text string) uint32 {
	if id, ok := s.ids[text]; ok {
		return id
	}
	id := uint32(len(s.texts))
	s.texts = append(s.texts, text)
	s.ids[text] = id
	return id
}

// add appends a token whose text is texts[aux] (or none, for tNewline).
func (s *tokStore) add(k tokKind, off, end int, aux uint32) {
	if s.n%chunkLen == 0 {
		s.chunks = append(s.chunks, make([]ctok, 0, chunkLen))
	}
	c := &s.chunks[len(s.chunks)-1]
	*c = append(*c, ctok{off: uint32(off), end: uint32(end), aux: uint32(k)<<kindShift | aux})
	s.n++
}

// addLit appends a string token.
func (s *tokStore) addLit(off, end int, lit *strLit) {
	s.lits = append(s.lits, lit)
	s.add(tString, off, end, uint32(len(s.lits)-1))
}

// last returns the kind of the last token added, tEOF when there is none.
func (s *tokStore) last() tokKind {
	if s.n == 0 {
		return tEOF
	}
	return tokKind(s.chunks[(s.n-1)>>chunkBits][(s.n-1)&(chunkLen-1)].aux >> kindShift)
}

// get returns the token at index i of the store.
func (s *tokStore) get(i int) token {
	c := s.chunks[i>>chunkBits][i&(chunkLen-1)]
	k, aux := tokKind(c.aux>>kindShift), c.aux&(1<<kindShift-1)
	t := token{kind: k, off: int(c.off), end: int(c.end)}
	switch k {
	case tString:
		t.lit = s.lits[aux]
	case tIdent, tNumber, tOp:
		t.text = s.texts[aux]
	}
	return t
}

// tokens is the token sequence a parser reads: a range of a store followed by a tEOF token
// at eof (a file's tokens, or a function body's).
type tokens struct {
	s       *tokStore
	from, n int
	eof     int
}

// len is the number of tokens, the final tEOF included.
func (t tokens) len() int { return t.n + 1 }

// at returns token i; past the range it is the final tEOF.
func (t tokens) at(i int) token {
	if i >= 0 && i < t.n {
		return t.s.get(t.from + i)
	}
	return token{kind: tEOF, off: t.eof, end: t.eof}
}

// body returns tokens [a, b) followed by a tEOF token at the end of the last of them (the
// final tEOF, when the range reaches it, is that token).
func (t tokens) body(a, b int) tokens {
	if a >= b {
		return tokens{s: t.s, from: t.from + a, eof: t.at(a).off}
	}
	eof := t.at(b - 1).end
	b = min(b, t.n)
	return tokens{s: t.s, from: t.from + a, n: max(b-a, 0), eof: eof}
}
