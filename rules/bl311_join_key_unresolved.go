package rules

import (
	"fmt"
	"strings"

	"github.com/bucketlint/bucketlint/workload"
)

func bl311() *Rule {
	return &Rule{
		ID:    "BL311",
		Name:  "join-key-unresolved",
		Title: "a join of a bucketed table whose keys cannot be resolved",
		Doc: "Whether a join of a bucketed table shuffles depends on which table each join key belongs\n" +
			"to. bucketlint resolves every name as Spark's analyzer does; when a key names a column that\n" +
			"no relation in scope has, that several relations have, or that belongs to a table whose\n" +
			"columns are not declared anywhere, it cannot tell the sides apart and says so here instead\n" +
			"of guessing from the order the condition was written in. Spark itself rejects the first two\n" +
			"cases (`UNRESOLVED_COLUMN`, `AMBIGUOUS_REFERENCE`); the third needs the table's columns\n" +
			"(a `CREATE TABLE`, a catalog file or `DESCRIBE` output).\n\n" +
			"The finding is information: the join is not checked until its keys resolve. It is only\n" +
			"reported for joins that read a bucketed table, and not after a statement of the same script\n" +
			"that could not be read (BL901): a script stops at a statement Spark rejects (such as a\n" +
			"`CREATE TABLE` with `SORTED BY (c DESC)`), and one bucketlint does not read may define the\n" +
			"names, so the names are not resolved as if it did not exist." + suppressDoc("BL311"),
		Bad: "CREATE TABLE sales (item_id INT, qty INT) USING parquet CLUSTERED BY (item_id) INTO 8 BUCKETS;\n" +
			"SELECT * FROM sales s JOIN items i ON item_id = i.id;",
		Good: "CREATE TABLE sales (item_id INT, qty INT) USING parquet CLUSTERED BY (item_id) INTO 8 BUCKETS;\n" +
			"CREATE TABLE items (id INT, name STRING) USING parquet CLUSTERED BY (id) INTO 8 BUCKETS;\n" +
			"SELECT * FROM sales s JOIN items i ON s.item_id = i.id;",
		Spark:    "3.0–4.x",
		Since:    "0.1.0",
		Severity: Info,
		Default:  true,
		Run:      runBL311,
	}
}

func runBL311(p *Pass) error {
	if p.Workload == nil {
		return nil
	}
	for _, j := range p.Workload.UnresolvedJoins() {
		if len(j.Bucketed) == 0 || p.afterUnread(j.Names[0].Span.Start) {
			continue
		}
		why := make([]string, len(j.Names))
		for i, u := range j.Names {
			why[i] = u.String()
		}
		var related []Related
		var bucketed []string
		for _, t := range j.Bucketed {
			related = append(related, bucketRelated(t)...)
			bucketed = append(bucketed, t.Name+" ("+specText(t.Buckets())+")")
		}
		p.Report(Diagnostic{
			Span: j.Names[0].Span,
			Message: fmt.Sprintf("whether this join of %s shuffles is not known: %s",
				strings.Join(bucketed, " and "), strings.Join(why, "; ")),
			Related: related,
			Fix:     &Fix{Description: unresolvedFix(j.Names[0], j.Tables)},
		})
	}
	return nil
}

// unresolvedFix says what makes a name resolve.
func unresolvedFix(u workload.Unresolved, tables map[string]string) string {
	switch u.Reason {
	case workload.AmbiguousColumn:
		return fmt.Sprintf("Qualify %s with its relation (%s); Spark rejects the ambiguous reference", u.Name, qualified(u))
	case workload.UnknownSchema:
		names := make([]string, len(u.Relations))
		for i, r := range u.Relations {
			names[i] = r
			if t := tables[r]; t != "" {
				names[i] = t
			}
		}
		return fmt.Sprintf("Declare the columns of %s (CREATE TABLE, a catalog file or DESCRIBE output) so the keys resolve", joinNames(names))
	}
	return fmt.Sprintf("Correct %s to a column of the joined relations; Spark's analyzer rejects it as it is", u.Name)
}

// qualified lists the qualified forms of an ambiguous name: "a.k or b.k".
func qualified(u workload.Unresolved) string {
	col := u.Name[strings.LastIndexByte(u.Name, '.')+1:]
	out := make([]string, len(u.Relations))
	for i, r := range u.Relations {
		out[i] = r + "." + col
	}
	return strings.Join(out, " or ")
}

// joinNames lists names as "a", "a and b", "a, b and c".
func joinNames(names []string) string {
	if len(names) < 2 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
}
