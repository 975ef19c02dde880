package explain

import (
	"strconv"
	"strings"

	"github.com/bucketlint/bucketlint/plan"
)

// fileScanSimple reads a simple-mode FileSourceScanExec line after "FileScan ":
// "<fmt> <table>[<cols>] Batched: true, Bucketed: false (…), DataFilters: […], …"
// (formats.md §7, §10). Metadata values may be cut at 100 characters and end in "...", even
// inside a bracket, so fields are split at ", Key: " rather than by bracket depth.
func (a *arena) fileScanSimple(x *plan.FileScan, args string) {
	e := tokenEnd(args)
	x.Format = args[:e]
	rest := strings.TrimLeft(args[e:], " ")
	if i := strings.IndexByte(rest, '['); i >= 0 && !strings.Contains(rest[:i], ": ") {
		x.Table = strings.TrimSpace(rest[:i])
		j := matchClose(rest, i)
		if j < 0 {
			x.Output, _ = a.exprList(rest[i:])
			return
		}
		x.Output, _ = a.exprList(rest[i : j+1])
		rest = strings.TrimLeft(rest[j+1:], " ")
	}
	x.Metadata = map[string]string{}
	for rest != "" {
		key, val, next := nextMeta(rest)
		if key == "" {
			x.Metadata[""] = rest
			break
		}
		a.scanField(x, key, val)
		rest = next
	}
}

// tokenEnd returns the end of the first space-separated token of s, skipping spaces inside
// brackets ("Hyperspace(Type: CI, Name: idx)").
func tokenEnd(s string) int {
	depth := 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '(', '[', '{':
			depth++
		case ')', ']', '}':
			if depth > 0 {
				depth--
			}
		case ' ':
			if depth == 0 {
				return i
			}
		}
	}
	return len(s)
}

// metaKey returns the length of the "Key: " (or normalised "Location [") that s starts
// with and the key, or 0 when s does not start with a metadata key.
func metaKey(s string) (int, string) {
	k := 0
	for k < len(s) && (s[k] >= 'a' && s[k] <= 'z' || s[k] >= 'A' && s[k] <= 'Z') {
		k++
	}
	if k == 0 || s[0] < 'A' || s[0] > 'Z' {
		return 0, ""
	}
	switch {
	case strings.HasPrefix(s[k:], ": "):
		return k + 2, s[:k]
	case s[:k] == "Location" && strings.HasPrefix(s[k:], " ["):
		return k + 1, s[:k]
	}
	return 0, ""
}

// nextMeta splits the first "Key: value" off s, the value running to the next ", Key: ".
func nextMeta(s string) (key, val, rest string) {
	n, key := metaKey(s)
	if n == 0 {
		return "", "", s
	}
	for i := n; i < len(s); i++ {
		if s[i] == ',' && i+1 < len(s) && s[i+1] == ' ' {
			if m, _ := metaKey(s[i+2:]); m > 0 {
				return key, s[n:i], s[i+2:]
			}
		}
	}
	return key, s[n:], ""
}

// scanField stores one FileScan metadata field, in either mode.
func (a *arena) scanField(x *plan.FileScan, key, val string) {
	var buf [splitBuf]string
	if x.Metadata == nil {
		x.Metadata = map[string]string{}
	}
	x.Metadata[key] = val
	switch key {
	case "Output":
		x.Output, _ = a.exprList(val)
	case "Bucketed":
		b, reason, _ := strings.Cut(val, " ")
		v := b == "true"
		x.Bucketed = &v
		reason = strings.TrimSpace(reason)
		if strings.HasPrefix(reason, "(") && strings.HasSuffix(reason, ")") {
			reason = reason[1 : len(reason)-1]
		}
		x.BucketedReason = reason
		x.BucketedCause = bucketedCause(v, reason)
	case "SelectedBucketsCount":
		x.SelectedBuckets, x.TotalBuckets, x.CoalescedTo = selectedBuckets(val)
	case "Location":
		x.Location, x.LocationPaths = val, locationPaths(val)
	case "PartitionFilters":
		x.PartitionFilters = a.exprs(stringList(buf[:0], val))
	case "PushedFilters":
		x.PushedFilters = a.exprs(stringList(buf[:0], val))
	case "DataFilters":
		x.DataFilters = a.exprs(stringList(buf[:0], val))
	case "ReadSchema":
		x.ReadSchema = val
	case "Format":
		if x.Format == "" {
			x.Format = val
		}
	}
}

// locationPaths reads the paths of a printed file index: "InMemoryFileIndex(2 paths)[file:/a,
// file:/b]" lists "file:/a" and "file:/b"; an index printed without its list ("Location
// [not included in comparison]/…" in normalised output) lists none.
func locationPaths(loc string) []string {
	i, j := strings.LastIndex(loc, "["), strings.LastIndex(loc, "]")
	if i <= 0 || j < i {
		return nil
	}
	var out []string
	for _, p := range strings.Split(loc[i+1:j], ",") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}

// selectedBuckets reads "k out of n" with an optional " (Coalesced to m)".
func selectedBuckets(s string) (k, n, m int) {
	sel, rest, ok := strings.Cut(s, " out of ")
	if !ok {
		return 0, 0, 0
	}
	k, _ = strconv.Atoi(strings.TrimSpace(sel))
	total, coalesced, _ := strings.Cut(rest, " ")
	n, _ = strconv.Atoi(total)
	if c, ok := strings.CutPrefix(strings.TrimSpace(coalesced), "(Coalesced to "); ok {
		m, _ = strconv.Atoi(strings.TrimSuffix(c, ")"))
	}
	return k, n, m
}

// bucketedCause reads the reason printed after "Bucketed: false".
func bucketedCause(bucketed bool, reason string) plan.BucketedCause {
	if bucketed || reason == "" {
		return plan.NotBucketedNone
	}
	for _, c := range []plan.BucketedCause{plan.NotBucketedByConfiguration, plan.NotBucketedByPlanner, plan.NotBucketedColumnsNotRead} {
		if reason == c.String() {
			return c
		}
	}
	return plan.NotBucketedOther
}
