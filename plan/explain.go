package plan

// An Explain is one explain output: what one df.explain(…) or EXPLAIN printed.
type Explain struct {
	// File is the input's name ("-" for standard input).
	File string
	// Mode is "simple", "extended", "formatted", "cost" or "codegen".
	Mode string
	// Pos is where the output starts in the file (its first header or tree line).
	Pos Pos
	// Adaptive is set when the physical plan's root is an AdaptiveSparkPlan.
	Adaptive *Adaptive
	// Plans are the physical plans printed: the physical plan itself, or for an adaptive plan
	// the final, current and initial plans; then formatted mode's subqueries ("Subquery:N")
	// and adaptively optimised-out exchanges ("Subplan:N").
	Plans []Section
	// Logical are the logical plan sections of extended and cost mode, as raw text.
	Logical []TextSection
	// Extra are sections printed after the physical plan that hold no plan, kept as text:
	// Spark 4.0+'s "== Extended Information (…) ==" plugin blocks, Databricks' "== Photon
	// Explanation ==".
	Extra []TextSection
}

// Adaptive records the AdaptiveSparkPlan at the root of a physical plan.
type Adaptive struct {
	IsFinalPlan bool
	Pos         Pos
}

// A Section is one physical plan tree of an explain output.
type Section struct {
	// Name is "Physical Plan", "Final Plan", "Current Plan", "Initial Plan", "Subquery:N",
	// "Subplan:N", or "Subtree i / n" in codegen mode.
	Name string
	Root Node
	Pos  Pos
}

// A TextSection is a section kept as text: "Optimized Logical Plan" and the like.
type TextSection struct {
	Name string
	Text string
	Pos  Pos
}

// Physical returns the plan a lint should read: the final plan when printed, else the current
// plan, else the physical plan, else the first section; nil when there is none.
func (e *Explain) Physical() Node {
	for _, name := range []string{"Final Plan", "Current Plan", "Physical Plan"} {
		for _, s := range e.Plans {
			if s.Name == name {
				return s.Root
			}
		}
	}
	if len(e.Plans) > 0 {
		return e.Plans[0].Root
	}
	return nil
}
