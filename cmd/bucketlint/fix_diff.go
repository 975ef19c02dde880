package main

import (
	"fmt"
	"slices"
	"sort"
	"strings"
)

// diffContext is how many unchanged lines a hunk shows around a change.
const diffContext = 3

// A change is the old lines [first, last] (0-based) and the lines they become.
type change struct {
	first, last int
	edits       []byteEdit
	newLines    []string
}

// writeHunks writes one file's edits as unified-diff hunks. Each changed line is shown whole:
// its old text removed, its new text added.
func writeHunks(b *strings.Builder, f *fileFix) {
	starts := lineStarts(f.src)
	lineOf := func(off int) int {
		return max(sort.Search(len(starts), func(i int) bool { return starts[i] > off })-1, 0)
	}
	lineEnd := func(l int) int {
		if l+1 < len(starts) {
			return starts[l+1]
		}
		return len(f.src)
	}
	es := slices.Clone(f.edits)
	sort.Slice(es, func(i, j int) bool { return es[i].start < es[j].start })
	var changes []*change
	for _, e := range es {
		first, last := lineOf(e.start), lineOf(max(e.end-1, e.start))
		if n := len(changes); n > 0 && first <= changes[n-1].last {
			c := changes[n-1]
			c.last = max(c.last, last)
			c.edits = append(c.edits, e)
			continue
		}
		changes = append(changes, &change{first: first, last: last, edits: []byteEdit{e}})
	}
	for _, c := range changes {
		from, to := starts[c.first], lineEnd(c.last)
		sub := &fileFix{src: f.src[from:to]}
		for _, e := range c.edits {
			sub.edits = append(sub.edits, byteEdit{start: e.start - from, end: e.end - from, text: e.text})
		}
		c.newLines = splitLines(string(sub.apply()))
	}
	oldLines := splitLines(string(f.src))
	delta := 0
	for i := 0; i < len(changes); {
		j := i + 1 // changes i..j-1 share a hunk: their contexts touch
		for j < len(changes) && changes[j].first-changes[j-1].last <= 2*diffContext+1 {
			j++
		}
		delta = writeHunk(b, oldLines, changes[i:j], delta)
		i = j
	}
}

// writeHunk writes the changes of one hunk and returns the line-count difference so far.
func writeHunk(b *strings.Builder, old []string, cs []*change, delta int) int {
	from := max(cs[0].first-diffContext, 0)
	to := min(cs[len(cs)-1].last+diffContext, len(old)-1)
	var body strings.Builder
	oldN, newN := 0, 0
	at := from
	for _, c := range cs {
		for ; at < c.first; at++ {
			body.WriteString(diffLine(' ', old[at]))
			oldN++
			newN++
		}
		for ; at <= c.last && at < len(old); at++ {
			body.WriteString(diffLine('-', old[at]))
			oldN++
		}
		for _, l := range c.newLines {
			body.WriteString(diffLine('+', l))
			newN++
		}
	}
	for ; at <= to; at++ {
		body.WriteString(diffLine(' ', old[at]))
		oldN++
		newN++
	}
	fmt.Fprintf(b, "@@ -%s +%s @@\n", hunkRange(from+1, oldN), hunkRange(from+1+delta, newN))
	b.WriteString(body.String())
	return delta + newN - oldN
}

// hunkRange is "start,count", start one less for an empty range, as diff writes it.
func hunkRange(start, n int) string {
	if n == 0 {
		return fmt.Sprintf("%d,0", start-1)
	}
	return fmt.Sprintf("%d,%d", start, n)
}

// diffLine is one line of a hunk; a line without its newline (the end of a file that has
// none) is marked as diff marks it.
func diffLine(sign byte, line string) string {
	if strings.HasSuffix(line, "\n") {
		return string(sign) + line
	}
	return string(sign) + line + "\n\\ No newline at end of file\n"
}

// lineStarts are the offsets where src's lines start.
func lineStarts(src []byte) []int {
	starts := []int{0}
	for i, c := range src {
		if c == '\n' && i+1 < len(src) {
			starts = append(starts, i+1)
		}
	}
	return starts
}

// splitLines splits text after each newline, keeping them; the last line may have none.
func splitLines(s string) []string {
	var out []string
	for s != "" {
		i := strings.IndexByte(s, '\n')
		if i < 0 {
			out = append(out, s)
			break
		}
		out = append(out, s[:i+1])
		s = s[i+1:]
	}
	return out
}
