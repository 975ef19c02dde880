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
