package explain_test

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/bucketlint/bucketlint/parser/explain"
	"github.com/bucketlint/bucketlint/plan"
)

// sparkKey is a key as oracle/ records it: the name without expression ids and the raw text.
type sparkKey struct {
	Name string `json:"name"`
	Raw  string `json:"raw"`
}

// sparkNode is one node of the executed plan oracle/ reads from Spark's own objects
// (queryExecution.executedPlan through py4j); oracle/README.md documents the schema.
type sparkNode struct {
	Class        string       `json:"class"`
	NodeName     string       `json:"nodeName"`
	CodegenStage *int         `json:"codegenStage"`
	Children     []*sparkNode `json:"children"`
	ExecutedPlan *sparkNode   `json:"executedPlan"`
	InitialPlan  *sparkNode   `json:"initialPlan"`
	IsFinalPlan  *bool        `json:"isFinalPlan"`
	StageID      *int         `json:"stageId"`
	Exchange     *struct {
		Type          string     `json:"type"`
		Kind          string     `json:"kind"`
		Keys          []sparkKey `json:"keys"`
		NumPartitions int        `json:"numPartitions"`
		Origin        string     `json:"origin"`
	} `json:"exchange"`
	Join *struct {
		Strategy  string     `json:"strategy"`
		JoinType  string     `json:"joinType"`
		LeftKeys  []sparkKey `json:"leftKeys"`
		RightKeys []sparkKey `json:"rightKeys"`
		BuildSide *string    `json:"buildSide"`
	} `json:"join"`
	Scan *struct {
		Table           string `json:"table"`
		Bucketed        bool   `json:"bucketed"`
		TotalBuckets    int    `json:"totalBuckets"`
		SelectedBuckets int    `json:"selectedBuckets"`
		CoalescedTo     *int   `json:"coalescedTo"`
	} `json:"scan"`
	Sort *struct {
		Keys   []sparkKey `json:"keys"`
		Global bool       `json:"global"`
	} `json:"sort"`
	Aggregate *struct {
		Keys []sparkKey `json:"keys"`
	} `json:"aggregate"`
}

type sparkRun struct {
	Error                 any               `json:"error"`
	Explain               map[string]string `json:"explain"`
	ExplainAfterExecution map[string]string `json:"explainAfterExecution"`
	Plan                  *sparkNode        `json:"plan"`
}

type sparkScenario struct {
	Name    string `json:"name"`
	Queries []struct {
		Name string              `json:"name"`
		Runs map[string]sparkRun `json:"runs"`
	} `json:"queries"`
}

// TestSparkAgreement checks the parser against real Spark: for every scenario oracle/ recorded
// under fixtures/spark/<series>/, every explain text (each mode, adaptive execution off and on,
// before and after execution) parses without errors into a tree that matches, node for node,
// the executed plan Spark itself reported: operator, children, codegen stage, exchange
// partitioning and origin, join strategy, type, keys and build side, scan bucketing, sort keys
// and aggregate keys.
func TestSparkAgreement(t *testing.T) {
	t.Parallel()
	checkAgreement(t, "../../fixtures/spark")
	// Iceberg scenarios (storage-partitioned joins: BatchScan with groupedBy, KeyGroupedPartitioning).
	checkAgreement(t, "../../fixtures/spark-iceberg")
	// CI records fresh seeded random scenarios with oracle/ into $BUCKETLINT_SPARK_FIXTURES.
	if extra := os.Getenv("BUCKETLINT_SPARK_FIXTURES"); extra != "" {
		checkAgreement(t, extra)
	}
}

// TestLiveSpark is the differential test against a live Spark: with BUCKETLINT_SPARK set it
// asks oracle/ for seeded random scenarios (BUCKETLINT_SPARK_SEED, default 1;
// BUCKETLINT_SPARK_COUNT, default 12), runs them through every pinned pyspark version
// (oracle/versions.txt, venvs made by oracle/setup.sh) and checks the parser against what
// Spark printed and planned, as TestSparkAgreement does for the committed fixtures.
func TestLiveSpark(t *testing.T) {
	if os.Getenv("BUCKETLINT_SPARK") == "" {
		t.Skip("live Spark tests run with BUCKETLINT_SPARK=local (needs oracle/setup.sh, Python 3 and Java 17)")
	}
	seed, count := envOr("BUCKETLINT_SPARK_SEED", "1"), envOr("BUCKETLINT_SPARK_COUNT", "12")
	t.Logf("random scenarios: seed %s, count %s", seed, count)
	dir := t.TempDir()
	scenarios := filepath.Join(dir, "scenarios")
	oracle(t, "random", "--seed", seed, "--count", count, scenarios)
	for _, series := range pinnedSeries(t) {
		oracle(t, "run", "--spark", series, scenarios, filepath.Join(dir, "out", series))
	}
	checkAgreement(t, filepath.Join(dir, "out"))
}

