package report

import (
	"crypto/sha256"
	"encoding/hex"
	"strconv"
	"strings"

	"github.com/bucketlint/bucketlint/rules"
)

// Fingerprint identifies a finding across runs without its line numbers: a hash of the rule,
// the file and the message with positions and expression ids removed and spaces collapsed.
// Moving code up or down keeps it; changing what the finding says (another table, another
// bucket count) changes it. Baselines and SARIF's partialFingerprints use it.
func Fingerprint(d *rules.Diagnostic) string {
	msg := strings.Join(strings.Fields(strings.ToLower(stripPositions(d.Message))), " ")
	h := sha256.Sum256([]byte(d.Rule + "\x00" + d.Span.Start.File + "\x00" + msg))
	return hex.EncodeToString(h[:8])
}

// stripPositions drops the parts of a message that change when lines move: the numbers of
// "file.sql:12:3", "line 12" and expression ids such as "id#12".
func stripPositions(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if isDigit(c) && i > 0 && (s[i-1] == ':' || s[i-1] == '#' || strings.HasSuffix(s[:i], "line ")) {
			for i < len(s) && isDigit(s[i]) {
				i++
			}
			i--
			continue
		}
		b.WriteByte(c)
	}
	return b.String()
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

// Fingerprints returns the fingerprint of each finding with an occurrence index, "hash:1",
// "hash:2", so that two identical findings in one file stay distinct (as GitHub's own
// primaryLocationLineHash does).
func Fingerprints(ds []rules.Diagnostic) []string {
	seen := map[string]int{}
	out := make([]string, len(ds))
	for i := range ds {
		fp := Fingerprint(&ds[i])
		seen[fp]++
		out[i] = fp + ":" + strconv.Itoa(seen[fp])
	}
	return out
}
