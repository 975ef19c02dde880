package simulate

import (
	"strings"
	"testing"

	"github.com/bucketlint/bucketlint/plan"
)

func TestParseVersionAndEra(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		in   string
		want string
		era  Era
		err  string
	}{
		{"3.0.0", "3.0.0", EraA, ""},
		{"3.0.1", "3.0.1", EraA, ""},
		{"3.0.2", "3.0.2", EraB, ""},
		{"3.0", "3.0", EraB, ""}, // no patch: the latest 3.0.x
		{"3.1.3", "3.1.3", EraB, ""},
		{"3.2", "3.2", EraB, ""},
		{"3.3.0", "3.3.0", EraC, ""},
		{"3.5", "3.5", EraC, ""},
		{"4.0.0-preview2", "4.0.0", EraC, ""},
		{"4.3", "4.3", EraC, ""},
		{"2.4", "", 0, "only Spark 3.x and 4.x"},
		{"three", "", 0, "want MAJOR.MINOR"},
		{"3.x", "", 0, "is not a number"},
	} {
		t.Run(tc.in, func(t *testing.T) {
			t.Parallel()
			v, err := ParseVersion(tc.in)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("ParseVersion(%q) error = %v, want %q", tc.in, err, tc.err)
				}
				return
			}
			if err != nil || v.String() != tc.want || v.Era() != tc.era {
				t.Fatalf("ParseVersion(%q) = %v era %v, %v; want %s era %v", tc.in, v, v.Era(), err, tc.want, tc.era)
			}
		})
	}
}

func TestOptionDefaultsPerVersion(t *testing.T) {
	t.Parallel()
	v := func(s string) Version { x, _ := ParseVersion(s); return x }
	for _, tc := range []struct {
		version  string
		confs    map[string]string
		adaptive bool
		width    int
		auto     bool
		coalesce bool
	}{
		{"3.0.1", nil, false, 200, false, false},
		{"3.1", nil, false, 200, true, false},
		{"3.2", nil, true, 200, true, false},
		{"3.5", map[string]string{ConfInitialPartitionNum: "7"}, true, 7, true, false},
		{"3.5", map[string]string{ConfInitialPartitionNum: "7", ConfAdaptive: "false"}, false, 200, true, false},
		{"3.0.3", map[string]string{ConfCoalesceBuckets: "true"}, false, 200, false, false},
		{"3.1", map[string]string{ConfCoalesceBuckets: "true"}, false, 200, true, true},
	} {
		o := Options{SparkVersion: v(tc.version), Confs: tc.confs}
		if o.Adaptive() != tc.adaptive || o.NewShufflePartitions() != tc.width || o.AutoBucketedScan() != tc.auto || o.CoalesceBuckets() != tc.coalesce {
			t.Errorf("%s %v: adaptive=%v width=%d auto=%v coalesce=%v", tc.version, tc.confs, o.Adaptive(), o.NewShufflePartitions(), o.AutoBucketedScan(), o.CoalesceBuckets())
		}
	}
	if n, err := ParseBytes("10MB"); err != nil || n != 10<<20 {
		t.Errorf("ParseBytes(10MB) = %d, %v", n, err)
	}
	if (Options{}).BroadcastThreshold() != 10<<20 || (Options{Confs: map[string]string{ConfBroadcastThreshold: "-1"}}).BroadcastThreshold() != -1 {
		t.Error("broadcast threshold defaults")
	}
}

func named(names ...string) []plan.Expr {
	out := make([]plan.Expr, len(names))
	for i, n := range names {
		out[i] = plan.NewExpr(n+"#1", n, nil, nil)
	}
	return out
}

