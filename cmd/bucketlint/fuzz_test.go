package main

import (
	"strings"
	"testing"

	"github.com/bucketlint/bucketlint/rules"
)

// FuzzParseConfig: any bytes give a config or an error that starts with the file name, never
// a panic.
func FuzzParseConfig(f *testing.F) {
	for _, s := range []string{
		"", "rules: [all, -BL106]\n", "spark: {version: \"3.5\", conf: {spark.sql.shuffle.partitions: 400}}\n",
		"severity:\n  BL301: error\n  bucket-count-mismatch: fatal\n", "thresholds: {cores: -1, broadcast-size: lots}\n",
		"rules: [all\n", "- a\n- b\n", "spark:\n  confs: 1\n", "exclude: [\"**/x\"]\ncatalog: [c.yaml]\n", "&a [*a]",
	} {
		f.Add([]byte(s))
	}
	catalogue := rules.All()
	f.Fuzz(func(t *testing.T, src []byte) {
		cfg, err := parseConfig("c.yaml", src, catalogue)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "c.yaml") {
				t.Errorf("error without the file name: %v", err)
			}
			return
		}
		if cfg == nil {
			t.Error("nil config without an error")
		}
	})
}

// FuzzScanDirectives: suppressions are found at positions inside the input, never a panic.
func FuzzScanDirectives(f *testing.F) {
	for _, s := range []string{
		"-- bucketlint:ignore BL301 reason\nSELECT 1", "x # bucketlint:ignore BL201", "// bucketlint:ignore",
		"# bucketlint:ignore ,,, why", `"# bucketlint:ignore BL201 export\n",`, "bucketlint:ignore",
	} {
		f.Add([]byte(s))
	}
	catalogue := rules.All()
	f.Fuzz(func(t *testing.T, src []byte) {
		lines := strings.Count(string(src), "\n") + 1
		ds, errs := scanDirectives("f", src, catalogue)
		for _, d := range ds {
			if d.pos.Line < 1 || d.pos.Line > lines || d.line < d.pos.Line || d.reason == "" || len(d.rules) == 0 {
				t.Errorf("bad directive %+v", d)
			}
		}
		for _, e := range errs {
			if e.Pos.Line < 1 || e.Pos.Line > lines {
				t.Errorf("error outside the input: %v", e)
			}
		}
	})
}
