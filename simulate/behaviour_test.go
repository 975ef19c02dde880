package simulate

import (
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/bucketlint/bucketlint/engine/hash"
)

// since is one value of a behaviour field: the value it takes from a release on.
type since struct {
	version string
	value   any
}

// fieldHistory is every value a field of Behaviour (or of Behaviour.Defaults, as
// "Defaults.Name") takes, oldest first; the first entry holds from 3.0.0.
func fieldHistory() map[string][]since {
	off, on := false, true
	return map[string][]since{
		"CoPartition":                        {{"3.0.0", EraA}, {"3.0.2", EraB}, {"3.3.0", EraC}},
		"ShuffleOrigin":                      {{"3.0.0", off}, {"3.1.0", on}},
		"RepartitionOrigins":                 {{"3.0.0", off}, {"3.2.0", on}},
		"RemoveRedundantRepartition":         {{"3.0.0", off}, {"3.2.0", on}},
		"RebalanceHint":                      {{"3.0.0", off}, {"3.2.0", on}},
		"ReorderJoinKeysFallback":            {{"3.0.0", off}, {"3.1.0", on}},
		"BroadcastJoinExpandsPartitioning":   {{"3.0.0", off}, {"3.1.0", on}},
		"DisableUnnecessaryBucketedScan":     {{"3.0.0", off}, {"3.1.0", on}},
		"DisablePrunedBucketedScan":          {{"3.0.0", off}, {"3.2.0", on}},
		"CoalesceBucketsInJoin":              {{"3.0.0", off}, {"3.1.0", on}},
		"CoalesceBucketsUnderAQE":            {{"3.0.0", off}, {"3.5.0", on}},
		"CoalesceThroughBroadcastJoin":       {{"3.0.0", off}, {"3.5.0", on}},
		"ShuffledHashJoinFullOuter":          {{"3.0.0", off}, {"3.1.0", on}},
		"ShuffledHashJoinBuildsOuterSide":    {{"3.0.0", off}, {"3.5.0", on}},
		"ShuffledHashJoinFactorConf":         {{"3.0.0", off}, {"3.3.0", on}},
		"RequireAllClusterKeysConfs":         {{"3.0.0", off}, {"3.3.0", on}},
		"SinglePartitionCreatesPartitioning": {{"3.0.0", off}, {"3.3.0", on}, {"3.3.1", off}},
		"SinglePartitionShortcut":            {{"3.0.0", off}, {"3.4.0", on}},
		"UnionOutputPartitioning":            {{"3.0.0", off}, {"4.1.0", on}},
		"ExplainBucketedField":               {{"3.0.0", off}, {"3.3.0", on}},
		"HiveBucketedWrite":                  {{"3.0.0", off}, {"3.3.0", on}},
		"StoragePartitionedJoin":             {{"3.0.0", off}, {"3.3.0", on}},
		"SPJPushPartValues":                  {{"3.0.0", off}, {"3.4.0", on}},
		"SPJShuffleOneSide":                  {{"3.0.0", off}, {"4.0.0", on}},
		"ErrorClasses":                       {{"3.0.0", off}, {"3.4.0", on}},
		"CreateHiveTableConf":                {{"3.0.0", off}, {"3.1.0", on}},
		"HashNegativeZeroAsZero":             {{"3.0.0", off}, {"3.2.0", on}},

		"Defaults.ShufflePartitions":                    {{"3.0.0", 200}},
		"Defaults.AutoBroadcastJoinThreshold":           {{"3.0.0", int64(10 << 20)}},
		"Defaults.BucketingEnabled":                     {{"3.0.0", on}},
		"Defaults.MaxBuckets":                           {{"3.0.0", 100000}},
		"Defaults.AutoBucketedScan":                     {{"3.0.0", on}},
		"Defaults.CoalesceBucketsInJoin":                {{"3.0.0", off}},
		"Defaults.CoalesceMaxBucketRatio":               {{"3.0.0", 4}},
		"Defaults.Adaptive":                             {{"3.0.0", off}, {"3.2.0", on}},
		"Defaults.AdaptiveCoalescePartitions":           {{"3.0.0", on}},
		"Defaults.PreferSortMergeJoin":                  {{"3.0.0", on}},
		"Defaults.ShuffledHashJoinFactor":               {{"3.0.0", 3}},
		"Defaults.LegacyBucketedOutputOrdering":         {{"3.0.0", off}},
		"Defaults.RequireAllClusterKeysForCoPartition":  {{"3.0.0", on}},
		"Defaults.RequireAllClusterKeysForDistribution": {{"3.0.0", off}},
		"Defaults.V2Bucketing":                          {{"3.0.0", off}, {"4.1.0", on}},
		"Defaults.V2BucketingPushPartValues":            {{"3.0.0", off}, {"4.0.0", on}},
		"Defaults.MaxSinglePartitionBytes":              {{"3.0.0", int64(-1)}, {"4.0.0", int64(128 << 20)}},
		"Defaults.UnionOutputPartitioning":              {{"3.0.0", on}},
		"Defaults.ANSI":                                 {{"3.0.0", off}, {"4.0.0", on}},
		"Defaults.BroadcastHashJoinExpandLimit":         {{"3.0.0", 8}},
		"Defaults.ConvertMetastoreParquet":              {{"3.0.0", on}},
		"Defaults.ConvertMetastoreOrc":                  {{"3.0.0", on}},
		"Defaults.CreateHiveTableByDefault":             {{"3.0.0", on}, {"4.0.0", off}},
		"Defaults.SourcesDefault":                       {{"3.0.0", "parquet"}},
	}
}

