package main

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/bucketlint/bucketlint/rules"
)

// runBuffered runs bucketlint in-process and returns stdout, stderr and the exit code.
func runBuffered(t *testing.T, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	var out, errw bytes.Buffer
	code = runStreams(t.Context(), args, &streams{in: strings.NewReader(""), out: &out, err: &errw})
	return out.String(), errw.String(), code
}

func TestExplainPrintsTheRulePage(t *testing.T) {
	t.Parallel()
	r := rules.ByID(rules.All(), "BL301")
	var want bytes.Buffer
	if err := rules.WriteDoc(&want, r); err != nil {
		t.Fatal(err)
	}
	for _, arg := range []string{"BL301", "bl301", "bucket-count-mismatch", "Bucket-Count-Mismatch"} {
		out, errOut, code := runBuffered(t, "explain", arg)
		if code != exitOK || out != want.String() || errOut != "" {
			t.Errorf("explain %s: exit %d, stderr %q, page equal to rules.WriteDoc: %v", arg, code, errOut, out == want.String())
		}
	}
	out, _, _ := runBuffered(t, "explain", "BL301")
	for _, part := range []string{r.Title, "Bad", "Good", r.Spark, "bucketlint:ignore BL301"} {
		if !strings.Contains(strings.ToLower(out), strings.ToLower(part)) {
			t.Errorf("explain BL301 lacks %q", part)
		}
	}
}

func TestRulesJSONListsTheCatalogue(t *testing.T) {
	t.Parallel()
	out, _, code := runBuffered(t, "rules", "--format", "json")
	// ruleJSON is the contract of one entry.
	type ruleJSON struct {
		ID       string `json:"id"`
		Name     string `json:"name"`
		Severity string `json:"severity"`
		Default  bool   `json:"default"`
		Title    string `json:"title"`
		Spark    string `json:"spark"`
		Since    string `json:"since"`
	}
	var doc struct{ Rules []ruleJSON }
	if err := json.Unmarshal([]byte(out), &doc); err != nil || code != exitOK {
		t.Fatalf("exit %d, %v\n%s", code, err, out)
	}
	all := rules.All()
	if len(doc.Rules) != len(all) {
		t.Fatalf("%d rules listed, want %d", len(doc.Rules), len(all))
	}
	for i, r := range all {
		got := doc.Rules[i]
		want := ruleJSON{ID: r.ID, Name: r.Name, Severity: r.Severity.String(), Default: r.Default, Title: r.Title, Spark: r.Spark, Since: r.Since}
		if got != want {
			t.Errorf("rule %d: got %+v, want %+v", i, got, want)
		}
	}
}
