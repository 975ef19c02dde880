package simulate

import (
	"bytes"
	"flag"
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/bucketlint/bucketlint/engine/hash"

	"github.com/bucketlint/bucketlint/internal/golden"
	"github.com/bucketlint/bucketlint/parser/sql"
	"github.com/bucketlint/bucketlint/plan"
)

var update = flag.Bool("update", false, "rewrite golden sections")

// An expectLine is one line of a case's "expect" section: the versions it holds for, conf
// overrides, and the assertions. Versions are written as VersionRange reads them ("3.3+",
// "3.0-3.2", "3.0.1") and expanded over the versions the behaviour table distinguishes.
type expectLine struct {
	versions  []string
	overrides map[string]string
	asserts   [][2]string
	text      string
}

func parseExpect(t *testing.T, src []byte) []expectLine {
	t.Helper()
	var out []expectLine
	for _, ln := range strings.Split(string(src), "\n") {
		ln = strings.TrimSpace(ln)
		if ln == "" || strings.HasPrefix(ln, "#") {
			continue
		}
		head, tail, ok := strings.Cut(ln, ":")
		if !ok {
			t.Fatalf("expect line without ':': %q", ln)
		}
		e := expectLine{overrides: map[string]string{}, text: ln}
		for _, f := range strings.Fields(head) {
			if strings.HasPrefix(f, "+") {
				k, v, _ := strings.Cut(f[1:], "=")
				e.overrides[k] = v
				continue
			}
			vs, err := VersionRange(f)
			if err != nil {
				t.Fatalf("expect line %q: %v", ln, err)
			}
			for _, v := range vs {
				e.versions = append(e.versions, v.String())
			}
		}
		for _, f := range strings.Fields(tail) {
			op := "="
			if strings.Contains(f, ">=") {
				op = ">="
			}
			k, v, _ := strings.Cut(f, op)
			e.asserts = append(e.asserts, [2]string{k + strings.TrimSuffix(op, "="), v})
		}
		out = append(out, e)
	}
	return out
}

func parseConfs(src []byte) map[string]string {
	out := map[string]string{}
	for _, ln := range strings.Split(string(src), "\n") {
		ln = strings.TrimSpace(ln)
		if ln == "" || strings.HasPrefix(ln, "#") {
			continue
		}
		k, v, _ := strings.Cut(ln, "=")
		out[strings.TrimSpace(k)] = strings.TrimSpace(v)
	}
	return out
}

// options turns confs into Options; "bucketlint.singleFileBuckets" lists tables whose
// buckets hold one file each and "bucketlint.size.T" sets a table's size.
func options(t *testing.T, version string, confs map[string]string, tables map[string]*plan.Table) Options {
	t.Helper()
	v, err := ParseVersion(version)
	if err != nil {
		t.Fatal(err)
	}
	o := Options{SparkVersion: v, Confs: map[string]string{}, SingleFileBuckets: map[string]bool{}, BucketOf: hash.BucketOfLiteral}
	for k, val := range confs {
		switch {
		case k == "bucketlint.singleFileBuckets":
			for _, tb := range strings.Split(val, ",") {
				o.SingleFileBuckets[strings.TrimSpace(tb)] = true
			}
		case strings.HasPrefix(k, "bucketlint.size."):
			n, err := ParseBytes(val)
			if err != nil {
				t.Fatal(err)
			}
			if tb := tables[strings.TrimPrefix(k, "bucketlint.size.")]; tb != nil {
				tb.SizeInBytes = n
			}
		default:
			o.Confs[k] = val
		}
	}
	return o
}

