package plan

// A Node is one physical operator of a plan tree. Every operator type embeds OpInfo, which
// carries what all operators share; the rest of a node's meaning is read with a type switch.
type Node interface {
	// Info returns the fields every operator shares.
	Info() *OpInfo
	// Children returns the data children, the inputs whose rows flow into the operator.
	// Subquery and cached plans hanging off an expression are in Info().Inner instead.
	Children() []Node
	// Span returns where the operator was printed.
	Span() Span
}

// OpInfo holds what every operator shares.
type OpInfo struct {
	// Name is the operator name without arguments: "SortMergeJoin", "Exchange", "FileScan",
	// "Scan hive", "ShuffleQueryStage". Names Spark prints differently across modes are
	// canonical here (a v1 file scan is "FileScan" in every mode); Text keeps what was printed.
	Name string
	// Text is the operator line as printed, after the tree marker and codegen prefix.
	Text string
	// Args is the argument text after the name, as printed.
	Args string
	// ID is the operator id of formatted mode's "(N)", 0 when none was printed.
	ID int
	// CodegenStage is the whole-stage codegen id of a "*(N) " prefix or formatted detail's
	// "[codegen id : N]"; -1 for a bare "*" (no id printed); 0 when not in a codegen stage.
	CodegenStage int
	// Stats is a formatted outline's ", Statistics(…)" suffix, without the comma.
	Stats string
	// Details are formatted mode's detail-block fields, in printed order.
	Details []Field
	// Pos is where the operator's name starts; End is the end of its line.
	Pos Pos
	End Pos
	// Kids are the data children.
	Kids []Node
	// Inner are plans printed two levels deeper than the operator: subqueries, the cached
	// plan under InMemoryRelation, a command's logical plan. They are not data children.
	Inner []Node
}

// Info returns i itself, so that every operator embedding OpInfo is a Node.
func (i *OpInfo) Info() *OpInfo { return i }

// Children returns the data children.
func (i *OpInfo) Children() []Node { return i.Kids }

// Span returns the operator's position.
func (i *OpInfo) Span() Span { return Span{Start: i.Pos, End: i.End} }

// Detail returns the value of the detail field named key and whether it was printed.
func (i *OpInfo) Detail(key string) (Field, bool) {
	for _, f := range i.Details {
		if f.Key == key {
			return f, true
		}
	}
	return Field{}, false
}

// A Field is one line of a formatted-mode detail block: "Left keys [1]: [k#1]" has Key "Left
// keys", Count 1 and Value "[k#1]"; "Condition : (a#1 > 0)" has Key "Condition".
type Field struct {
	Key string
	// Count is the element count printed in brackets, -1 when none was printed.
	Count int
	Value string
	Pos   Pos
}

// Walk calls fn for n and every data child below it, depth first, parents before children.
// When fn returns false the node's children are skipped. Inner plans are not visited; use
// WalkAll for those.
func Walk(n Node, fn func(Node) bool) {
	if n == nil || !fn(n) {
		return
	}
	for _, c := range n.Children() {
		Walk(c, fn)
	}
}

// WalkAll is Walk that also visits inner plans (subqueries, cached plans), after a node's data
// children.
func WalkAll(n Node, fn func(Node) bool) {
	if n == nil || !fn(n) {
		return
	}
	for _, c := range n.Children() {
		WalkAll(c, fn)
	}
	for _, c := range n.Info().Inner {
		WalkAll(c, fn)
	}
}