// probes are the versions every field is checked at: each boundary release, the release just
// before it, every series as given without a patch, and a series newer than the table.
func probes() []string {
	return []string{
		"3.0.0", "3.0.1", "3.0.2", "3.0", "3.1.0", "3.1", "3.2.0", "3.2", "3.3.0", "3.3.1", "3.3",
		"3.4.0", "3.4", "3.5.0", "3.5", "4.0.0", "4.0", "4.1.0", "4.1", "4.2", "4.3", "4.9",
	}
}

func mustVersion(t *testing.T, s string) Version {
	t.Helper()
	v, err := ParseVersion(s)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// field reads a field of b by name, "Defaults.X" reading Defaults.
func field(b Behaviour, name string) (reflect.Value, bool) {
	v := reflect.ValueOf(b)
	for _, part := range strings.Split(name, ".") {
		v = v.FieldByName(part)
		if !v.IsValid() {
			return v, false
		}
	}
	return v, true
}

func TestBehaviourAtEveryBoundary(t *testing.T) {
	t.Parallel()
	history := fieldHistory()
	for name, values := range history {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			for _, p := range probes() {
				v := mustVersion(t, p)
				var want any
				for _, s := range values {
					if mustVersion(t, s.version).compare(v) <= 0 {
						want = s.value
					}
				}
				got, ok := field(BehaviourOf(v), name)
				if !ok {
					t.Fatalf("Behaviour has no field %s", name)
				}
				if !reflect.DeepEqual(got.Interface(), want) {
					t.Errorf("Spark %s: %s = %v, want %v", p, name, got.Interface(), want)
				}
			}
		})
	}
}

// TestBehaviourFieldsAllTested fails when a field is added to the table without its history.
func TestBehaviourFieldsAllTested(t *testing.T) {
	t.Parallel()
	history := fieldHistory()
	check := func(typ reflect.Type, prefix string) {
		for i := range typ.NumField() {
			f := typ.Field(i)
			if f.Name == "Version" || f.Name == "Defaults" {
				continue
			}
			if _, ok := history[prefix+f.Name]; !ok {
				t.Errorf("fieldHistory has no entry for %s%s", prefix, f.Name)
			}
		}
	}
	check(reflect.TypeFor[Behaviour](), "")
	check(reflect.TypeFor[ConfDefaults](), "Defaults.")
}