func TestCatalogue(t *testing.T) {
	p, err := sql.New()
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range golden.Load(t, "testdata/catalogue/*.txtar", *update) {
		t.Run(c.Name(), func(t *testing.T) {
			expect, _ := c.File("expect")
			confSrc, _ := c.File("confs")
			var out bytes.Buffer
			for _, e := range parseExpect(t, expect) {
				fmt.Fprintf(&out, "== %s ==\n", e.text)
				for vi, version := range e.versions {
					confs := parseConfs(confSrc)
					for k, v := range e.overrides {
						confs[k] = v
					}
					results := runCase(t, c, p, version, confs)
					for _, r := range results {
						for _, a := range e.asserts {
							if got := assertValue(r, a[0]); got != a[1] && (!strings.HasSuffix(a[0], ">") || !atLeast(got, a[1])) {
								t.Errorf("%s on Spark %s: %s = %s, want %s\n%s", e.text, version, a[0], got, a[1], dump(r))
							}
						}
						if vi == 0 {
							out.WriteString(dump(r))
						}
					}
				}
			}
			c.Check(t, "plan", out.Bytes())
			c.Save(t)
		})
	}
}

func atLeast(got, want string) bool {
	g, err1 := strconv.Atoi(got)
	w, err2 := strconv.Atoi(want)
	return err1 == nil && err2 == nil && g >= w
}

// runCase simulates every query of a case (or its synthetic plan) under one version.
func runCase(t *testing.T, c *golden.Case, p *sql.Parser, version string, confs map[string]string) []*Result {
	t.Helper()
	if syn, ok := c.File("synthetic"); ok {
		o := options(t, version, confs, nil)
		return []*Result{runSynthetic(t, string(syn), o)}
	}
	ddl, _ := c.File("ddl.sql")
	qsrc, _ := c.File("query.sql")
	df, errs := p.ParseFile("ddl.sql", ddl)
	if len(errs) > 0 {
		t.Fatalf("ddl: %v", errs)
	}
	tables := map[string]*plan.Table{}
	for _, tb := range df.Tables {
		tables[tb.Name] = tb
	}
	qf, errs := p.ParseFile("query.sql", qsrc)
	if len(errs) > 0 || len(qf.Queries) == 0 {
		t.Fatalf("query: %v (%d queries)", errs, len(qf.Queries))
	}
	o := options(t, version, confs, tables)
	var out []*Result
	for _, q := range qf.Queries {
		r, err := Simulate(tables, q, o)
		if err != nil {
			t.Fatal(err)
		}
		for _, b := range exprsWithoutTrees(r.Plan) {
			t.Errorf("%s: %s", q.Text, b)
		}
		out = append(out, r)
	}
	return out
}

func dump(r *Result) string {
	var b bytes.Buffer
	fmt.Fprintf(&b, "spark %s era %s exchanges=%d sorts=%d\n", r.Version, r.Era, r.Exchanges, r.Sorts)
	_ = plan.Fprint(&b, &plan.Explain{Mode: "simple", Plans: []plan.Section{{Name: "Physical Plan", Root: r.Plan}}})
	for _, d := range r.Decisions {
		fmt.Fprintf(&b, "decision %s %s %s (%s): %s\n", d.Node.Info().Name, d.Side, d.Inserted, d.Cause, d.Reason)
	}
	for _, u := range r.Unmodelled {
		fmt.Fprintf(&b, "unmodelled: %s\n", u)
	}
	return b.String()
}

// joins returns the join operators in pre-order (the topmost first).
func joins(root plan.Node) []plan.Node {
	var out []plan.Node
	plan.Walk(root, func(n plan.Node) bool {
		if _, ok := plan.JoinOf(n); ok {
			out = append(out, n)
		}
		return true
	})
	return out
}

// sideSpec lists the Sort (S), Exchange (E<n>) and BroadcastExchange (B) operators directly
// above a child, top-down: "S,E8", or "none".
func sideSpec(n plan.Node) string {
	var parts []string
	for n != nil {
		switch x := n.(type) {
		case *plan.Sort:
			parts = append(parts, "S")
		case *plan.Exchange:
			parts = append(parts, "E"+strconv.Itoa(x.Partitioning.NumPartitions))
		case *plan.BroadcastExchange:
			parts = append(parts, "B")
		default:
			n = nil
			continue
		}
		kids := n.Children()
		if len(kids) != 1 {
			break
		}
		n = kids[0]
	}
	if len(parts) == 0 {
		return "none"
	}
	return strings.Join(parts, ",")
}

