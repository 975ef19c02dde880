//go:build engine

package verify

import (
	"maps"
	"sort"
	"strconv"
	"strings"

	"github.com/bucketlint/bucketlint/advise"
	"github.com/bucketlint/bucketlint/plan"
)

// FromAdvice turns recommendations into scenarios: one per workload query the advice claims
// to make cheaper (fewer Exchanges after than before), with the catalogue as it is and with
// every recommendation applied (bucket specs, and key columns widened where the advice casts
// them) and the settings the advice relies on in force after. A query that writes a table (INSERT, CTAS) is verified as its SELECT.
func FromAdvice(tables map[string]*plan.Table, workload []advise.WeightedQuery, recs []advise.Recommendation) []Scenario {
	after := Apply(tables, recs)
	fixes := map[int][]string{}
	claimed := map[int]bool{}
	var confs map[string]string
	for _, r := range recs {
		if len(r.Confs) > 0 && confs == nil {
			confs = map[string]string{}
		}
		maps.Copy(confs, r.Confs)
		for _, f := range r.Fixes {
			fixes[f.Query] = appendUnique(fixes[f.Query], f.String())
		}
		for _, o := range r.Queries {
			if o.Before != nil && o.After != nil && o.After.Exchanges < o.Before.Exchanges {
				claimed[o.Index] = true
			}
		}
	}
	idx := make([]int, 0, len(claimed))
	for i := range claimed {
		if i >= 0 && i < len(workload) {
			idx = append(idx, i)
		}
	}
	sort.Ints(idx)
	var out []Scenario
	for _, i := range idx {
		q := AsSelect(workload[i].Query)
		name := strings.Join(fixes[i], "; ")
		if name == "" {
			name = "query " + strconv.Itoa(i+1)
		}
		sc := Scenario{Name: name, Query: q, Before: tables, After: after, Sim: workload[i].Spark, AfterConfs: confs}
		if own := workload[i].Tables; own != nil {
			// The query runs in a session that sees its own tables.
			sc.Before, sc.After = own, Apply(own, recs)
		}
		sc.Before, sc.After, sc.Notes = assumeColumns(sc.Before, sc.After, q)
		out = append(out, sc)
	}
	return out
}

// Apply returns the catalogue with the recommendations applied: each advised table gets the
// advised bucket spec (none when the advice is not to bucket it) and its cast columns the
// advised types, and a rewritten table is a Parquet data-source table (a Hive-format or
// Delta table is no longer one). The input tables are not modified.
func Apply(tables map[string]*plan.Table, recs []advise.Recommendation) map[string]*plan.Table {
	out := make(map[string]*plan.Table, len(tables))
	for k, v := range tables {
		out[k] = v
	}
	for _, r := range recs {
		t := lookupTable(tables, r.Table)
		if t == nil {
			continue
		}
		cp := *t
		if !r.Keep {
			// The advised rewrite (bucketBy … saveAsTable) makes a data-source table, as
			// simulate's advice assumes; a Hive-format table stops being one.
			cp.Format = advise.RewriteFormat(t)
			cp.Hive, cp.HiveFormat = false, ""
		}
		cp.SetBuckets(r.Bucket)
		cp.Columns = append([]plan.Column(nil), t.Columns...)
		for i, c := range cp.Columns {
			for col, typ := range r.CastColumns {
				if strings.EqualFold(col, c.Name) {
					cp.Columns[i].Type = strings.ToLower(typ)
				}
			}
		}
		out[t.Name] = &cp
	}
	return out
}

func appendUnique(list []string, s string) []string {
	for _, x := range list {
		if x == s {
			return list
		}
	}
	return append(list, s)
}
