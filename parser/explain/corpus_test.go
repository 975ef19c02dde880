package explain

import (
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/bucketlint/bucketlint/plan"
)

// corpusRoot returns the shared corpus folder, or "" when it is absent.
func corpusRoot(tb testing.TB) string {
	tb.Helper()
	root := os.Getenv("BUCKETLINT_CORPUS")
	if root == "" {
		root = filepath.Join("..", "..", "..", "shared", "corpus")
	}
	if _, err := os.Stat(root); err != nil {
		return ""
	}
	return root
}

// corpusFile is one corpus file holding explain text, prepared for parsing.
type corpusFile struct {
	rel    string // path below the corpus root, slash-separated
	folder string // "spark-golden/spark-3.1.3", "third-party/microsoft-hyperspace", …
	src    []byte
}

// corpusFiles reads every corpus file that holds explain text: TPC explain.txt files,
// .sql.out goldens, event-log plan strings and Hyperspace's templates (with their highlight
// markers removed and a physical plan header put before each plan, since hyperspace.explain()
// prints none).
func corpusFiles(tb testing.TB, root string) []corpusFile {
	tb.Helper()
	var out []corpusFile
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		rel = filepath.ToSlash(rel)
		base := d.Name()
		if base == "README.md" || base == "INDEX.tsv" || base == "simplified.txt" {
			return nil
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		parts := strings.SplitN(rel, "/", 3)
		folder := parts[0]
		if len(parts) > 1 {
			folder += "/" + parts[1]
		}
		if folder == "third-party/microsoft-hyperspace" {
			src = hyperspace(src)
		}
		out = append(out, corpusFile{rel: rel, folder: folder, src: src})
		return nil
	})
	if err != nil {
		tb.Fatal(err)
	}
	return out
}

// hyperspace turns a Hyperspace expected-output template into explain text: the
// "<----"/"---->" and "$highlightBegin"/"$highlightEnd" markers are removed, and every plan
// printed under "Plan with indexes:"/"Plan without indexes:" and a "=====" rule gets a
// "== Physical Plan ==" header.
func hyperspace(src []byte) []byte {
	s := string(src)
	for _, m := range []string{"<----", "---->", "$highlightBegin", "$highlightEnd"} {
		s = strings.ReplaceAll(s, m, "")
	}
	lines := strings.Split(s, "\n")
	for i := 0; i+1 < len(lines); i++ {
		l := strings.TrimSpace(lines[i])
		if (l == "Plan with indexes:" || l == "Plan without indexes:") && strings.HasPrefix(lines[i+1], "=====") {
			lines[i+1] = "== Physical Plan =="
		}
	}
	return []byte(strings.Join(lines, "\n"))
}

// sqlOutPlans are the "== Physical Plan ==" occurrences in each version's .sql.out files,
// from formats.md §11.
var sqlOutPlans = map[string]int{
	"spark-golden/spark-2.4.8":      13,
	"spark-golden/spark-3.0.3":      35,
	"spark-golden/spark-3.1.3":      37,
	"spark-golden/spark-3.2.1":      40,
	"spark-golden/spark-3.3-branch": 40,
	"spark-golden/spark-3.5.2":      42,
	"spark-golden/spark-4.0-dev":    42,
	"spark-golden/spark-4.2-dev":    45,
}

// tpcPlans are the TPC plan directories (one explain.txt each) per version, from formats.md §11.
var tpcPlans = map[string]int{
	"spark-golden/spark-3.1.3":      34,
	"spark-golden/spark-3.2.1":      34,
	"spark-golden/spark-3.3-branch": 34,
	"spark-golden/spark-3.5.2":      34,
	"spark-golden/spark-4.2-dev":    336,
}

// onePlanFiles are the folders whose files each hold exactly one explain output: event-log
// plan strings (formats.md §11: 12 and 274) and, after the header is put back, the four
// Hyperspace cases with a plan with and without indexes in each of three Spark versions.
var onePlanFiles = map[string]int{
	"spark-golden/spark-test-eventlogs":     12,
	"third-party/nvidia-spark-rapids-tools": 274,
	"third-party/microsoft-hyperspace":      24,
}

// TestCorpus parses every explain output of the shared corpus (Spark's own goldens from 2.4
// to 4.2-dev, Spark and NVIDIA event-log plans, Hyperspace expectations) and requires zero
// errors, the plan counts of formats.md §11, and per TPC plan the operator counts of the
// matching simplified.txt.
func TestCorpus(t *testing.T) {
	root := corpusRoot(t)
	if root == "" {
		t.Skip("corpus not found: set BUCKETLINT_CORPUS or check out ../shared/corpus")
	}
	sqlOut, tpc, other := map[string]int{}, map[string]int{}, map[string]int{}
	nerr := 0
	for _, f := range corpusFiles(t, root) {
		es, errs := Parse(f.rel, f.src)
		for _, e := range errs {
			if nerr++; nerr <= 20 {
				t.Errorf("%v", e)
			}
		}
		switch {
		case strings.HasSuffix(f.rel, ".sql.out"):
			for _, e := range es {
				if hasPhysical(e) {
					sqlOut[f.folder]++
				}
			}
		case strings.HasSuffix(f.rel, "/explain.txt"):
			if len(es) != 1 || e0(es).Mode != "formatted" || len(e0(es).Plans) == 0 {
				t.Errorf("%s: want one formatted plan, got %d outputs", f.rel, len(es))
				continue
			}
			tpc[f.folder]++
			checkTPC(t, root, f, es[0])
		default:
			if len(es) != 1 && !strings.Contains(f.rel, "hyperspace") {
				t.Errorf("%s: want one explain output, got %d", f.rel, len(es))
			}
			other[f.folder] += len(es)
		}
		for _, e := range es {
			checkKeys(t, f.rel, e)
		}
	}
	t.Logf("errors: %d", nerr)
	compareCounts(t, ".sql.out physical plans", sqlOut, sqlOutPlans)
	compareCounts(t, "TPC explain.txt plans", tpc, tpcPlans)
	compareCounts(t, "event-log and Hyperspace plans", other, onePlanFiles)
}