func firstExchange(n plan.Node) *plan.Exchange {
	for n != nil {
		if x, ok := n.(*plan.Exchange); ok {
			return x
		}
		kids := n.Children()
		if len(kids) != 1 {
			return nil
		}
		if _, ok := n.(*plan.Sort); !ok {
			return nil
		}
		n = kids[0]
	}
	return nil
}

// scanBuckets lists the scans of r's plan, sorted, as "table:N" with the count
// they are coalesced to (key "coalesced") or "table:selected/total" (key "selected"); "none"
// when there are none.
func scanBuckets(r *Result, key string) string {
	var out []string
	plan.Walk(r.Plan, func(x plan.Node) bool {
		if fs, ok := x.(*plan.FileScan); ok {
			if key == "coalesced" && fs.CoalescedTo > 0 {
				out = append(out, fmt.Sprintf("%s:%d", fs.Table, fs.CoalescedTo))
			}
			if key == "selected" && fs.TotalBuckets > 0 {
				out = append(out, fmt.Sprintf("%s:%d/%d", fs.Table, fs.SelectedBuckets, fs.TotalBuckets))
			}
		}
		return true
	})
	sort.Strings(out)
	if len(out) == 0 {
		return "none"
	}
	return strings.Join(out, ",")
}

// childSpecOf is sideSpec of the input of the first final aggregate (key "agg") or window
// (key "window") of r's plan, "missing" without one.
func childSpecOf(r *Result, key string) string {
	spec := "missing"
	plan.Walk(r.Plan, func(x plan.Node) bool {
		if spec != "missing" {
			return false
		}
		if a, ok := plan.AggregateOf(x); ok && key == "agg" && a.Mode == plan.FinalAggregate {
			spec = sideSpec(x.Children()[0])
		}
		if w, ok := x.(*plan.Window); ok && key == "window" {
			spec = sideSpec(w.Children()[0])
		}
		return true
	})
	return spec
}

func assertValue(r *Result, key string) string {
	key = strings.TrimSuffix(key, ">")
	switch key {
	case "exchanges":
		return strconv.Itoa(r.Exchanges)
	case "sorts":
		return strconv.Itoa(r.Sorts)
	case "scans":
		n := 0
		plan.Walk(r.Plan, func(x plan.Node) bool {
			if fs, ok := x.(*plan.FileScan); ok && scanBucketed(fs, r) {
				n++
			}
			return true
		})
		return strconv.Itoa(n)
	case "coalesced", "selected":
		return scanBuckets(r, key)
	case "agg", "window":
		return childSpecOf(r, key)
	}
	// jK, jK.left, jK.right, jK.keys, jK.left.part, jK.right.part
	parts := strings.Split(key, ".")
	k, err := strconv.Atoi(strings.TrimPrefix(parts[0], "j"))
	js := joins(r.Plan)
	if err != nil || k < 1 || k > len(js) {
		return "no-such-join"
	}
	jn := js[k-1]
	j, _ := plan.JoinOf(jn)
	if len(parts) == 1 {
		return strategyAbbrev(j.Strategy)
	}
	switch parts[1] {
	case "keys":
		return strings.Join(plan.Texts(j.LeftKeys), ",") + "|" + strings.Join(plan.Texts(j.RightKeys), ",")
	case "left", "right":
		child := jn.Children()[0]
		if parts[1] == "right" {
			child = jn.Children()[1]
		}
		if len(parts) == 3 {
			x := firstExchange(child)
			if x == nil {
				return "none"
			}
			return strings.ReplaceAll(toPart(x.Partitioning).String(), " ", "")
		}
		return sideSpec(child)
	}
	return "unknown-assertion"
}

func strategyAbbrev(s plan.JoinStrategy) string {
	switch s {
	case plan.SortMergeJoinStrategy:
		return "SMJ"
	case plan.ShuffledHashJoinStrategy:
		return "SHJ"
	case plan.BroadcastHashJoinStrategy:
		return "BHJ"
	case plan.BroadcastNestedLoopJoinStrategy:
		return "BNLJ"
	}
	return "CP"
}

// scanBucketed reports whether the simulation reads fs by bucket.
func scanBucketed(fs *plan.FileScan, r *Result) bool {
	return slices.Contains(r.BucketedScans, fs)
}
