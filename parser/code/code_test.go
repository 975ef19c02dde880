package code

import (
	"bytes"
	"flag"
	"reflect"
	"testing"

	"github.com/bucketlint/bucketlint/internal/golden"
)

var update = flag.Bool("update", false, "rewrite golden sections")

// TestGolden reads every testdata archive: its one input section (any name but "want") is
// parsed under that name, and the printed facts, followed by any errors, must equal "want".
func TestGolden(t *testing.T) {
	for _, c := range golden.Load(t, "testdata/*.txtar", *update) {
		t.Run(c.Name(), func(t *testing.T) {
			var got bytes.Buffer
			for _, f := range c.Archive.Files {
				if f.Name == "want" {
					continue
				}
				file, errs := Parse(f.Name, f.Data)
				if err := Fprint(&got, file); err != nil {
					t.Fatal(err)
				}
				for _, e := range errs {
					got.WriteString("error " + e.Error() + "\n")
				}
				checkPositions(t, f.Name, f.Data)
				checkUnknown(t, f.Name)
			}
			c.Check(t, "want", got.Bytes())
			c.Save(t)
		})
	}
}

// checkUnknown fails the test when the shared unknown value is no longer the zero value:
// code that refined a value changed it instead of making a new one, and every expression
// known as nothing since has been read as that.
func checkUnknown(t *testing.T, name string) {
	t.Helper()
	if !reflect.DeepEqual(*unknown, value{}) {
		t.Fatalf("%s: the shared unknown value was changed: %+v", name, *unknown)
	}
}

// checkPositions fails the test when a fact's position lies outside the input.
func checkPositions(t *testing.T, name string, src []byte) {
	t.Helper()
	file, _ := Parse(name, src)
	if bad := outside(file, src); bad != "" {
		t.Errorf("%s: position outside the input: %s", name, bad)
	}
}
