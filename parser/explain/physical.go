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
	ids := &p.ids
	ids.reset(len(p.lines))
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
		if id, dv, ok := detailHead(s); ok {
			dv.line = k
			d := p.newDetail(dv)
			switch e := ids.at(id, false); {
			case e == nil || !e.inOutline:
				p.errorf(k, 0, "detail block for operator (%d), which is not in the plan outline", id)
			case e.d != nil:
				p.errorf(k, 0, "second detail block for operator (%d)", id)
			default:
				e.d = d
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
		root := p.formattedNode(s.raw, ids)
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

// allIDs reports whether every operator line of the tree ends in a formatted outline id,
// keeping each line's outline fields in its raw node.
func allIDs(r *rawNode) bool {
	if !r.readOutline() {
		return false
	}
	for k := r.kids.first; k != nil; k = k.next {
		if !allIDs(k) {
			return false
		}
	}
	for k := r.inner.first; k != nil; k = k.next {
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
func collectIDs(r *rawNode, ids *opTable) {
	if r.readOutline() && r.id > 0 {
		ids.at(r.id, true).inOutline = true
	}
	for k := r.kids.first; k != nil; k = k.next {
		collectIDs(k, ids)
	}
	for k := r.inner.first; k != nil; k = k.next {
		collectIDs(k, ids)
	}
	for _, s := range r.subs {
		if s.root != nil {
			collectIDs(s.root, ids)
		}
	}
}

// formattedNode builds a formatted outline operator from its line and its detail block.
func (p *parser) formattedNode(r *rawNode, ids *opTable) plan.Node {
	r.readOutline()
	stage, n := r.stage, r.pre
	text := r.text[n:]
	title, id, stats := r.title, r.id, r.stats
	var d *detail
	if e := ids.at(id, false); e != nil {
		d = e.d
	}
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
	p.attach(op, r, func(k *rawNode) plan.Node { return p.formattedNode(k, ids) })
	return op
}

// readOutline reads the codegen prefix and the outline fields "Title (N)[, Statistics(…)]" of
// r's line into r, and reports whether the line carries an id.
func (r *rawNode) readOutline() bool {
	if !r.outlined {
		r.outlined = true
		r.stage, r.pre = codegenPrefix(r.text)
		r.title, r.id, r.stats, r.hasID = outlineID(r.text[r.pre:])
	}
	return r.hasID
}

// An opTable holds, for one formatted plan, whether its outline prints each operator id and
// the id's detail block. Spark numbers a plan's operators from 1, so ids are dense and
// small; one larger than the file's line count is kept in a map.
type opTable struct {
	dense  []opEntry
	sparse map[int]*opEntry
	limit  int
}

// An opEntry is what an opTable holds for one id.
type opEntry struct {
	inOutline bool
	d         *detail
}

// reset empties t for a plan of a file of n lines.
func (t *opTable) reset(n int) {
	clear(t.dense)
	t.dense = t.dense[:0]
	t.sparse = nil
	t.limit = n + 16
}

// at returns the entry of id; nil when there is none and add is false.
func (t *opTable) at(id int, add bool) *opEntry {
	if id >= 0 && id < t.limit {
		if id >= len(t.dense) {
			if !add {
				return nil
			}
			t.dense = append(t.dense, make([]opEntry, id+1-len(t.dense))...)
		}
		return &t.dense[id]
	}
	e := t.sparse[id]
	if e == nil && add {
		if t.sparse == nil {
			t.sparse = map[int]*opEntry{}
		}
		e = &opEntry{}
		t.sparse[id] = e
	}
	return e
}