func TestBehaviourVersions(t *testing.T) {
	t.Parallel()
	text := func(vs []Version) string {
		var out []string
		for _, v := range vs {
			out = append(out, v.String())
		}
		return strings.Join(out, " ")
	}
	if got, want := text(SupportedVersions()), "3.0 3.1 3.2 3.3 3.4 3.5 4.0 4.1 4.2 4.3"; got != want {
		t.Errorf("SupportedVersions() = %s, want %s", got, want)
	}
	if got, want := text(DistinctVersions()), "3.0.0 3.0 3.1 3.2 3.3.0 3.3 3.4 3.5 4.0 4.1 4.2 4.3"; got != want {
		t.Errorf("DistinctVersions() = %s, want %s", got, want)
	}
	if got := DefaultVersion().String(); got != "3.5" {
		t.Errorf("DefaultVersion() = %s, want 3.5", got)
	}
	if got := (Options{}).Behaviour().Version; got != DefaultVersion() {
		t.Errorf("Options{}.Behaviour().Version = %s, want the default", got)
	}
	if got := BehaviourOf(mustVersion(t, "3.3.1")).Version.String(); got != "3.3.1" {
		t.Errorf("BehaviourOf(3.3.1).Version = %s", got)
	}
	for _, r := range releases() {
		if r.v.Patch < 0 {
			t.Errorf("release %s: a table row names an exact release", r.v)
		}
	}
	if !slices.IsSortedFunc(releases(), func(a, b release) int { return a.v.compare(b.v) }) {
		t.Error("releases() is not oldest first")
	}
}

func TestVersionCompare(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		a, b string
		want int
	}{
		{"3.3.0", "3.3", -1},
		{"3.3", "3.3.0", 1},
		{"3.3", "3.4.0", -1},
		{"3.3.1", "3.3.1", 0},
		{"3.5", "3.5", 0},
		{"4.0.0", "3.5", 1},
		{"3.0.2", "3.0.10", -1},
	} {
		got := mustVersion(t, tc.a).compare(mustVersion(t, tc.b))
		if got < 0 && tc.want >= 0 || got > 0 && tc.want <= 0 || got == 0 && tc.want != 0 {
			t.Errorf("compare(%s, %s) = %d, want sign %d", tc.a, tc.b, got, tc.want)
		}
	}
}

// TestHashNegativeZeroAgreesWithEngine keeps engine/hash's own version boundary (it also reads
// Spark 2.x versions, which the table does not cover) in step with the table.
func TestHashNegativeZeroAgreesWithEngine(t *testing.T) {
	t.Parallel()
	for _, p := range probes() {
		o, err := hash.OptionsFor(p)
		if err != nil {
			t.Fatal(err)
		}
		if b := BehaviourOf(mustVersion(t, p)); o.RawNegativeZero == b.HashNegativeZeroAsZero {
			t.Errorf("Spark %s: hash.OptionsFor RawNegativeZero=%v, table HashNegativeZeroAsZero=%v", p, o.RawNegativeZero, b.HashNegativeZeroAsZero)
		}
	}
}

// fn makes an Options accessor one the table of TestOptionsReadTheTable can hold.
func fn[T any](f func(Options) T) func(Options) any { return func(o Options) any { return f(o) } }

