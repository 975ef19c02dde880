package parser

import (
	"sort"
	"strings"

	"github.com/bucketlint/bucketlint/plan"
)

// merge builds the project from the files' results, which are in path order.
func merge(results []*result) *plan.Project {
	proj := emptyProject()
	var facts []fact
	for _, r := range results {
		proj.Notes = append(proj.Notes, r.notes...)
		if r.kind == kindNone {
			continue
		}
		proj.Files = append(proj.Files, r.file)
		proj.Suppressions = append(proj.Suppressions, r.suppressions...)
		proj.Explains = append(proj.Explains, r.explains...)
		proj.Queries = append(proj.Queries, r.queries...)
		proj.Confs = append(proj.Confs, r.confs...)
		if r.code != nil {
			proj.Code = append(proj.Code, r.code)
		}
		facts = append(facts, r.tables...)
		proj.TableEvents = append(proj.TableEvents, r.events...)
	}
	groups := map[string][]fact{}
	for _, f := range facts {
		groups[f.t.Name] = append(groups[f.t.Name], f)
	}
	aliasUnqualified(groups)
	names := make([]string, 0, len(groups))
	for n := range groups {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		t, conflicts := fold(n, groups[n])
		proj.Tables[n] = t
		proj.Conflicts = append(proj.Conflicts, conflicts...)
	}
	for _, r := range results {
		for i := range r.changes {
			ch := &r.changes[i]
			name := resolveName(proj.Tables, ch.Table)
			t := proj.Tables[name]
			if t == nil {
				continue
			}
			if ch.Kind == "rename" {
				if _, taken := proj.Tables[ch.NewName]; taken {
					continue
				}
				delete(proj.Tables, name)
				proj.Tables[ch.NewName] = t
			}
			applyChange(t, ch)
		}
	}
	return proj
}

// aliasUnqualified merges the facts about an unqualified name ("orders") into the one
// qualified name that ends in it ("sales.orders"), as Spark resolves an unqualified name in
// the current database. With several candidates the name stays on its own.
func aliasUnqualified(groups map[string][]fact) {
	for n, fs := range groups {
		if strings.Contains(n, ".") {
			continue
		}
		var target string
		count := 0
		for q := range groups {
			if strings.HasSuffix(q, "."+n) {
				target = q
				count++
			}
		}
		if count == 1 {
			for _, f := range fs {
				t := *f.t
				t.Name = target
				f.t = &t
				groups[target] = append(groups[target], f)
			}
			delete(groups, n)
		}
	}
}

// resolveName finds the catalogue's name for name: itself, or the one qualified name ending in
// it (or the unqualified name a qualified one ends in).
func resolveName(tables map[string]*plan.Table, name string) string {
	if _, ok := tables[name]; ok {
		return name
	}
	found := ""
	for k := range tables {
		if strings.HasSuffix(k, "."+name) || strings.HasSuffix(name, "."+k) {
			if found != "" {
				return ""
			}
			found = k
		}
	}
	return found
}

// sortStrings sorts names in place.
func sortStrings(names []string) { sort.Strings(names) }
