package code

import (
	"os"
	"strings"
	"testing"
)

func TestDumpFile(t *testing.T) {
	p := os.Getenv("BL_DUMP")
	if p == "" {
		t.Skip()
	}
	src, _ := os.ReadFile(p)
	f, errs := Parse(p[strings.LastIndex(p, "/")+1:], src)
	var b strings.Builder
	_ = Fprint(&b, f)
	t.Log("\n" + b.String())
	t.Log(errs)
}
