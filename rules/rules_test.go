package rules

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/bucketlint/bucketlint/internal/golden"
	"github.com/bucketlint/bucketlint/parser/code"
	"github.com/bucketlint/bucketlint/parser/explain"
	"github.com/bucketlint/bucketlint/parser/sql"
	"github.com/bucketlint/bucketlint/plan"
	"github.com/bucketlint/bucketlint/simulate"
	"github.com/bucketlint/bucketlint/workload"
)

var update = flag.Bool("update", false, "rewrite golden sections")

// TestRules runs each rule alone over the cases of testdata/<ID>/*.txtar and compares its
// diagnostics with the case's "want" section. Every rule the driver does not emit itself has
// at least one case that fires and one that stays silent.
func TestRules(t *testing.T) {
	t.Parallel()
	sp, err := sql.New()
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range All() {
		if r.Run == nil {
			continue
		}
		pattern := filepath.Join("testdata", r.ID, "*.txtar")
		if m, _ := filepath.Glob(pattern); len(m) == 0 {
			if r.ID != "BL901" && r.ID != "BL902" {
				t.Errorf("%s: no cases in testdata/%s", r.ID, r.ID)
			}
			continue
		}
		fired, silent := 0, 0
		for _, c := range golden.Load(t, pattern, *update) {
			w, src, d := buildCase(t, sp, c)
			d.Source = func(f string) []byte { return src[f] }
			diags, err := d.Run(w, []*Rule{r})
			if err != nil {
				t.Errorf("%s: %v", c.Path, err)
			}
			got := formatDiagnostics(diags)
			c.Check(t, "want", []byte(got))
			c.Save(t)
			if got == "" {
				silent++
			} else {
				fired++
			}
		}
		if fired == 0 || silent == 0 {
			t.Errorf("%s: want at least one case that fires and one that stays silent, have %d and %d", r.ID, fired, silent)
		}
	}
}

// buildCase reads a case's sections into a project: *.sql (DDL, queries, SET), *.py and
// *.scala (code), *.txt (explain output, or SHOW CREATE TABLE / DESCRIBE output), and a
// "files" section naming files of the repository (fixtures recorded from Spark) to read the
// same way. A "conf" section holds version=X.Y, Spark settings key=value, size.<table>=<bytes>
// and threshold.<name>=<n>.
func buildCase(t *testing.T, sp *sql.Parser, c *golden.Case) (*workload.Workload, map[string][]byte, *Driver) {
	t.Helper()
	p := &plan.Project{Tables: map[string]*plan.Table{}}
	src := map[string][]byte{}
	add := func(name string, data []byte) {
		src[name] = data
		p.Files = append(p.Files, name)
		addFile(t, sp, p, name, data)
	}
	for _, f := range c.Archive.Files {
		switch f.Name {
		case "want", "conf":
		case "files":
			for _, ln := range strings.Fields(string(f.Data)) {
				data, err := os.ReadFile(filepath.Join("..", ln))
				if err != nil {
					t.Fatalf("%s: %v", c.Path, err)
				}
				add(ln, data)
			}
		default:
			add(f.Name, f.Data)
		}
	}
	// As parser.Load does, a table written with saveAsTable and declared nowhere else is
	// known from the write.
	// Each write is also an event of its session, as the loader records it.
	for _, cf := range p.Code {
		for _, w := range cf.Writes {
			t, ok := plan.TableOfWrite(w)
			if !ok {
				continue
			}
			p.TableEvents = append(p.TableEvents, plan.TableEvent{Kind: plan.WriteTable, Pos: w.Span.Start, Name: w.Table, Table: t})
			if lookup(p.Tables, w.Table) == nil {
				p.Tables[w.Table] = t
			}
		}
	}
	d := &Driver{}
	var cfg workload.Config
	conf, _ := c.File("conf")
	for _, ln := range strings.Split(string(conf), "\n") {
		k, v, ok := strings.Cut(strings.TrimSpace(ln), "=")
		if !ok || strings.HasPrefix(k, "#") {
			continue
		}
		applyConf(t, d, &cfg, p, k, v)
	}
	w, err := workload.New(p, cfg)
	if err != nil {
		t.Fatal(err)
	}
	return w, src, d
}