func envOr(key, def string) string {
	if v := os.Getenv(key); v != "" {
		return v
	}
	return def
}

// oracle runs python -m oracle from the repository root, with $BUCKETLINT_PYTHON (default
// python3; it needs PyYAML, and re-executes itself under the pinned venvs for Spark work).
func oracle(t *testing.T, args ...string) {
	t.Helper()
	python := envOr("BUCKETLINT_PYTHON", "python3")
	cmd := exec.CommandContext(t.Context(), python, append([]string{"-m", "oracle"}, args...)...)
	cmd.Dir = "../.."
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%s -m oracle %s: %v\n%s", python, strings.Join(args, " "), err, out)
	}
}

// pinnedSeries reads the Spark series pinned in oracle/versions.txt.
func pinnedSeries(t *testing.T) []string {
	t.Helper()
	data, err := os.ReadFile("../../oracle/versions.txt")
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, line := range strings.Split(string(data), "\n") {
		f := strings.Fields(line)
		if len(f) >= 2 && !strings.HasPrefix(f[0], "#") {
			out = append(out, f[0])
		}
	}
	return out
}

// checkAgreement compares every scenario recorded under root/<series>/<group>/<name>/.
func checkAgreement(t *testing.T, root string) {
	t.Helper()
	paths, err := filepath.Glob(filepath.Join(root, "*", "*", "*", "scenario.json"))
	if err != nil {
		t.Fatal(err)
	}
	if len(paths) == 0 {
		t.Fatalf("no recorded Spark scenarios under %s; run oracle/ (see oracle/README.md)", root)
	}
	perSeries := map[string][2]int{} // texts compared, texts agreeing
	for _, p := range paths {
		rel, err := filepath.Rel(root, p)
		if err != nil {
			t.Fatal(err)
		}
		series := strings.Split(filepath.ToSlash(rel), "/")[0]
		var sc sparkScenario
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(data, &sc); err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		for _, q := range sc.Queries {
			for runName, run := range q.Runs {
				if run.Error != nil || run.Plan == nil {
					continue
				}
				for _, c := range comparisons(run, series) {
					file := filepath.Join(filepath.Dir(p), filepath.FromSlash(c.file))
					problems := compareFile(file, c)
					n := perSeries[series]
					n[0]++
					if len(problems) == 0 {
						n[1]++
					}
					perSeries[series] = n
					for _, pr := range problems {
						t.Errorf("%s (%s, %s): %s", file, q.Name, runName, pr)
					}
				}
			}
		}
	}
	series := make([]string, 0, len(perSeries))
	for s := range perSeries {
		series = append(series, s)
	}
	sort.Strings(series)
	for _, s := range series {
		n := perSeries[s]
		t.Logf("Spark %s: %d of %d explain texts agree node for node with Spark's executed plan", s, n[1], n[0])
	}
}

// A comparison is one explain text and the Spark plans its sections must match.
type comparison struct {
	file     string
	sections map[string]*sparkNode // section name → expected root
	adaptive bool                  // the physical plan's root is AdaptiveSparkPlan
	series   string                // the Spark series that printed it ("3.0", "3.5")
}