func e0(es []*plan.Explain) *plan.Explain { return es[0] }

// hasPhysical reports whether the output printed a physical plan section.
func hasPhysical(e *plan.Explain) bool {
	return e.Mode != "codegen" && len(e.Plans) > 0
}

func compareCounts(t *testing.T, what string, got, want map[string]int) {
	t.Helper()
	keys := make([]string, 0, len(want))
	for k := range want {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		t.Logf("%s: %s: %d", what, k, got[k])
		if got[k] != want[k] {
			t.Errorf("%s: %s: got %d, want %d", what, k, got[k], want[k])
		}
	}
	for k, n := range got {
		if _, ok := want[k]; !ok {
			t.Errorf("%s: unexpected folder %s with %d", what, k, n)
		}
	}
}

// checkKeys requires every Exchange to have a partitioning kind, every hash partitioning keys
// and a partition count, and every sort-merge join keys on both sides, all without ids.
func checkKeys(t *testing.T, file string, e *plan.Explain) {
	t.Helper()
	for _, s := range e.Plans {
		plan.WalkAll(s.Root, func(n plan.Node) bool {
			at := n.Info().Pos
			if e.Mode == "formatted" && n.Info().ID == 0 {
				return true // "(unknown)" initial-plan operators of 3.1 print no details
			}
			switch x := n.(type) {
			case *plan.Exchange:
				p := x.Partitioning
				if p.Kind == "" {
					t.Errorf("%s: exchange without partitioning", at)
				}
				if p.Kind == plan.HashPartitioning && (len(p.Keys) == 0 || p.NumPartitions == 0) {
					t.Errorf("%s: hash partitioning without keys or count: %+v", at, p)
				}
				noIDs(t, at, plan.Texts(p.Keys))
				noIDs(t, at, plan.OrderTexts(p.Orders))
			case *plan.SortMergeJoin:
				if len(x.LeftKeys) == 0 || len(x.LeftKeys) != len(x.RightKeys) {
					t.Errorf("%s: sort-merge join keys %v / %v", at, x.LeftKeys, x.RightKeys)
				}
				noIDs(t, at, plan.Texts(x.LeftKeys))
				noIDs(t, at, plan.Texts(x.RightKeys))
			}
			return true
		})
	}
	_ = file
}

func noIDs(t *testing.T, at plan.Pos, texts []string) {
	t.Helper()
	for _, s := range texts {
		if strings.Contains(s, "#") {
			t.Errorf("%s: expression id left in %q", at, s)
		}
	}
}

// staleTPC is the one TPC plan whose explain.txt does not describe the plan of its
// simplified.txt: Spark 3.1's PlanStabilitySuite compared only simplified.txt and left some
// explain.txt files stale (corpus/spark-golden/README.md); here the scalar subquery's plan
// has four more Project operators than simplified.txt lists.
const staleTPC = "spark-3.1.3/sql/core/src/test/resources/tpcds-plan-stability/approved-plans-v1_4/q24a.sf100/explain.txt"

// checkTPC compares the operator counts of a TPC explain.txt with its simplified.txt.
func checkTPC(t *testing.T, root string, f corpusFile, e *plan.Explain) {
	t.Helper()
	simp, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(strings.TrimSuffix(f.rel, "explain.txt")+"simplified.txt")))
	if err != nil {
		t.Errorf("%s: %v", f.rel, err)
		return
	}
	if strings.HasSuffix(f.rel, staleTPC) {
		return
	}
	want := simplifiedCounts(string(simp))
	got := map[string]int{}
	for _, s := range e.Plans {
		plan.WalkAll(s.Root, func(n plan.Node) bool {
			got[n.Info().Name]++
			return true
		})
	}
	if !equalCounts(got, want) {
		t.Errorf("%s: operator counts differ from simplified.txt:\n got %v\nwant %v", f.rel, got, want)
	}
}

// simplifiedCounts counts the operators of a PlanStabilitySuite simplified.txt: one operator
// per line, indented two spaces per level, "Name [attrs] [attrs]" or "Name #N", with explicit
// WholeStageCodegen and InputAdapter lines that explain output never prints, and subquery
// nodes that formatted mode prints as "Subquery:N" sections instead.
func simplifiedCounts(s string) map[string]int {
	out := map[string]int{}
	for _, l := range strings.Split(s, "\n") {
		l = strings.TrimSpace(l)
		if l == "" {
			continue
		}
		name := l[:nameEnd(l)]
		switch name {
		case "WholeStageCodegen", "InputAdapter", "Subquery", "SubqueryBroadcast", "ReusedSubquery":
			continue
		case "Scan":
			w, _ := word(l, len(name))
			if w == "hive" {
				name = "Scan hive"
			} else {
				name = "FileScan"
			}
		}
		out[name]++
	}
	return out
}

func equalCounts(a, b map[string]int) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}
