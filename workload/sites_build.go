package workload

import (
	"slices"
	"strings"
	"sync"

	"github.com/bucketlint/bucketlint/internal/crash"
	"github.com/bucketlint/bucketlint/plan"
	"github.com/bucketlint/bucketlint/simulate"
)

// Sites returns every equi-join of the workload — of its SQL queries (simulated in their
// sessions, after name resolution), its DataFrame joins in code (simulated as the
// equivalent SQL join) and its explain outputs (as printed) — each with the causes of its
// shuffles (Site.Classify). broadcastBytes is the size under which a side counts as small
// enough to broadcast; 0 means spark.sql.autoBroadcastJoinThreshold where the join runs, or
// 10 MiB when that is disabled. The sites are computed once per value of broadcastBytes:
// callers at the same time wait for the first one's and get the same sites.
func (w *Workload) Sites(broadcastBytes int64) []*Site {
	return w.sites.get(broadcastBytes, func() []*Site { return w.buildSites(broadcastBytes) })
}

// A siteBuilder finds the join sites of one workload.
type siteBuilder struct {
	w *Workload
}

func (w *Workload) buildSites(broadcastBytes int64) []*Site {
	b := &siteBuilder{w: w}
	p := w.Project()
	// A query or a code join sees the tables of its session where it runs; explain output
	// names the catalogue's. Each source's sites are found on its own, on the workload's
	// workers, and kept in source order. Each worker passes the crash point "workload.sites"
	// as it starts (cmd/bucketlint's TestCheckWorkerPanic makes one panic there).
	var find []func() []*Site
	for _, q := range p.Queries {
		find = append(find, func() []*Site { return b.queryJoins(q, w.TablesAt(q.Span.Start)) })
	}
	for _, cf := range p.Code {
		for _, j := range cf.Joins {
			find = append(find, func() []*Site {
				if s := b.codeJoin(cf, j, w.TablesAt(j.Span.Start)); s != nil {
					return []*Site{s}
				}
				return nil
			})
		}
	}
	for _, e := range p.Explains {
		find = append(find, func() []*Site { return explainJoins(e, p.Tables) })
	}
	found := make([][]*Site, len(find))
	crash.EachAt("workload.sites", len(find), w.cfg.Workers, func(i int) { found[i] = find[i]() })
	out := slices.Concat(found...)
	var confs sharedConfs
	crash.Each(len(out), w.cfg.Workers, func(i int) {
		s := out[i]
		s.Options = w.OptionsAt(s.Span.Start)
		s.Options.Confs = confs.share(s.Options.Confs)
		for _, side := range s.Sides() {
			side.Label = sideLabel(side)
		}
		s.Classify(broadcastLimit(broadcastBytes, s.Options), w.ShuffleFreeWith)
	})
	return out
}

// sharedConfs gives sites with equal settings one map of them: a map for each site was 5% of
// check's live heap on the corpus and the fixtures. Safe for concurrent use.
type sharedConfs struct {
	mu   sync.Mutex
	maps map[string]map[string]string
}

// share returns a map equal to m that other sites may hold too.
func (c *sharedConfs) share(m map[string]string) map[string]string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	var b strings.Builder
	for _, k := range keys {
		b.WriteString(k)
		b.WriteByte(0)
		b.WriteString(m[k])
		b.WriteByte(0)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if prev, ok := c.maps[b.String()]; ok {
		return prev
	}
	if c.maps == nil {
		c.maps = map[string]map[string]string{}
	}
	c.maps[b.String()] = m
	return m
}

// broadcastLimit is the size under which a join side counts as small enough to broadcast.
func broadcastLimit(configured int64, o simulate.Options) int64 {
	if configured > 0 {
		return configured
	}
	if t := o.BroadcastThreshold(); t > 0 {
		return t
	}
	return 10 << 20
}

// sideLabel names a side for messages: its table (through what, when it is not a plain
// read), its name as referenced, or "the other input".
func sideLabel(s *Side) string {
	switch {
	case s.Table != nil && s.Via != "":
		return s.Table.Name + " via " + s.Via
	case s.Table != nil:
		return s.Table.Name
	case s.Name != "":
		return s.Name
	}
	return "the other input"
}

// simulate simulates q after name resolution in its session (Workload.Simulate), nil on
// error.
func (b *siteBuilder) simulate(q *plan.Query) *simulate.Result {
	res, err := b.w.Simulate(q)
	if err != nil {
		return nil
	}
	return res
}

