package explain

import (
	"strings"

	"github.com/bucketlint/bucketlint/plan"
)

// A pending is a formatted-mode tree read but not yet built: its operators need the detail
// blocks printed after it.
type pending struct {
	name string
	raw  *rawNode
	pos  plan.Pos
}

// physical reads the "== Physical Plan ==" section whose header is line h, in simple or
// formatted mode, and returns the line after it.
func (p *parser) physical(e *plan.Explain, h int) int {
	i := p.skipBlank(h + 1)
	if i >= len(p.lines) || p.isHeader(i) {
		p.errorf(h, indent(p.lines[h].s), "physical plan header without a plan under it")
		return h + 1
	}
	raw, next := p.readTree(i)
	if !allIDs(raw) {
		addPlan(e, "Physical Plan", p.simpleNode(raw))
		return next
	}
	e.Mode = "formatted"
	details := map[int]*detail{}
	ids := map[int]bool{}
	collectIDs(raw, ids)
	secs := []pending{{name: "Physical Plan", raw: raw}}
	j := next
	for {
		k := p.skipBlank(j)
		if k >= len(p.lines) {
			break
		}
		s := p.lines[k].s
		t := strings.TrimSpace(s)
		if id, d, ok := detailHead(s); ok {
			d.line = k
			switch {
			case !ids[id]:
				p.errorf(k, 0, "detail block for operator (%d), which is not in the plan outline", id)
			case details[id] != nil:
				p.errorf(k, 0, "second detail block for operator (%d)", id)
			default:
				details[id] = d
			}
			j = p.readDetail(id, d, k)
			continue
		}
		if t == "===== Subqueries =====" || t == "===== Adaptively Optimized Out Exchanges =====" {
			j = k + 1
			continue
		}
		if !strings.HasPrefix(s, "Subquery:") && !strings.HasPrefix(s, "Subplan:") {
			break
		}
		name, _, _ := strings.Cut(s, " ")
		j = k + 1
		if j < len(p.lines) && p.startsOutline(j) {
			sub, after := p.readTree(j)
			collectIDs(sub, ids)
			secs = append(secs, pending{name: name, raw: sub, pos: p.pos(k, 0)})
			j = after
		}
	}
	for _, s := range secs {
		root := p.formattedNode(s.raw, details)
		if s.name == "Physical Plan" {
			addPlan(e, s.name, root)
		} else {
			e.Plans = append(e.Plans, plan.Section{Name: s.name, Root: root, Pos: s.pos})
		}
	}
	return j
}

// startsOutline reports whether line i can be the root line of a subquery's outline.
func (p *parser) startsOutline(i int) bool {
	s := p.lines[i].s
	if p.blank(i) || strings.HasPrefix(s, "Subquery:") || strings.HasPrefix(s, "Subplan:") {
		return false
	}
	_, _, ok := detailHead(s)
	return !ok
}

// addPlan adds the physical plan: an AdaptiveSparkPlan root is recorded in e.Adaptive and
// its printed sub-plans become the sections "Final Plan", "Current Plan", "Initial Plan".
func addPlan(e *plan.Explain, name string, root plan.Node) {
	a, ok := root.(*plan.AdaptiveSparkPlan)
	if !ok {
		e.Plans = append(e.Plans, plan.Section{Name: name, Root: root, Pos: root.Info().Pos})
		return
	}
	e.Adaptive = &plan.Adaptive{IsFinalPlan: a.IsFinalPlan, Pos: a.Pos}
	if len(a.Plans) == 0 {
		e.Plans = append(e.Plans, plan.Section{Name: name, Root: root, Pos: a.Pos})
		return
	}
	for _, s := range a.Plans {
		e.Plans = append(e.Plans, plan.Section{Name: s.Role, Root: s.Root, Pos: s.Pos})
	}
}

// allIDs reports whether every operator line of the tree ends in a formatted outline id.
func allIDs(r *rawNode) bool {
	_, n := codegenPrefix(r.text)
	if _, _, _, ok := outlineID(r.text[n:]); !ok {
		return false
	}
	for _, k := range r.kids {
		if !allIDs(k) {
			return false
		}
	}
	for _, k := range r.inner {
		if !allIDs(k) {
			return false
		}
	}
	for _, s := range r.subs {
		if s.root != nil && !allIDs(s.root) {
			return false
		}
	}
	return true
}

// collectIDs records the outline ids of the tree.
func collectIDs(r *rawNode, ids map[int]bool) {
	_, n := codegenPrefix(r.text)
	if _, id, _, ok := outlineID(r.text[n:]); ok && id > 0 {
		ids[id] = true
	}
	for _, k := range r.kids {
		collectIDs(k, ids)
	}
	for _, k := range r.inner {
		collectIDs(k, ids)
	}
	for _, s := range r.subs {
		if s.root != nil {
			collectIDs(s.root, ids)
		}
	}
}

// formattedNode builds a formatted outline operator from its line and its detail block.
func (p *parser) formattedNode(r *rawNode, details map[int]*detail) plan.Node {
	stage, n := codegenPrefix(r.text)
	text := r.text[n:]
	title, id, stats, _ := outlineID(text)
	d := details[id]
	if d != nil && d.codegen > 0 {
		stage = d.codegen
	}
	name, rest, skew := formattedName(title)
	if isFileScan(name, d) {
		name = "FileScan"
	}
	op := newOp(name)
	in := op.Info()
	in.Name = name
	in.Text = text
	in.ID = id
	in.CodegenStage = stage
	in.Stats = stats
	in.Pos = p.pos(r.line, r.col+n)
	in.End = p.endPos(r.line)
	if d != nil {
		in.Details = d.fields
		in.Args = d.value("Arguments")
	}
	p.fillFormatted(op, title, rest, skew, d)
	p.attach(op, r, func(k *rawNode) plan.Node { return p.formattedNode(k, details) })
	return op
}
