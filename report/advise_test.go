package report

import (
	"strings"
	"testing"

	"github.com/bucketlint/bucketlint/advise"
	"github.com/bucketlint/bucketlint/plan"
)

// TestWriteAdvise covers what the advise goldens do not: no recommendation at all, and a
// recommendation without lists or maps, which JSON prints as empty rather than null.
func TestWriteAdvise(t *testing.T) {
	t.Parallel()
	kept := advise.Recommendation{Table: "db.t", Keep: true, Reason: "r", Bucket: &plan.BucketSpec{NumBuckets: 8, Columns: []string{"id"}}}
	plain := advise.Recommendation{Table: "db.small", Reason: "broadcast"}
	for _, c := range []struct {
		name       string
		recs       []advise.Recommendation
		text, json string
	}{
		{"none", nil, "no layout change removes a shuffle from this workload\n", `{
  "recommendations": []
}
`},
		{
			"kept and plain",
			[]advise.Recommendation{kept, plain},
			"advice: rewrite nothing; keep db.t; leave unbucketed db.small\n\n" +
				"db.t: keep CLUSTERED BY (id) INTO 8 BUCKETS (no rewrite)\n  why: r\n  shuffles removed: 0\n\n" +
				"db.small: leave unbucketed\n  why: broadcast\n",
			`"bucket": {
        "numBuckets": 8,
        "columns": [
          "id"
        ],
        "sortColumns": []
      },
      "castColumns": {},
      "keep": true,
      "confs": {},`,
		},
	} {
		var text, js strings.Builder
		if err := WriteAdviseText(&text, nil, c.recs); err != nil {
			t.Fatal(err)
		}
		if err := WriteAdviseJSON(&js, c.recs); err != nil {
			t.Fatal(err)
		}
		if text.String() != c.text {
			t.Errorf("%s: text\n%s\nwant\n%s", c.name, text.String(), c.text)
		}
		if !strings.Contains(js.String(), c.json) {
			t.Errorf("%s: JSON\n%s\nwant it to contain\n%s", c.name, js.String(), c.json)
		}
	}
}