func TestSatisfies(t *testing.T) {
	t.Parallel()
	hp := func(n int, keys ...string) part { return hashPart(named(keys...), n) }
	cl := func(keys ...string) dist { return dist{kind: plan.ClusteredDistribution, keys: named(keys...)} }
	hc := func(keys ...string) dist { return dist{kind: plan.HashClusteredDistribution, keys: named(keys...)} }
	all := dist{kind: plan.AllTuples, n: 1}
	for _, tc := range []struct {
		name string
		p    part
		d    dist
		want bool
	}{
		{"hash equals clustered keys", hp(8, "a"), cl("a"), true},
		{"hash subset of clustered keys", hp(8, "a"), cl("a", "b"), true},
		{"hash superset of clustered keys", hp(8, "a", "b"), cl("a"), false},
		{"hash in other order satisfies clustered", hp(8, "b", "a"), cl("a", "b"), true},
		{"requireAll needs exact order", hp(8, "b", "a"), dist{kind: plan.ClusteredDistribution, keys: named("a", "b"), requireAll: true}, false},
		{"requireAll exact", hp(8, "a", "b"), dist{kind: plan.ClusteredDistribution, keys: named("a", "b"), requireAll: true}, true},
		{"hash clustered needs positional equality", hp(8, "a"), hc("a", "b"), false},
		{"hash clustered equal", hp(8, "a", "b"), hc("a", "b"), true},
		{"hash clustered other order", hp(8, "b", "a"), hc("a", "b"), false},
		{"one bucket satisfies all tuples", hp(1, "a"), all, true},
		{"eight buckets do not satisfy all tuples", hp(8, "a"), all, false},
		{"unknown satisfies nothing", unknownPart(8), cl("a"), false},
		{"single partition satisfies clustered", part{kind: plan.SinglePartition}, cl("a"), true},
		{"single partition is not a broadcast", part{kind: plan.SinglePartition}, dist{kind: plan.BroadcastDistribution}, false},
		{"collection member satisfies", part{kind: collection, members: []part{hp(8, "x"), hp(8, "a")}}, cl("a"), true},
		{"required count differs", hp(5, "a"), dist{kind: plan.ClusteredDistribution, keys: named("a"), n: 13}, false},
		{"cast key never matches", hp(8, "a"), dist{kind: plan.ClusteredDistribution, keys: []plan.Expr{castExpr(named("a")[0], "bigint")}}, false},
	} {
		if got := satisfies(tc.p, tc.d); got != tc.want {
			t.Errorf("%s: satisfies(%s, %s) = %v, want %v", tc.name, tc.p, tc.d, got, tc.want)
		}
	}
}

func TestShuffleSpecCompatibility(t *testing.T) {
	t.Parallel()
	spec := func(p part, keys ...string) shuffleSpec {
		return createShuffleSpec(p, dist{kind: plan.ClusteredDistribution, keys: named(keys...)})
	}
	a := spec(hashPart(named("a"), 5), "a", "b")
	c := spec(hashPart(named("c"), 5), "c", "d")
	d := spec(hashPart(named("d"), 5), "c", "d")
	if !a.isCompatibleWith(c) {
		t.Error("HP(a) over (a,b) and HP(c) over (c,d) share key position 0")
	}
	if a.isCompatibleWith(d) {
		t.Error("HP(a) and HP(d) hash different key positions")
	}
	if a.isCompatibleWith(spec(hashPart(named("c"), 6), "c", "d")) {
		t.Error("different counts are not compatible")
	}
	dup := spec(hashPart(named("a", "b"), 5), "a", "b", "b")
	dup2 := spec(hashPart(named("a", "c"), 5), "a", "c", "c")
	if !dup.isCompatibleWith(dup2) {
		t.Error("duplicate keys: positions {1,2} intersect")
	}
	s := &sim{opt: Options{}}
	if s.canCreatePartitioning(a) {
		t.Error("a subset spec cannot create partitioning under requireAllClusterKeysForCoPartition")
	}
	s.opt.Confs = map[string]string{ConfRequireAllCoPartition: "false"}
	if !s.canCreatePartitioning(a) {
		t.Error("with requireAllClusterKeysForCoPartition=false a subset spec can create partitioning")
	}
	if got := a.createPartitioningFor(named("x", "y")); got.String() != "hashpartitioning(x, 5)" {
		t.Errorf("createPartitioning = %s", got)
	}
}

func TestReorderPermutation(t *testing.T) {
	t.Parallel()
	perm, ok := permutation(named("b", "a"), named("a", "b"))
	if !ok || perm[0] != 1 || perm[1] != 0 {
		t.Errorf("permutation = %v %v", perm, ok)
	}
	if _, ok := permutation(named("a"), named("a", "b")); ok {
		t.Error("different lengths never reorder")
	}
	perm, ok = permutation(named("a", "a"), named("a", "a"))
	if !ok || perm[0] != 0 || perm[1] != 1 {
		t.Errorf("duplicate keys: %v %v", perm, ok)
	}
}

func TestParseBytes(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in   string
		want int64
		ok   bool
	}{
		{"10485760", 10 << 20, true},
		{"10MB", 10 << 20, true},
		{"1.5TB", 3 << 39, true},
		{"4.5 GiB", 9 << 29, true},
		{"256m", 256 << 20, true},
		{"2 tb", 2 << 40, true},
		{"-1", -1, true}, // spark.sql.autoBroadcastJoinThreshold=-1
		{"lots", 0, false},
		{"99999999999PB", 0, false},
	}
	for _, tt := range tests {
		got, err := ParseBytes(tt.in)
		if (err == nil) != tt.ok || tt.ok && got != tt.want {
			t.Errorf("ParseBytes(%q) = %d, %v; want %d, ok=%t", tt.in, got, err, tt.want, tt.ok)
		}
	}
}