func TestOptionsReadTheTable(t *testing.T) {
	t.Parallel()
	set := func(kv ...string) map[string]string {
		m := map[string]string{}
		for i := 0; i+1 < len(kv); i += 2 {
			m[kv[i]] = kv[i+1]
		}
		return m
	}
	for _, tc := range []struct {
		name    string
		version string
		confs   map[string]string
		got     func(Options) any
		want    any
	}{
		{"3.0 creates Hive tables whatever the conf", "3.0.3", set(ConfCreateHiveTableByDefault, "false"), fn(Options.CreateHiveTableByDefault), true},
		{"3.1 reads the conf", "3.1", set(ConfCreateHiveTableByDefault, "false"), fn(Options.CreateHiveTableByDefault), false},
		{"3.5 creates Hive tables by default", "3.5", nil, fn(Options.CreateHiveTableByDefault), true},
		{"4.0 creates data-source tables by default", "4.0", nil, fn(Options.CreateHiveTableByDefault), false},
		{"4.0 honours the legacy conf", "4.0", set(ConfCreateHiveTableByDefault, "true"), fn(Options.CreateHiveTableByDefault), true},
		{"sources default is parquet", "3.5", nil, fn(Options.SourcesDefault), "parquet"},
		{"sources default as set, lower case", "3.5", set(ConfSourcesDefault, " Delta "), fn(Options.SourcesDefault), "delta"},
		{"max buckets default", "3.2", nil, fn(Options.MaxBuckets), 100000},
		{"max buckets as set", "3.2", set(ConfMaxBuckets, "50"), fn(Options.MaxBuckets), 50},
		{"max buckets unreadable keeps the default", "3.2", set(ConfMaxBuckets, "many"), fn(Options.MaxBuckets), 100000},
		{"v2 bucketing off before 4.1", "4.0", nil, fn(Options.V2Bucketing), false},
		{"v2 bucketing on from 4.1", "4.1", nil, fn(Options.V2Bucketing), true},
		{"v2 bucketing on by default is not set", "4.3", nil, fn(Options.V2BucketingSet), false},
		{"v2 bucketing set", "3.5", set(ConfV2Bucketing, "true"), fn(Options.V2BucketingSet), true},
		{"shuffled hash join factor fixed before 3.3", "3.2", set(ConfShuffledHashJoinFactor, "5"), fn(Options.ShuffledHashJoinFactor), 3},
		{"shuffled hash join factor from 3.3", "3.3", set(ConfShuffledHashJoinFactor, "5"), fn(Options.ShuffledHashJoinFactor), 5},
		{"union partitioning before 4.1", "4.0", nil, fn(Options.UnionOutputPartitioning), false},
		{"union partitioning from 4.1", "4.1", nil, fn(Options.UnionOutputPartitioning), true},
		{"union partitioning switched off", "4.3", set(ConfUnionOutputPartitioning, "false"), fn(Options.UnionOutputPartitioning), false},
		{"single partition bytes unlimited in 3.5", "3.5", nil, fn(Options.MaxSinglePartitionBytes), int64(-1)},
		{"single partition bytes 128m from 4.0", "4.0", nil, fn(Options.MaxSinglePartitionBytes), int64(128 << 20)},
		{"ANSI from 4.0", "4.0", nil, fn(Options.ANSI), true},
		{"no BHJ expansion in 3.0", "3.0", nil, fn(Options.BHJExpandLimit), 0},
		{"BHJ expansion from 3.1", "3.1", nil, fn(Options.BHJExpandLimit), 8},
		{"require all keys for distribution is ignored before 3.3", "3.2", set(ConfRequireAllDistribution, "true"), fn(Options.RequireAllClusterKeysForDistribution), false},
		{"require all keys for distribution from 3.3", "3.3", set(ConfRequireAllDistribution, "true"), fn(Options.RequireAllClusterKeysForDistribution), true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			o := Options{SparkVersion: mustVersion(t, tc.version), Confs: tc.confs}
			if got := tc.got(o); !reflect.DeepEqual(got, tc.want) {
				t.Errorf("Spark %s %v: got %v, want %v", tc.version, tc.confs, got, tc.want)
			}
		})
	}
}

func TestVersionRange(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		spec, want, err string
	}{
		{spec: "3.5", want: "3.5"},
		{spec: "3.0.1", want: "3.0.1"},
		{spec: "3.3+", want: "3.3.0 3.3 3.4 3.5 4.0 4.1 4.2 4.3"},
		{spec: "3.3.1+", want: "3.3 3.4 3.5 4.0 4.1 4.2 4.3"},
		{spec: "3.0+", want: "3.0.0 3.0 3.1 3.2 3.3.0 3.3 3.4 3.5 4.0 4.1 4.2 4.3"},
		{spec: "3.0.2+", want: "3.0 3.1 3.2 3.3.0 3.3 3.4 3.5 4.0 4.1 4.2 4.3"},
		{spec: "3.0-3.2", want: "3.0.0 3.0 3.1 3.2"},
		{spec: "3.0.0-3.0.1", want: "3.0.0"},
		{spec: "3.0-3.3.0", want: "3.0.0 3.0 3.1 3.2 3.3.0"},
		{spec: "4.1+", want: "4.1 4.2 4.3"},
		{spec: "2.4+", err: `version range "2.4+": spark version "2.4": only Spark 3.x and 4.x are modelled`},
		{spec: "3.5-3.x", err: `version range "3.5-3.x": spark version "3.x": "x" is not a number`},
		{spec: "3.2-3.1", err: `version range "3.2-3.1": no modelled version in it`},
	} {
		t.Run(tc.spec, func(t *testing.T) {
			t.Parallel()
			vs, err := VersionRange(tc.spec)
			if tc.err != "" {
				if err == nil || err.Error() != tc.err {
					t.Fatalf("VersionRange(%q) error = %v, want %q", tc.spec, err, tc.err)
				}
				return
			}
			var got []string
			for _, v := range vs {
				got = append(got, v.String())
			}
			if err != nil || strings.Join(got, " ") != tc.want {
				t.Errorf("VersionRange(%q) = %s, %v; want %s", tc.spec, strings.Join(got, " "), err, tc.want)
			}
		})
	}
}
