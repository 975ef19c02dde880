package plan

// An Attr is one attribute reference as Spark prints it: name#12 or name#12L. Name is the
// column name without the expression id; ID is the id's digits (or "x" in Spark's normalised
// test output, or "" when none was printed); Long is the L suffix Spark adds for bigint
// attributes.
type Attr struct {
	Name string
	ID   string
	Long bool
}

// String prints the attribute as Spark would, with its id.
func (a Attr) String() string {
	if a.ID == "" {
		return a.Name
	}
	s := a.Name + "#" + a.ID
	if a.Long {
		s += "L"
	}
	return s
}

// An Expr is one expression as Spark printed it. Its Text, Refs and tree were either computed
// when it was made (NewExpr) or are read from Raw on first use (ReadLater: explain output,
// most of whose expressions nothing looks at). Either way they do not change afterwards, and
// an Expr may be read from any goroutine.
type Expr struct {
	// Raw is the text exactly as printed, ids included: "cast(customer_id#12 as bigint)".
	Raw string
	// m gives the rest; nil for an Expr with Raw only (no Text, Refs or tree).
	m ExprReader
}

// ExprParts are what an Expr holds besides its text.
type ExprParts struct {
	// Text is Raw with expression ids removed: "cast(customer_id as bigint)". Keys are
	// compared and shown by Text.
	Text string
	// Refs are the attribute references in Raw, in order of appearance.
	Refs []Attr
	// X is the expression as a tree, built by the parser that read it or by the simulator
	// that predicted it (from the query's trees, columns bound to the attributes it
	// assigned); nil only for an expression made without one (a hand-built plan).
	X *X
}

// An ExprReader gives an expression's parts from its raw text, the same parts every time it
// is asked, from any goroutine: a parser that reads expressions on first use.
type ExprReader interface {
	ReadExpr(raw string) ExprParts
}

// ReadExpr returns p itself: parts computed when their Expr was made.
func (p *ExprParts) ReadExpr(string) ExprParts { return *p }

// NewExpr returns the expression printed as raw with the given text, references and tree.
func NewExpr(raw, text string, refs []Attr, x *X) Expr {
	return Expr{Raw: raw, m: &ExprParts{Text: text, Refs: refs, X: x}}
}

// ReadLater returns the expression printed as raw whose parts r reads when first asked.
func ReadLater(raw string, r ExprReader) Expr { return Expr{Raw: raw, m: r} }

// Parts returns the expression's text without ids, references and tree.
func (e Expr) Parts() ExprParts {
	if e.m == nil {
		return ExprParts{}
	}
	return e.m.ReadExpr(e.Raw)
}

// Text is Raw with expression ids removed: "cast(customer_id as bigint)". Keys are compared
// and shown by Text.
func (e Expr) Text() string { return e.Parts().Text }

// Refs are the attribute references in Raw, in order of appearance.
func (e Expr) Refs() []Attr { return e.Parts().Refs }

// Tree is the expression as a tree (see ExprParts.X).
func (e Expr) Tree() *X { return e.Parts().X }

// WithX returns e with the tree x in place of its own, the other parts unchanged.
func (e Expr) WithX(x *X) Expr {
	p := e.Parts()
	return NewExpr(e.Raw, p.Text, p.Refs, x)
}

// WithRefs returns e with the references refs in place of its own.
func (e Expr) WithRefs(refs []Attr) Expr {
	p := e.Parts()
	return NewExpr(e.Raw, p.Text, refs, p.X)
}

// Column returns the referenced column name when the expression is a bare attribute
// reference (the usual join or bucket key), and false when it is anything else.
func (e Expr) Column() (string, bool) {
	p := e.Parts()
	if len(p.Refs) != 1 || p.Text != p.Refs[0].Name {
		return "", false
	}
	return p.Refs[0].Name, true
}

// IsCast reports whether the expression is a cast (cast or try_cast), as a join key cast
// from int to bigint is: its tree says so; an expression without a tree is none.
func (e Expr) IsCast() bool {
	x := e.Tree()
	return x != nil && x.Op == OpCast
}

// String returns Text.
func (e Expr) String() string { return e.Text() }

// Texts returns the Text of each expression.
func Texts(es []Expr) []string {
	out := make([]string, len(es))
	for i, e := range es {
		out[i] = e.Text()
	}
	return out
}

// A SortOrder is one key of a Sort or of range partitioning: "k#1 ASC NULLS FIRST".
type SortOrder struct {
	Expr       Expr
	Desc       bool
	NullsFirst bool
}

// String prints the order without expression ids: "k ASC NULLS FIRST".
func (o SortOrder) String() string {
	dir, nulls := "ASC", "NULLS LAST"
	if o.Desc {
		dir = "DESC"
	}
	if o.NullsFirst {
		nulls = "NULLS FIRST"
	}
	return o.Expr.Text() + " " + dir + " " + nulls
}

// OrderTexts returns each order as String prints it.
func OrderTexts(os []SortOrder) []string {
	out := make([]string, len(os))
	for i, o := range os {
		out[i] = o.String()
	}
	return out
}
