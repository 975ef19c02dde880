package code

import (
	"bytes"
	"fmt"
	"path/filepath"
	"testing"

	"golang.org/x/tools/txtar"

	"github.com/bucketlint/bucketlint/plan"
)

// positions lists every position of the facts of a file.
func positions(f *plan.CodeFile) []plan.Pos {
	var ps []plan.Pos
	sp := func(s plan.Span) { ps = append(ps, s.Start, s.End) }
	ref := func(r plan.FrameRef) { sp(r.Span) }
	keys := func(ks []plan.ColumnRef) {
		for _, k := range ks {
			ps = append(ps, k.Pos)
		}
	}
	for _, c := range f.Confs {
		ps = append(ps, c.Pos)
	}
	for _, r := range f.Reads {
		sp(r.Span)
	}
	for _, s := range f.SQL {
		ps = append(ps, s.Pos)
		ps = append(ps, s.Lines...)
		sp(s.Span)
	}
	for _, j := range f.Joins {
		sp(j.Span)
		ref(j.Left)
		ref(j.Right)
		keys(j.LeftKeys)
		keys(j.RightKeys)
	}
	for _, a := range f.Aggregates {
		sp(a.Span)
		ref(a.Frame)
		keys(a.Keys)
	}
	for _, w := range f.Writes {
		sp(w.Span)
		sp(w.TerminalSpan)
		sp(w.PartitionBySpan)
		sp(w.SortBySpan)
		ref(w.Frame)
		if w.Bucket != nil {
			sp(w.Bucket.Span)
		}
		if w.Repartition != nil {
			sp(w.Repartition.Span)
		}
		for _, o := range w.Options {
			ps = append(ps, o.Pos)
		}
	}
	return ps
}

// outside describes the first valid position that is not inside src (a column may point
// just past a line's last byte, as an end position does), "" when all are inside.
func outside(f *plan.CodeFile, src []byte) string {
	lines := bytes.Split(src, []byte("\n"))
	for _, p := range positions(f) {
		if !p.IsValid() {
			continue
		}
		if p.File != f.File || p.Line > len(lines) || p.Col < 1 || p.Col > len(lines[p.Line-1])+1 {
			return fmt.Sprintf("%s (file has %d lines)", p, len(lines))
		}
	}
	return ""
}

// FuzzCode parses arbitrary input as each kind of file (Java too): it must not panic, and every
// position must lie inside the input. Seeds are the testdata inputs.
func FuzzCode(f *testing.F) {
	paths, _ := filepath.Glob("testdata/*.txtar")
	for _, p := range paths {
		a, err := txtar.ParseFile(p)
		if err != nil {
			f.Fatal(err)
		}
		for _, file := range a.Files {
			if file.Name != "want" {
				f.Add(file.Data)
			}
		}
	}
	names := []string{"job.py", "Job.scala", "Job.java", "nb.ipynb", "submit.sh", "spark-defaults.conf", "nb.sql"}
	// Databricks sources are recognised by their first line, so the fuzzer gets them too.
	headers := map[string]string{
		"nb.sql":     "-- Databricks notebook source\n",
		"dbnb.py":    "# Databricks notebook source\n",
		"DbNb.scala": "// Databricks notebook source\n",
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, name := range append(names, "dbnb.py", "DbNb.scala", "nb.sql") {
			src := data
			if h, ok := headers[name]; ok && len(src) > 0 && src[0]&1 == 1 {
				src = append([]byte(h), data...)
			}
			file, _ := Parse(name, src)
			checkUnknown(t, name)
			if bad := outside(file, src); bad != "" {
				t.Fatalf("%s: position outside the input: %s", name, bad)
			}
			var b bytes.Buffer
			if err := Fprint(&b, file); err != nil {
				t.Fatal(err)
			}
		}
	})
}
