package simulate

import (
	"fmt"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/bucketlint/bucketlint/parser/explain"
	"github.com/bucketlint/bucketlint/parser/sql"
	"github.com/bucketlint/bucketlint/plan"
)

// exprsWithoutTrees lists the expressions of a predicted plan that carry no tree, or a tree
// whose text is not the expression's: every expression the simulator puts in a plan is built
// as a tree (the engine compiles from trees alone, never from text).
func exprsWithoutTrees(root plan.Node) []string {
	var bad []string
	exprT := reflect.TypeFor[plan.Expr]()
	var visit func(path string, v reflect.Value)
	visit = func(path string, v reflect.Value) {
		switch v.Kind() {
		case reflect.Pointer:
			if !v.IsNil() && v.Type().Elem() == exprT || v.Type().Elem().Kind() == reflect.Struct && !v.IsNil() && !v.Type().Implements(reflect.TypeFor[plan.Node]()) {
				visit(path, v.Elem())
			}
		case reflect.Slice:
			for i := range v.Len() {
				visit(fmt.Sprintf("%s[%d]", path, i), v.Index(i))
			}
		case reflect.Struct:
			if v.Type() == exprT {
				e := v.Interface().(plan.Expr)
				switch {
				case e.Tree() == nil:
					bad = append(bad, fmt.Sprintf("%s %q: no tree", path, e.Raw))
				case e.Tree().Raw != e.Raw:
					bad = append(bad, fmt.Sprintf("%s %q: tree of %q", path, e.Raw, e.Tree().Raw))
				case strings.Contains(path, "Window.Exprs"):
					// The simulator prints window expressions itself: their trees are
					// what parser/explain reads from that text.
					if d := treeDiff(e.Tree(), explain.ParseExpr(e.Raw).Tree()); d != "" {
						bad = append(bad, fmt.Sprintf("%s %q: %s", path, e.Raw, d))
					}
				}
				return
			}
			if v.Type() == reflect.TypeFor[plan.OpInfo]() {
				return
			}
			for i := range v.NumField() {
				if v.Type().Field(i).IsExported() {
					visit(path+"."+v.Type().Field(i).Name, v.Field(i))
				}
			}
		}
	}
	plan.WalkAll(root, func(n plan.Node) bool {
		visit(n.Info().Name, reflect.ValueOf(n).Elem())
		return true
	})
	return bad
}

// TestRecordedQueriesCarryTrees simulates every query recorded from real Spark (fixtures/spark)
// and checks that every expression of every predicted plan carries its tree.
func TestRecordedQueriesCarryTrees(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("..", "fixtures", "spark", "*", "*", "*", "scenario.json"))
	if len(files) == 0 {
		t.Skip("no real-Spark fixtures under fixtures/spark/")
	}
	p, err := sql.New()
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		sc := loadScenario(t, f)
		series := filepath.Base(filepath.Dir(filepath.Dir(filepath.Dir(f))))
		for _, q := range sc.Queries {
			for _, label := range []string{"aqe-off", "aqe-on"} {
				if _, ok := q.Runs[label]; !ok {
					continue
				}
				r, err := simulateFixtureResult(p, series, sc, q.SQL, filepath.Dir(f), q.Name, label)
				if err != nil {
					continue // TestSparkAgreement reports it
				}
				for _, b := range exprsWithoutTrees(r.Plan) {
					t.Errorf("%s %s (%s): %s", f, q.Name, label, b)
				}
			}
		}
	}
}

// treeDiff says where two trees differ in what the engine reads (kinds, names, ids, values,
// types, flags, texts, shapes), "" when they do not.
func treeDiff(a, b *plan.X) string {
	if a == nil || b == nil {
		if a != b {
			return fmt.Sprintf("%v vs %v", a, b)
		}
		return ""
	}
	if a.Op == plan.OpColumn && a.ID == "" && a.Raw == b.Raw {
		// A column bound to no attribute prints as its bare name, which printed text
		// cannot tell from a word literal.
		return ""
	}
	type node struct {
		Op                                     plan.Op
		Name, ID, Value, Type, Raw             string
		Long, Distinct, Star, Negated, Operand bool
		Else                                   bool
		Args                                   int
	}
	na := node{a.Op, a.Name, a.ID, a.Value, a.Type, a.Raw, a.Long, a.Distinct, a.Star, a.Negated, a.Operand, a.Else, len(a.Args)}
	nb := node{b.Op, b.Name, b.ID, b.Value, b.Type, b.Raw, b.Long, b.Distinct, b.Star, b.Negated, b.Operand, b.Else, len(b.Args)}
	if na != nb {
		return fmt.Sprintf("%+v vs %+v", na, nb)
	}
	for i := range a.Args {
		if d := treeDiff(a.Args[i], b.Args[i]); d != "" {
			return d
		}
	}
	return ""
}