// ShuffleFreeWith reports whether the simulator plans a join site without any shuffle on
// either side once the given settings are added to those in force at the join: the check
// behind advice such as "with coalescing enabled the join needs no shuffle". It is false
// when the join's sides are not both known tables, when the join is not found in the
// simulated plan, and when the simulation fails.
func (w *Workload) ShuffleFreeWith(s *Site, set map[string]string) bool {
	if s.Left.Table == nil || s.Right.Table == nil {
		return false
	}
	var res *simulate.Result
	var err error
	if s.Query != nil {
		res, err = w.SimulateWith(s.Query, set)
	} else {
		// The join query is built for this call: resolved here, not by Resolved, whose memo
		// would keep every such query and its resolution for the run (7% of check's live heap
		// on the corpus and the fixtures).
		q := s.JoinQuery()
		res, err = w.simulateResolved(Resolve(w.CatalogueAt(q.Span.Start), q).Query, set)
	}
	if err != nil {
		return false
	}
	probe := &Site{Span: s.Span, Type: s.Type, Left: sideOnly(s.Left), Right: sideOnly(s.Right)}
	matchSimulated(probe, res)
	return probe.Known && !probe.Left.Shuffled && !probe.Right.Shuffled
}

// sideOnly is a join side without what a simulation or explain output filled in.
func sideOnly(s Side) Side {
	return Side{Name: s.Name, JoinSide: simulate.JoinSide{Table: s.Table, Keys: s.Keys}, Span: s.Span}
}

// JoinQuery builds the SQL join equivalent to a join site between two known tables, for the
// simulator and the advisor.
func (s *Site) JoinQuery() *plan.Query {
	typ := s.Type
	if typ == "" {
		typ = "Inner"
	}
	return &plan.Query{Span: s.Span, Root: &plan.Relation{Kind: plan.SelectRel, Select: &plan.Select{
		Items: []string{"*"}, ItemsX: []*plan.X{{Op: plan.OpStar, Raw: "*"}},
		From: &plan.Relation{Kind: plan.JoinRel, Join: &plan.JoinSpec{
			Type:      typ,
			Left:      &plan.Relation{Kind: plan.TableRel, Table: s.Left.Table.Name, Alias: "l"},
			Right:     &plan.Relation{Kind: plan.TableRel, Table: s.Right.Table.Name, Alias: "r"},
			LeftKeys:  qualify(s.Left.Keys, "l", s.Left.Table.Name),
			RightKeys: qualify(s.Right.Keys, "r", s.Right.Table.Name),
		}},
	}}}
}

// KeyText lists the key pairs: "o.id = c.id, o.dt = c.dt".
func (s *Site) KeyText() string {
	var parts []string
	for i := range s.Left.Keys {
		if i < len(s.Right.Keys) {
			parts = append(parts, keyLabel(s.Left.Keys[i])+" = "+keyLabel(s.Right.Keys[i]))
		}
	}
	return strings.Join(parts, ", ")
}

// Lookup finds a table by the name a query, code or an explain scan uses: exactly, without a
// leading "spark_catalog.", with or without the "default." database, or, when that is unique,
// by its last part for a name without a database (the reading session's current database is
// not known) and by its database and table for a name with a catalog too. A name with a
// database never finds a table of another database, as Spark's catalog resolves it: a dbt
// source('raw', 'accounts') is not the model accounts.
func Lookup(tables map[string]*plan.Table, name string) *plan.Table {
	n := normName(name)
	for _, c := range []string{n, strings.TrimPrefix(n, "default."), "default." + n} {
		if t, ok := tables[c]; ok {
			return t
		}
	}
	qualified := len(plan.NameParts(n)) > 1
	var found *plan.Table
	keys := make([]string, 0, len(tables))
	for k := range tables {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		if sameTable(k, n, qualified) {
			if found != nil {
				return nil
			}
			found = tables[k]
		}
	}
	return found
}

// sameTable reports whether the catalogue key k can name the table n names: the same last
// part for an unqualified n; for a qualified n, the same database and table, one of the two
// carrying a catalog the other leaves out.
func sameTable(k, n string, qualified bool) bool {
	kp, np := plan.NameParts(k), plan.NameParts(n)
	if !qualified {
		return len(np) == 1 && kp[len(kp)-1] == np[0]
	}
	if len(kp) < 2 {
		return false
	}
	return endsWith(np, kp) || endsWith(kp, np)
}

// endsWith reports whether the name parts a end with the parts b, and a has more.
func endsWith(a, b []string) bool {
	return len(a) > len(b) && slices.Equal(a[len(a)-len(b):], b)
}
