package code

import (
	"bytes"
	"path/filepath"
	"sort"
	"strings"

	"github.com/bucketlint/bucketlint/parser/perr"
	"github.com/bucketlint/bucketlint/plan"
)

// A source is a text to read plus the way back to positions in the user's file: for a plain
// file the text is the file; for a notebook cell it is the cell's code, each byte mapped to
// the file offset it came from.
type source struct {
	file string
	text []byte
	// off maps a text offset to a file offset; nil means the identity.
	off []int
	// lines are the file's line start offsets.
	lines []int
}

func lineStarts(b []byte) []int {
	starts := []int{0}
	for i, c := range b {
		if c == '\n' {
			starts = append(starts, i+1)
		}
	}
	return starts
}

// fileOff maps a text offset (0 ≤ i ≤ len(text)) to a file offset.
func (s *source) fileOff(i int) int {
	if s.off == nil {
		return i
	}
	switch {
	case len(s.off) == 0:
		return 0
	case i < 0:
		return s.off[0]
	case i >= len(s.off):
		return s.off[len(s.off)-1] + 1
	}
	return s.off[i]
}

// pos returns the file position of text offset i.
func (s *source) pos(i int) plan.Pos {
	o := s.fileOff(i)
	l := sort.SearchInts(s.lines, o+1) - 1
	if l < 0 {
		l = 0
	}
	return plan.Pos{File: s.file, Line: l + 1, Col: o - s.lines[l] + 1}
}

// span returns the file span of text offsets [i, j).
func (s *source) span(i, j int) plan.Span {
	if j <= i {
		return plan.Span{Start: s.pos(i), End: s.pos(i)}
	}
	// The end is just after the last byte, which in a mapped cell is not always the next
	// mapped byte.
	if j > len(s.text) {
		j = len(s.text)
	}
	if j > 0 && j <= len(s.text) && s.text[j-1] == '\n' {
		return plan.Span{Start: s.pos(i), End: s.pos(j)}
	}
	e := s.pos(j - 1)
	e.Col++
	// A byte a notebook escapes (\" in JSON) takes more than one byte of the file: the end is
	// the next mapped byte when it follows on the same line within an escape's width.
	if s.off != nil && j < len(s.off) {
		if n := s.off[j] - s.off[j-1]; n > 1 && n <= 6 {
			if next := s.pos(j); next.Line == e.Line {
				e = next
			}
		}
	}
	return plan.Span{Start: s.pos(i), End: e}
}

// Language returns the kind of code file Parse would read file as: "python", "scala", "java",
// "ipynb", "shell", "conf" (spark-defaults.conf or another *spark*.conf) or "sql" (a
// Databricks SQL notebook source only; plain .sql files are parser/sql's), and "" for a file
// that is none of these. It looks at the name first, then at a shebang or Databricks
// header line.
func Language(file string, src []byte) string {
	base := strings.ToLower(filepath.Base(file))
	ext := filepath.Ext(base)
	switch {
	case ext == ".ipynb":
		return "ipynb"
	case ext == ".scala" || ext == ".sc":
		return "scala"
	case ext == ".java":
		return "java"
	case ext == ".sh" || ext == ".bash":
		return "shell"
	case strings.HasPrefix(base, "spark-defaults") || (ext == ".conf" && strings.Contains(base, "spark")):
		return "conf"
	case ext == ".sql" && bytes.HasPrefix(src, []byte("-- Databricks notebook source")):
		return "sql"
	case ext == ".py":
		return "python"
	}
	first := src
	if i := bytes.IndexByte(first, '\n'); i >= 0 {
		first = first[:i]
	}
	switch {
	case bytes.HasPrefix(first, []byte("#!")) && bytes.Contains(first, []byte("python")):
		return "python"
	case bytes.HasPrefix(first, []byte("#!")):
		return "shell"
	case bytes.HasPrefix(first, []byte("// Databricks notebook source")):
		return "scala"
	case bytes.HasPrefix(first, []byte("# Databricks notebook source")):
		return "python"
	}
	return ""
}

// TestSource reports whether a file is a test source by its name alone (plan.CodeFile.Test):
// a directory named test or tests on its path (Maven/sbt/Gradle's src/test/, Python's tests/),
// pytest's default discovery names (test_*.py, *_test.py), or the ScalaTest/JUnit class-name
// conventions *Suite, *Test, *Tests, *Spec (.scala, .java).
func TestSource(file string) bool {
	file = strings.ReplaceAll(file, "\\", "/")
	dirs := strings.Split(file, "/")
	base := dirs[len(dirs)-1]
	for _, d := range dirs[:len(dirs)-1] {
		if d == "test" || d == "tests" {
			return true
		}
	}
	ext := filepath.Ext(base)
	stem := strings.TrimSuffix(base, ext)
	switch ext {
	case ".py":
		return strings.HasPrefix(stem, "test_") || strings.HasSuffix(stem, "_test")
	case ".scala", ".java":
		for _, s := range []string{"Suite", "Test", "Tests", "Spec"} {
			if strings.HasSuffix(stem, s) && len(stem) > len(s) {
				return true
			}
		}
	}
	return false
}

// Parse reads one file and returns the facts found in it. The language comes from the file
// name and content (Language): .py, .scala, .java, .ipynb, .sh, spark-defaults.conf, Databricks
// notebook sources (.py, .scala and .sql). Errors are positioned and only concern the file's
// structure (an unreadable notebook, an unknown kind of file); code the reader does not
// understand is skipped, not reported.
func Parse(file string, src []byte) (*plan.CodeFile, perr.List) {
	var errs perr.List
	out := &plan.CodeFile{File: file, Test: TestSource(file)}
	lines := lineStarts(src)
	whole := &source{file: file, text: src, lines: lines}
	lang := Language(file, src)
	switch lang {
	case "python", "scala", "java":
		out.Language = lang
		ev := newEvaluator(out, lang, &errs)
		ev.run(whole)
		if databricks(src) {
			out.Notebook = "databricks"
			magicCells(ev, whole)
		}
	case "sql":
		out.Language, out.Notebook = "sql", "databricks"
		magicCells(newEvaluator(out, "python", &errs), whole)
	case "ipynb":
		out.Notebook = "ipynb"
		parseNotebook(out, whole, &errs)
	case "shell":
		out.Language = "shell"
		out.Confs = shellConfs(whole)
	case "conf":
		out.Language = "conf"
		out.Confs = defaultsConfs(whole)
	default:
		errs.Add(plan.Pos{File: file}, "unknown kind of code file")
	}
	return out, errs.Capped()
}

func databricks(src []byte) bool {
	return bytes.HasPrefix(src, []byte("# Databricks notebook source")) ||
		bytes.HasPrefix(src, []byte("// Databricks notebook source"))
}

// contiguous reports whether the n bytes of text at text offset off lie at consecutive file
// offsets within each line (always so for a plain file; in a notebook cell a JSON escape
// breaks it).
func (s *source) contiguous(off, n int, text string) bool {
	if s.off == nil {
		return true
	}
	for i := 0; i+1 < n && i+1 < len(text); i++ {
		if text[i] != '\n' && text[i+1] != '\n' && s.fileOff(off+i+1) != s.fileOff(off+i)+1 {
			return false
		}
	}
	return true
}
