package workload

import (
	"errors"
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/bucketlint/bucketlint/plan"
	"github.com/bucketlint/bucketlint/simulate"
)

// A Workload is a loaded project resolved as Spark's sessions and catalogue would resolve it.
// Build one per run with New; its methods are safe for concurrent use.
type Workload struct {
	project  *plan.Project
	cfg      Config
	sessions map[string]*Session
	// global are the settings every session starts from (spark-defaults.conf, spark-submit
	// --conf), in file order.
	global    []plan.Conf
	catalogue *Catalogue
	conflicts []plan.Conflict
	resolved  *plan.Project
	queries   []Query
	// codeJoins maps each DataFrame join to the query built from code that runs it.
	codeJoins map[*plan.CodeJoin]*plan.Query

	// scopes holds the catalogue of each session after its first n events (CatalogueAt);
	// resolutions each query's name resolution (Resolved), and own, under mu, the
	// resolution of each resolved query it gave, which is its own.
	scopes      memo[scopeKey, *Catalogue]
	resolutions memo[*plan.Query, *Resolved]
	mu          sync.Mutex
	own         map[*plan.Query]*Resolved
	// sims holds each resolved query's simulation while a caller holds it (weakMemo), sites
	// the join sites by broadcast limit (Sites): each computed once, whoever asks first,
	// while others wait for it.
	sims  weakMemo[*plan.Query, simulate.Result]
	sites memo[int64, []*Site]
}

// A Query is one query the scripts run, with the session it runs in (nil for none).
type Query struct {
	Query   *plan.Query
	Session *Session
}

type scopeKey struct {
	file string
	n    int // events applied
}

// New resolves a loaded project under cfg. The error names --size entries that name no
// table; the workload is usable without them.
func New(p *plan.Project, cfg Config) (*Workload, error) {
	if p == nil {
		p = &plan.Project{}
	}
	w := &Workload{
		project: p, cfg: cfg,
		own: map[*plan.Query]*Resolved{},
	}
	w.sessions, w.global = buildSessions(p)
	w.buildCatalogue()
	err := w.applySizes()
	w.resolved = w.resolve()
	for _, q := range p.Queries {
		if q.View || q.Root == nil {
			continue // a view is a catalogue entry: it runs when a query reads it
		}
		w.queries = append(w.queries, Query{Query: q, Session: w.sessions[q.Span.Start.File]})
	}
	var code []*plan.Query
	code, w.codeJoins = codeQueries(p)
	w.queries = mergeQueries(w.queries, w.resolvedCode(code), w.sessions)
	return w, err
}

// Project returns the project as the rules read it: the parsed inputs with the shared
// catalogue's tables (Spark's defaults applied, bucketed writes nobody declares added) and
// every conflict between sources.
func (w *Workload) Project() *plan.Project { return w.resolved }

// Source returns the project as the parser loaded it.
func (w *Workload) Source() *plan.Project { return w.project }

// Config returns the configuration the workload was built with.
func (w *Workload) Config() Config { return w.cfg }

// Queries returns the queries the scripts run, in file order: SQL queries and the DataFrame
// joins and aggregations of code (codeQueries), whose Text is the equivalent SQL. A CREATE
// VIEW's body is not one of them: it runs when a query reads the view.
func (w *Workload) Queries() []Query { return w.queries }

// Settings returns every Spark setting the files make, once each: those of files that
// configure every application and those of each session, in the loader's order.
func (w *Workload) Settings() []plan.Conf { return projectConfs(w.project) }

// Sessions returns the sessions in file order.
func (w *Workload) Sessions() []*Session { return sortedSessions(w.sessions) }

// Session returns the session of a file, nil when the file is not a script.
func (w *Workload) Session(file string) *Session { return w.sessions[file] }

// Catalogue returns the catalogue every script shares.
func (w *Workload) Catalogue() *Catalogue { return w.catalogue }

// Conflicts returns the facts two sources state differently about one table or view, each
// with both positions.
func (w *Workload) Conflicts() []plan.Conflict { return w.conflicts }

// OptionsAt returns the Spark version and settings in force at a position: the settings of
// files that configure every application, then those of the position's own session made
// before it, then the configured ones (.bucketlint.yaml, --conf), which win. A position in no
// script (or the zero Pos) gets the settings every session starts with. Tables the session
// cached before the position are CachedTables.
func (w *Workload) OptionsAt(pos plan.Pos) simulate.Options {
	o := w.confsAt(pos)
	if s := w.sessions[pos.File]; s != nil && pos.File != "" {
		cat := w.CatalogueAt(pos)
		for _, e := range s.events {
			if e.table == nil || e.table.Kind != plan.CacheTable || !precedes(e.pos, pos) {
				continue
			}
			if t := cat.Table(e.table.Name); t != nil {
				if o.CachedTables == nil {
					o.CachedTables = map[string]bool{}
				}
				o.CachedTables[t.Name] = true
			}
		}
	}
	return o
}

// confsAt is OptionsAt without the catalogue: the version and the settings in force.
func (w *Workload) confsAt(pos plan.Pos) simulate.Options {
	o := w.cfg.base()
	set := map[string]string{}
	for _, c := range w.global {
		set[c.Key] = c.Value
	}
	if s := w.sessions[pos.File]; s != nil && pos.File != "" {
		for i, c := range s.confs {
			if reaches(c.Pos, pos) && inScope(s.confs, i, pos) {
				set[c.Key] = c.Value
			}
		}
	}
	for k, v := range w.cfg.Confs {
		set[k] = v
	}
	o.Confs = set
	return o
}

