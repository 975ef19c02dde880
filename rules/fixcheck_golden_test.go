package rules

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bucketlint/bucketlint/internal/golden"
	"github.com/bucketlint/bucketlint/parser"
	"github.com/bucketlint/bucketlint/parser/dbt"
	"github.com/bucketlint/bucketlint/parser/sql"
	"github.com/bucketlint/bucketlint/plan"
	"github.com/bucketlint/bucketlint/workload"
)

// TestEveryGoldenFixIsValid re-checks, as TestEveryFixIsValid does for the rules' cases, every
// fix the rules make on the inputs of every command golden (cmd/bucketlint/testdata): the
// inputs are loaded as check loads them (dbt projects, Java, notebooks too), every rule runs,
// and each fix's code must parse in its language (SQL, PySpark, Scala, Java, a dbt config),
// name only columns the table has, and each edit must leave its file parsing.
func TestEveryGoldenFixIsValid(t *testing.T) {
	t.Parallel()
	sp, err := sql.New()
	if err != nil {
		t.Fatal(err)
	}
	paths, _ := filepath.Glob(filepath.Join("..", "cmd", "bucketlint", "testdata", "*.txtar"))
	checked, languages := 0, map[string]bool{}
	for _, path := range paths {
		for _, c := range golden.Load(t, path, false) {
			dir := t.TempDir()
			src := map[string][]byte{}
			for _, f := range c.Archive.Files {
				switch f.Name {
				case "args", "stdout", "stderr", "exit", "stdin":
					continue
				}
				name := filepath.Join(dir, filepath.FromSlash(f.Name))
				if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(name, f.Data, 0o644); err != nil {
					t.Fatal(err)
				}
				src[name] = f.Data
			}
			if len(src) == 0 {
				continue
			}
			p, _ := parser.Load(context.Background(), []string{dir}, parser.LoadOptions{})
			w, _ := workload.New(p, workload.Config{})
			d := &Driver{Source: func(f string) []byte { return src[f] }}
			diags, _ := d.Run(w, All())
			for _, dg := range diags {
				if dg.Fix == nil {
					continue
				}
				checked++
				languages[fixLanguage(dg.Fix.Description)] = true
				for _, problem := range fixProblems(sp, w.Project(), src, dg.Fix) {
					t.Errorf("%s: %s %s: %s", c.Path, dg.Rule, dg.Message, problem)
				}
			}
		}
	}
	t.Logf("%d fixes checked in the command goldens, code in %v", checked, languages)
	if checked < 50 {
		t.Errorf("only %d fixes checked", checked)
	}
}

// fixLanguage names the language of a fix's code, for the test's log.
func fixLanguage(desc string) string {
	_, block, ok := strings.Cut(desc, ":\n")
	switch {
	case !ok:
		return "none"
	case strings.HasPrefix(block, "{{ config("):
		return "dbt"
	case strings.Contains(block, "import static org.apache.spark"):
		return "java"
	case strings.Contains(block, "from pyspark") || strings.HasPrefix(block, "(df"):
		return "python"
	case strings.Contains(block, "import org.apache.spark"):
		return "scala"
	}
	return "sql"
}

// dbtProblems reads a dbt fix's config line as the config of a model (its table's name from
// the fix's second line, "… the query of model t: …") and checks that the statement dbt-spark
// sends for it parses and names only the table's columns.
func dbtProblems(sp *sql.Parser, p *plan.Project, block string) []string {
	config, rest, _ := strings.Cut(block, "\n")
	_, after, ok := strings.Cut(rest, "the query of model ")
	name, _, _ := strings.Cut(after, ":")
	if !ok || name == "" {
		return []string{"a dbt fix that does not name its model:\n" + block}
	}
	proj, errs := dbt.ReadProject("dbt_project.yml", []byte("name: fix\nconfig-version: 2\n"))
	if len(errs) > 0 {
		return []string{"the test's dbt project does not read: " + errs.Err().Error()}
	}
	m := proj.Model("models/"+name+".sql", []byte(config+"\nselect 1 as one\n"))
	if m.Statement == nil {
		return []string{"the fix's dbt config makes no statement:\n" + block}
	}
	f, perrs := sp.ParseFile("fix.sql", []byte(m.Statement.Text))
	if len(perrs) > 0 {
		return []string{"the statement of the fix's dbt config does not parse: " + perrs.Err().Error() + "\n" + m.Statement.Text}
	}
	var out []string
	for _, tab := range f.Tables {
		var cols []string
		if b := tab.Buckets(); b != nil {
			cols = append(cols, b.Columns...)
		}
		cols = append(cols, tab.PartitionColumns...)
		out = append(out, columnProblems(p, name, cols)...)
	}
	if len(f.Tables) == 0 {
		out = append(out, "the fix's dbt config makes no table:\n"+block)
	}
	return out
}