func comparisons(run sparkRun, series string) []comparison {
	var out []comparison
	modes := func(m map[string]string) []string {
		keys := make([]string, 0, len(m))
		for k := range m {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		return keys
	}
	p := run.Plan
	if p.Class != "AdaptiveSparkPlanExec" {
		for _, m := range modes(run.Explain) {
			out = append(out, comparison{file: run.Explain[m], series: series, sections: map[string]*sparkNode{"Physical Plan": p}})
		}
		return out
	}
	// Before execution Spark prints the adaptive plan with the initial plan as its only child.
	for _, m := range modes(run.Explain) {
		out = append(out, comparison{file: run.Explain[m], series: series, sections: map[string]*sparkNode{"Physical Plan": p.InitialPlan}, adaptive: true})
	}
	for _, m := range modes(run.ExplainAfterExecution) {
		c := comparison{file: run.ExplainAfterExecution[m], series: series, sections: map[string]*sparkNode{"Final Plan": p.ExecutedPlan, "Initial Plan": p.InitialPlan}}
		if series == "3.0" {
			// Spark 3.0 prints an executed adaptive plan as its final plan alone, without the
			// "== Final Plan ==" and "== Initial Plan ==" sub-headers 3.1 added.
			c.sections, c.adaptive = map[string]*sparkNode{"Physical Plan": p.ExecutedPlan}, true
		}
		out = append(out, c)
	}
	return out
}

func compareFile(file string, c comparison) []string {
	src, err := os.ReadFile(file)
	if err != nil {
		return []string{err.Error()}
	}
	explains, errs := explain.Parse(file, src)
	var problems []string
	for _, e := range errs {
		problems = append(problems, "parse error: "+e.Error())
	}
	if len(explains) != 1 {
		return append(problems, fmt.Sprintf("found %d explain outputs, want 1", len(explains)))
	}
	e := explains[0]
	found := 0
	for _, s := range e.Plans {
		want, ok := c.sections[s.Name]
		if !ok {
			continue
		}
		found++
		root := s.Root
		if c.adaptive {
			a, ok := root.(*plan.AdaptiveSparkPlan)
			if !ok || len(a.Kids) != 1 {
				problems = append(problems, fmt.Sprintf("%s: root is %s, want an AdaptiveSparkPlan with one child", s.Name, root.Info().Name))
				continue
			}
			root = a.Kids[0]
		}
		problems = append(problems, compareNode(s.Name, root, want, c.series, strings.HasSuffix(c.file, ".formatted.txt"))...)
	}
	if found != len(c.sections) {
		problems = append(problems, fmt.Sprintf("found %d of the %d plan sections Spark printed", found, len(c.sections)))
	}
	return problems
}

// expectedName is the parser's canonical operator name for a Spark node.
func expectedName(n *sparkNode) string {
	switch n.Class {
	case "FileSourceScanExec":
		return "FileScan"
	case "ShuffleExchangeExec":
		return "Exchange"
	case "InMemoryTableScanExec": // nodeName is "Scan In-memory table t" for CACHE TABLE t
		return "InMemoryTableScan"
	case "HiveTableScanExec": // nodeName is "Scan hive db.t"
		return "Scan hive"
	case "BatchScanExec": // nodeName is "BatchScan spark_catalog.default.t"
		return "BatchScan"
	}
	name, _, _ := strings.Cut(n.NodeName, "(skew=")
	return name
}

func compareNode(path string, got plan.Node, want *sparkNode, series string, formatted bool) []string {
	in := got.Info()
	here := fmt.Sprintf("%s/%s@%d", path, in.Name, in.Pos.Line)
	if in.Name != expectedName(want) {
		return []string{fmt.Sprintf("%s: operator %s, Spark has %s (%s)", here, in.Name, expectedName(want), want.Class)}
	}
	var problems []string
	bad := func(format string, args ...any) { problems = append(problems, here+": "+fmt.Sprintf(format, args...)) }
	wantStage := 0
	if want.CodegenStage != nil {
		wantStage = *want.CodegenStage
	}
	// Formatted mode marks some operators of a codegen stage with "* " but prints no
	// "[codegen id : N]" in their details (seen in Spark 3.5 on the streamed side of a
	// broadcast join): the text says "in a stage" without saying which, and -1 records that.
	if in.CodegenStage != wantStage && (in.CodegenStage != -1 || wantStage == 0) {
		bad("codegen stage %d, Spark has %d", in.CodegenStage, wantStage)
	}
	// Formatted mode in 3.1 prints an executed adaptive plan's initial plan as operators
	// "(unknown)", without an id or a detail block: the text says nothing of their fields.
	if !formatted || in.ID != 0 || len(in.Details) > 0 {
		compareFields(got, want, series, bad)
	}
	kids := got.Children()
	if len(kids) != len(want.Children) {
		bad("%d children, Spark has %d", len(kids), len(want.Children))
		return problems
	}
	for i := range kids {
		problems = append(problems, compareNode(here, kids[i], want.Children[i], series, formatted)...)
	}
	return problems
}

// compareFields reports (bad) each field of got that differs from what Spark's node want
// records: partitioning, scan, sort, stage, join and grouping fields.
func compareFields(got plan.Node, want *sparkNode, series string, bad func(string, ...any)) {
	switch x := got.(type) {
	case *plan.Exchange:
		compareExchange(x, want, bad)
	case *plan.FileScan:
		compareScan(x, want, series, bad)
	case *plan.Sort:
		if w := want.Sort; w != nil {
			if x.Global != w.Global || !sameKeys(plan.OrderTexts(x.Orders), w.Keys) {
				bad("sort %v global=%t, Spark has %v global=%t", plan.OrderTexts(x.Orders), x.Global, names(w.Keys), w.Global)
			}
		}
	case *plan.QueryStage:
		if want.StageID != nil && x.StageID != *want.StageID {
			bad("stage %d, Spark has %d", x.StageID, *want.StageID)
		}
	}
	if j, ok := plan.JoinOf(got); ok && want.Join != nil {
		compareJoin(j, want, bad)
	}
	if a, ok := plan.AggregateOf(got); ok && want.Aggregate != nil {
		if !sameKeys(plan.Texts(a.Keys), want.Aggregate.Keys) {
			bad("grouping keys %v, Spark has %v", plan.Texts(a.Keys), names(want.Aggregate.Keys))
		}
	}
}

// compareExchange reports how an Exchange differs from the one Spark records: partitioning,
// hash keys, origin.
func compareExchange(x *plan.Exchange, want *sparkNode, bad func(string, ...any)) {
	w := want.Exchange
	if w == nil {
		return
	}
	p := x.Partitioning
	if string(p.Kind) != w.Kind || p.NumPartitions != w.NumPartitions && w.Kind != "SinglePartition" {
		bad("partitioning %s(%d), Spark has %s(%d)", p.Kind, p.NumPartitions, w.Kind, w.NumPartitions)
	}
	if w.Kind == "hashpartitioning" && !sameKeys(plan.Texts(p.Keys), w.Keys) {
		bad("hash keys %v, Spark has %v", plan.Texts(p.Keys), names(w.Keys))
	}
	if x.Origin != w.Origin {
		bad("origin %q, Spark has %q", x.Origin, w.Origin)
	}
}

// compareScan reports how a file scan differs from the one Spark records: table, bucketing,
// buckets selected, coalescing.
func compareScan(x *plan.FileScan, want *sparkNode, series string, bad func(string, ...any)) {
	w := want.Scan
	if w == nil {
		return
	}
	if x.Table != w.Table {
		bad("table %q, Spark has %q", x.Table, w.Table)
	}
	if bucketed, known := textBucketed(x, series); known && bucketed != w.Bucketed {
		bad("bucketed %t, Spark has %t", bucketed, w.Bucketed)
	}
	if w.Bucketed && (x.SelectedBuckets != w.SelectedBuckets || x.TotalBuckets != w.TotalBuckets) {
		bad("buckets %d of %d, Spark has %d of %d", x.SelectedBuckets, x.TotalBuckets, w.SelectedBuckets, w.TotalBuckets)
	}
	coalesced := 0
	if w.CoalescedTo != nil {
		coalesced = *w.CoalescedTo
	}
	if x.CoalescedTo != coalesced {
		bad("coalesced to %d, Spark has %d", x.CoalescedTo, coalesced)
	}
}

// textBucketed is whether a scan's text says it reads by bucket, and whether the text tells:
// 3.3+ prints "Bucketed: true|false"; 3.1 and 3.2 print SelectedBucketsCount for bucketed
// scans only; 3.0 prints it for every scan of a bucketed table, bucketed or not, so its text
// does not tell.
func textBucketed(x *plan.FileScan, series string) (bucketed, known bool) {
	switch series {
	case "3.0":
		return false, false
	case "3.1", "3.2":
		return x.TotalBuckets > 0, true
	}
	return x.Bucketed != nil && *x.Bucketed, true
}

// compareJoin reports how join j differs from the one Spark records: strategy, type, keys,
// build side.
func compareJoin(j *plan.Join, want *sparkNode, bad func(string, ...any)) {
	w := want.Join
	if string(j.Strategy) != w.Strategy || j.Type != w.JoinType {
		bad("join %s %s, Spark has %s %s", j.Strategy, j.Type, w.Strategy, w.JoinType)
	}
	if !sameKeys(plan.Texts(j.LeftKeys), w.LeftKeys) || !sameKeys(plan.Texts(j.RightKeys), w.RightKeys) {
		bad("join keys %v = %v, Spark has %v = %v", plan.Texts(j.LeftKeys), plan.Texts(j.RightKeys), names(w.LeftKeys), names(w.RightKeys))
	}
	build := ""
	if w.BuildSide != nil {
		build = *w.BuildSide
	}
	if j.BuildSide != build {
		bad("build side %q, Spark has %q", j.BuildSide, build)
	}
}

func names(ks []sparkKey) []string {
	out := make([]string, len(ks))
	for i, k := range ks {
		out[i] = k.Name
	}
	return out
}

func sameKeys(got []string, want []sparkKey) bool {
	if len(got) != len(want) {
		return false
	}
	for i := range got {
		if got[i] != want[i].Name {
			return false
		}
	}
	return true
}