// CatalogueAt returns the catalogue as the session of pos sees it there: the shared one with
// the tables the session created, replaced, renamed or dropped, and the views it defined,
// before pos. A position in no script sees the shared catalogue.
func (w *Workload) CatalogueAt(pos plan.Pos) *Catalogue {
	s := w.sessions[pos.File]
	if s == nil || pos.File == "" {
		return w.catalogue
	}
	n := 0
	for n < len(s.events) && precedes(s.events[n].pos, pos) {
		n++
	}
	if n == 0 {
		return w.catalogue
	}
	// Built once per session and count, outside any lock other callers of other scopes wait for.
	return w.scopes.get(scopeKey{s.File, n}, func() *Catalogue {
		c := w.catalogue.clone()
		for i := range s.events[:n] {
			w.apply(c, &s.events[i])
		}
		return c
	})
}

// TablesAt returns the tables the session of pos sees there, by key, for the simulator and
// the rules. The map is shared: do not change it.
func (w *Workload) TablesAt(pos plan.Pos) map[string]*plan.Table { return w.CatalogueAt(pos).Tables() }

// OwnTables returns the tables the session of pos sees there when they differ from the shared
// catalogue (its own CREATE, DROP or views came before pos), nil when they do not.
func (w *Workload) OwnTables(pos plan.Pos) map[string]*plan.Table {
	if c := w.CatalogueAt(pos); c != w.catalogue {
		return c.tables
	}
	return nil
}

// Resolved returns q with its names resolved as Spark's analyzer resolves them in q's session:
// Resolve against the catalogue the session sees at q's position (its views replaced by their
// queries, its join keys oriented to their sides), and the names that did not resolve. Each
// query is resolved once: the same value for the same q every time, and a query Resolved gave
// is its own resolution, not resolved again. A nil q gives nil.
func (w *Workload) Resolved(q *plan.Query) *Resolved {
	if q == nil {
		return nil
	}
	w.mu.Lock()
	r, ok := w.own[q]
	w.mu.Unlock()
	if ok {
		return r
	}
	// Resolved once, callers at the same time waiting for the first (it was resolved by
	// each and the first kept).
	return w.resolutions.get(q, func() *Resolved {
		r := Resolve(w.CatalogueAt(q.Span.Start), q)
		w.mu.Lock()
		w.own[r.Query] = r
		w.mu.Unlock()
		return r
	})
}

// Simulate predicts the physical plan of q in its session: its resolved query (Resolved)
// over the tables its session sees at its position, under the options in force there. q and
// its resolved query share the simulation, and callers at the same time, or while another
// caller still holds the result, get the same result; the workload does not keep it
// otherwise (a caller after that gets an equal one, simulated again). Do not change it.
func (w *Workload) Simulate(q *plan.Query) (*simulate.Result, error) {
	if q == nil {
		return nil, errors.New("simulate: no query")
	}
	rq := w.Resolved(q).Query
	return w.sims.get(rq, func() (*simulate.Result, error) { return w.SimulateWith(rq, nil) })
}

// SimulateWith simulates q as Simulate does with settings added to those in force at its
// position (a what-if: "with coalescing enabled"). It is not memoised.
func (w *Workload) SimulateWith(q *plan.Query, set map[string]string) (*simulate.Result, error) {
	if q == nil {
		return nil, errors.New("simulate: no query")
	}
	pos := q.Span.Start
	o := w.OptionsAt(pos)
	for k, v := range set {
		o.Confs[k] = v
	}
	return simulate.Simulate(w.TablesAt(pos), w.Resolved(q).Query, o)
}

// Advice is the one default of the advisor's inputs that are not the workload itself: what
// every command and rule that advises starts from (package advise turns it into its Options).
type Advice struct {
	// Spark is the version and settings in force where the advice is given.
	Spark simulate.Options
	// TargetBucketBytes is the data one bucket should hold (0: the advisor's default);
	// ClusterCores the executor cores (0: unknown).
	TargetBucketBytes int64
	ClusterCores      int
	// PowerOfTwo rounds counts up to powers of two, which keeps later count changes within
	// bucket coalescing's reach.
	PowerOfTwo bool
	// MaxBuckets caps the count: spark.sql.sources.bucketing.maxBuckets when it is set, else
	// 0 (the advisor's default).
	MaxBuckets int
}

// Advice returns the advisor's inputs for advice given at pos (the zero Pos: for the whole
// workload): the options in force there, the configured bucket size and cores, counts
// rounded to powers of two and spark.sql.sources.bucketing.maxBuckets as the cap when set.
func (w *Workload) Advice(pos plan.Pos) Advice {
	o := w.OptionsAt(pos)
	a := Advice{Spark: o, TargetBucketBytes: w.cfg.TargetBucketBytes, ClusterCores: w.cfg.ClusterCores, PowerOfTwo: true}
	if v, ok := o.Confs["spark.sql.sources.bucketing.maxBuckets"]; ok {
		if n, err := strconv.Atoi(strings.TrimSpace(v)); err == nil && n > 0 {
			a.MaxBuckets = n
		}
	}
	return a
}

// applySizes sets the sizes given on the command line on the tables they name.
func (w *Workload) applySizes() error {
	var unknown []string
	for name, n := range w.cfg.Sizes {
		k := w.catalogue.key(name)
		if k == "" {
			unknown = append(unknown, name)
			continue
		}
		t := *w.catalogue.tables[k]
		t.SizeInBytes = n
		w.catalogue.tables[k] = &t
	}
	if len(unknown) == 0 {
		return nil
	}
	sort.Strings(unknown)
	return fmt.Errorf("no table %s in the catalogue", strings.Join(unknown, ", "))
}

// resolve builds the project the rules read.
func (w *Workload) resolve() *plan.Project {
	p := *w.project
	p.Tables = w.catalogue.tables
	p.Conflicts = slices.Clone(w.conflicts)
	return &p
}
