package explain

import (
	"path/filepath"
	"reflect"
	"sync"
	"testing"

	"golang.org/x/tools/txtar"

	"github.com/bucketlint/bucketlint/plan"
)

// allExprs appends every expression reachable from v (a parse result) to out.
func allExprs(v reflect.Value, out *[]plan.Expr) {
	if v.Type() == reflect.TypeFor[plan.Expr]() {
		*out = append(*out, v.Interface().(plan.Expr))
		return
	}
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		if !v.IsNil() {
			allExprs(v.Elem(), out)
		}
	case reflect.Struct:
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				allExprs(v.Field(i), out)
			}
		}
	case reflect.Slice:
		for i := range v.Len() {
			allExprs(v.Index(i), out)
		}
	default:
	}
}

// TestReadLater: the expressions of a Parse, read on first use from several goroutines at
// once, are what reading them at once gives, and an expression printed twice shares its tree.
func TestReadLater(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "*.txtar"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no golden cases: %v", err)
	}
	for _, path := range files {
		a, err := txtar.ParseFile(path)
		if err != nil {
			t.Fatal(err)
		}
		name, src := goldenInput(t, a)
		es, _ := Parse(name, src)
		var all []plan.Expr
		allExprs(reflect.ValueOf(es), &all)
		got := make([][]plan.ExprParts, 4)
		var wg sync.WaitGroup
		for g := range got {
			wg.Go(func() {
				for _, e := range all {
					got[g] = append(got[g], e.Parts())
				}
			})
		}
		wg.Wait()
		var eager arena
		trees := map[string]*plan.X{}
		for i, e := range all {
			want := eager.read(e.Raw)
			for g := range got {
				if !reflect.DeepEqual(got[g][i], want) {
					t.Errorf("%s: %q read later = %+v, want %+v", path, e.Raw, got[g][i], want)
				}
				if got[g][i].X != got[0][i].X {
					t.Errorf("%s: %q read twice gives two trees", path, e.Raw)
				}
			}
			if x, ok := trees[e.Raw]; ok && x != got[0][i].X {
				t.Errorf("%s: %q printed twice has two trees", path, e.Raw)
			}
			trees[e.Raw] = got[0][i].X
		}
		if len(all) == 0 && len(es) > 0 && path != filepath.Join("testdata", "malformed.txtar") {
			t.Logf("%s: no expressions", path)
		}
	}
}