// applyConf applies one line of a case's conf section: the version and settings to the
// workload's configuration (as check's flags do), sizes to the tables, thresholds to the
// driver and, for the advisor's inputs, to the workload's configuration too.
func applyConf(t *testing.T, d *Driver, cfg *workload.Config, p *plan.Project, k, v string) {
	t.Helper()
	n, _ := strconv.ParseInt(v, 10, 64)
	switch {
	case k == "version":
		ver, err := simulate.ParseVersion(v)
		if err != nil {
			t.Fatal(err)
		}
		cfg.SparkVersion = ver
	case strings.HasPrefix(k, "size."):
		tab := lookup(p.Tables, strings.TrimPrefix(k, "size."))
		if tab == nil {
			t.Fatalf("conf %s: no such table", k)
		}
		tab.SizeInBytes = n
	case k == "threshold.cluster_cores":
		d.Thresholds.ClusterCores = int(n)
		cfg.ClusterCores = int(n)
	case k == "threshold.broadcast_bytes":
		d.Thresholds.BroadcastBytes = n
	default:
		if cfg.Confs == nil {
			cfg.Confs = map[string]string{}
		}
		cfg.Confs[k] = v
	}
}

func addFile(t *testing.T, sp *sql.Parser, p *plan.Project, name string, data []byte) {
	t.Helper()
	addTable := func(tab *plan.Table) {
		if _, ok := p.Tables[tab.Name]; !ok && tab.Name != "" {
			p.Tables[tab.Name] = tab
		}
	}
	switch ext := filepath.Ext(name); {
	case ext == ".sql":
		f, errs := sp.ParseFile(name, data)
		if len(errs) > 0 {
			t.Fatalf("%s: %v", name, errs)
		}
		for _, tab := range f.Tables {
			addTable(tab)
		}
		p.Queries = append(p.Queries, f.Queries...)
		p.Confs = append(p.Confs, f.Confs...)
	case ext == ".py" || ext == ".scala":
		cf, errs := code.Parse(name, data)
		if len(errs) > 0 {
			t.Fatalf("%s: %v", name, errs)
		}
		p.Code = append(p.Code, cf)
	case sql.IsShowCreate(data):
		tab, errs := sp.ParseShowCreate(name, data)
		if len(errs) > 0 {
			t.Fatalf("%s: %v", name, errs)
		}
		addTable(tab)
	case sql.IsDescribe(data):
		tab, errs := sp.ParseDescribe(name, data)
		if len(errs) > 0 {
			t.Fatalf("%s: %v", name, errs)
		}
		addTable(tab)
	default:
		es, errs := explain.Parse(name, data)
		if len(errs) > 0 || len(es) == 0 {
			t.Fatalf("%s: not an explain output: %v", name, errs)
		}
		p.Explains = append(p.Explains, es...)
	}
}

// formatDiagnostics prints diagnostics as the want sections hold them:
//
//	file:line:col: severity: message (BL301)
//		related file:line:col: message
//		fix: description
//		edit file:line:col-line:col: "text"
func formatDiagnostics(ds []Diagnostic) string {
	var b strings.Builder
	for _, d := range ds {
		fmt.Fprintf(&b, "%s: %s: %s (%s)\n", d.Span.Start, d.Severity, d.Message, d.Rule)
		for _, r := range d.Related {
			fmt.Fprintf(&b, "\trelated %s: %s\n", r.Span.Start, r.Message)
		}
		if d.Fix != nil {
			fmt.Fprintf(&b, "\tfix: %s\n", strings.ReplaceAll(d.Fix.Description, "\n", "\n\t\t"))
			for _, e := range d.Fix.Edits {
				fmt.Fprintf(&b, "\tedit %s-%d:%d: %q\n", e.Span.Start, e.Span.End.Line, e.Span.End.Col, e.Text)
			}
		}
	}
	return b.String()
}

func TestValidIDsAndNames(t *testing.T) {
	t.Parallel()
	for id, want := range map[string]bool{"BL101": true, "BL404": true, "BL902": true, "BL501": false, "BL01": false, "bl101": false, "BL1011": false, "BL1x1": false} {
		if validID(id) != want {
			t.Errorf("validID(%q) = %v", id, !want)
		}
	}
	for name, want := range map[string]bool{"bucket-count-mismatch": true, "a1": true, "": false, "-a": false, "a-": false, "a--b": false, "A-b": false, "a_b": false} {
		if validName(name) != want {
			t.Errorf("validName(%q) = %v", name, !want)
		}
	}
}
