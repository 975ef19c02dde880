package simulate

import (
	"fmt"
	"sort"
	"strings"

	"github.com/bucketlint/bucketlint/plan"
)

// scan plans a table read as FileSourceStrategy does: FileSourceScanExec over the columns the
// query reads, bucketed when FileSourceScanExec.bucketedScan holds (Spark 3.0–4.x:
// bucketing enabled, a Spark bucket spec, every bucket column read), with bucket pruning
// from equality and IN filters on a single bucket column.
func (s *sim) scan(r *plan.Relation) *node {
	name := r.Name()
	t := s.tables[strings.ToLower(r.Table)]
	if t == nil {
		t = s.lookupTable(r.Table)
	}
	unknown := t == nil
	if unknown {
		s.note("table %s has no DDL or catalog entry; read as an unbucketed table of unknown size", r.Table)
		t = &plan.Table{Name: strings.ToLower(r.Table), SizeInBytes: -1, RowCount: -1}
	}
	t = s.effectiveTable(t)
	var out []attr
	cols := t.Columns
	if len(cols) == 0 {
		// No schema: the columns the query names with this relation's qualifier.
		for q := range s.refs.qual {
			if rel, col, ok := strings.Cut(q, "."); ok && rel == name {
				cols = append(cols, plan.Column{Name: col})
			}
		}
		sort.Slice(cols, func(i, j int) bool { return cols[i].Name < cols[j].Name })
	}
	if len(cols) == 0 && t.Buckets() != nil {
		for _, c := range t.Buckets().Columns {
			cols = append(cols, plan.Column{Name: c, Type: "int"})
		}
		s.note("table %s declares no columns; its bucket columns are assumed to be int", t.Name)
	}
	var all []attr
	for _, c := range cols {
		a := s.ids.newAttr(strings.ToLower(c.Name), name, c.Type)
		all = append(all, a)
		if s.refs.reads(name, c.Name) {
			out = append(out, a)
		}
	}
	if len(out) == 0 && len(all) > 0 {
		// COUNT(*) and the like still read one column in Spark's plans; which one is irrelevant
		// here, and no bucket column is read.
		out = nil
	}
	format := strings.ToLower(t.Format)
	if t.Hive {
		format = s.hiveScanFormat(t)
	}
	size := t.SizeInBytes
	if size >= 0 && len(all) > 0 {
		size = scaled(size, all, out)
	}
	si := &scanInfo{table: t}
	var n *node
	switch {
	case format == "hive":
		h := &plan.HiveTableScan{OpInfo: info("Scan hive"), Table: t.Name, Output: exprsOf(out)}
		n = newNode(h, out, size)
		si.notBucketed, si.cause = t.Name+" is a Hive-format table, which Spark never reads as bucketed", CauseHiveTable
	case format == "iceberg" || len(t.PartitionTransforms()) > 0:
		b := &plan.BatchScan{OpInfo: info("BatchScan"), Table: t.Name, Output: exprsOf(out)}
		n = newNode(b, out, size)
		s.v2Scan(n, si, t, out)
	case s.opt.CachedTables[t.Name]:
		// InMemoryTableScanExec over the whole cached relation, whose plan kept its bucketed
		// scan: it reports the cached plan's partitioning.
		im := &plan.InMemoryTableScan{OpInfo: info("InMemoryTableScan"), Output: exprsOf(out)}
		n = newNode(im, out, size)
		s.bucketScan(si, t, name, all)
		if si.bucketed {
			var keys []plan.Expr
			for _, a := range si.bucketCols {
				keys = append(keys, a.expr)
			}
			p := hashPart(keys, t.Buckets().NumBuckets)
			n.fixed = &p
		}
		si.bucketed = false
		si.notBucketed, si.cause = t.Name+" is read from the cache", CauseCached
	default:
		fs := &plan.FileScan{OpInfo: info("FileScan"), Format: format, Table: t.Name, Output: exprsOf(out)}
		if format == "" {
			fs.Format = "parquet"
		}
		n = newNode(fs, out, size)
		s.bucketScan(si, t, name, out)
	}
	if unknown {
		si.cause = CauseUnknownTable
	}
	n.scan = si
	n.rel = name
	conds, partFilters, selected := s.scanFilters(r, t, all)
	if fs, ok := n.op.(*plan.FileScan); ok {
		// Partition pruning (PruneFileSourcePartitions): filters on partition columns are
		// evaluated on the partition list, not on the rows; the others are the scan's data
		// filters and stay in a Filter above it.
		fs.PartitionFilters = conditions(partFilters)
		fs.DataFilters = conditions(conds)
	}
	if selected != nil {
		si.pruned = true
		si.selected = len(selected)
	}
	if len(conds) > 0 {
		n = filterNode(n, andOf(conds))
	}
	return n
}

// v2Scan sets what a DataSource V2 scan of t reports: a KeyGroupedPartitioning when
// storage-partitioned joins apply (keyGroupedScan), else why not.
func (s *sim) v2Scan(n *node, si *scanInfo, t *plan.Table, out []attr) {
	p, why, cause := s.keyGroupedScan(t, out)
	if p == nil {
		si.notBucketed, si.cause = why, cause
		return
	}
	p.anyKey = s.opt.AllowJoinKeysSubsetOfPartitionKeys()
	n.fixed = p
	si.keyGrouped = true
	si.notBucketed, si.cause = fmt.Sprintf("%s is key-grouped by (%s) (storage-partitioned)", t.Name, exprsText(p.keys)), CauseDataSourceV2
	if p.n == 0 {
		s.note("the partition count of %s's key-grouped scan is its number of distinct partition values, which DDL does not tell", t.Name)
	}
}

// hiveScanFormat is the scan format of Hive-serde table t: Spark's RelationConversions reads
// a table with a Parquet or ORC serde through its own file source ("parquet", "orc": a
// FileScan, never bucketed) while spark.sql.hive.convertMetastoreParquet or …Orc holds (both
// default true); any other storage, or a conversion turned off, is "hive", a HiveTableScan.
// Recorded from Spark 3.5.9 and 4.3.0 in fixtures/spark/*/hive.
func (s *sim) hiveScanFormat(t *plan.Table) string {
	switch t.HiveStorage() {
	case "parquet":
		if s.opt.ConvertMetastoreParquet() {
			return "parquet"
		}
	case "orc":
		if s.opt.ConvertMetastoreOrc() {
			return "orc"
		}
	}
	return "hive"
}

// effectiveTable resolves CREATE TABLE … LIKE (the source's schema, partitioning and bucket
// spec). A data source table's PARTITIONED BY (bucket(n, c)), which Spark 3.x turns into a
// bucket spec (CatalogV2Implicits.convertTransforms), comes from the parser as that spec.
func (s *sim) effectiveTable(t *plan.Table) *plan.Table {
	if t.Like != "" && len(t.Columns) == 0 {
		if src := s.tables[strings.ToLower(t.Like)]; src != nil && src != t {
			c := *src
			c.Name, c.Like, c.SizeInBytes, c.RowCount, c.Sources = t.Name, "", t.SizeInBytes, t.RowCount, t.Sources
			t = &c
		}
	}
	return t
}

func (s *sim) lookupTable(name string) *plan.Table {
	name = strings.ToLower(name)
	for k, t := range s.tables {
		k = strings.ToLower(k)
		// An unqualified name is any database's table of that name; a qualified one is never
		// an unqualified key's (another database's) table.
		if strings.HasSuffix(k, "."+name) || strings.Contains(k, ".") && strings.HasSuffix(name, "."+k) {
			return t
		}
	}
	return nil
}

func exprsOf(out []attr) []plan.Expr {
	es := make([]plan.Expr, len(out))
	for i, a := range out {
		es[i] = a.expr
	}
	return es
}

// bucketScan decides FileSourceScanExec.bucketedScan and its sort order.
func (s *sim) bucketScan(si *scanInfo, t *plan.Table, name string, out []attr) {
	spec := t.Buckets()
	if spec != nil && s.opt.V2BucketingSet() {
		s.note("spark.sql.sources.v2.bucketing.enabled applies to DataSource V2 tables (storage-partitioned joins) only; %s's bucketing is governed by spark.sql.sources.bucketing.enabled", t.Name)
	}
	switch {
	case spec == nil:
		si.notBucketed, si.cause = t.Name+" is not bucketed", CauseUnbucketed
		return
	case strings.EqualFold(t.Format, "delta"):
		si.notBucketed, si.cause = t.Name+" is a Delta table, which cannot be bucketed", CauseUnsupportedFormat
		return
	case t.Hive:
		si.notBucketed, si.cause = t.Name+" is a Hive-format table; Spark reads it through its "+t.HiveStorage()+" source without the bucket spec (HiveMetastoreCatalog)", CauseHiveTable
		return
	case !s.opt.BucketingEnabled():
		si.notBucketed, si.cause = t.Name+" is bucketed but spark.sql.sources.bucketing.enabled=false", CauseBucketingDisabled
		return
	}
	for _, c := range spec.Columns {
		a, ok := findAttr(out, c)
		if !ok {
			si.notBucketed = t.Name + " is bucketed on (" + strings.Join(spec.Columns, ", ") + ") but the query does not read bucket column " + c + ", so the scan is not bucketed"
			si.cause = CauseBucketColumnNotRead
			si.bucketCols = nil
			return
		}
		si.bucketCols = append(si.bucketCols, a)
	}
	si.bucketed = true
	for _, c := range spec.SortColumns {
		a, ok := findAttr(out, c)
		if !ok {
			break
		}
		si.sorted = append(si.sorted, a)
	}
	_ = name
}

func findAttr(out []attr, name string) (attr, bool) {
	for _, a := range out {
		if strings.EqualFold(a.name, name) {
			return a, true
		}
	}
	return attr{}, false
}

// scanFilters returns the WHERE conjuncts pushed to this relation, split into the data
// filters (kept in a Filter above the scan) and the partition filters (conditions on
// partition columns only, which prune partitions and are not applied to rows), printed
// without the relation's qualifier and bound to the scan's attributes all, and sets bucket
// pruning (FileSourceStrategy.getBucketSet: one bucket column, more than one bucket) from
// the key filters.
func (s *sim) scanFilters(r *plan.Relation, t *plan.Table, all []attr) ([]*plan.X, []*plan.X, map[int]bool) {
	var conds, partFilters []*plan.X
	rel := strings.ToLower(r.Name())
	for _, c := range s.where[rel] {
		cols := conditionColumns(c, t)
		onPartitions := len(cols) > 0
		for _, col := range cols {
			onPartitions = onPartitions && containsFold(t.PartitionColumns, col)
		}
		x := bound(unqualified(c, rel), all)
		if onPartitions {
			partFilters = append(partFilters, x)
		} else {
			conds = append(conds, x)
		}
	}
	var selected map[int]bool
	for _, f := range s.filters {
		rel := strings.ToLower(f.Column.Relation)
		if rel == "" {
			rel = strings.ToLower(f.Column.Qualifier)
		}
		if rel != "" && rel != r.Name() {
			continue
		}
		col, ok := t.Column(f.Column.Column)
		if !ok || containsFold(t.PartitionColumns, col.Name) {
			continue
		}
		spec := t.Buckets()
		if spec == nil || len(spec.Columns) != 1 || spec.NumBuckets <= 1 || !strings.EqualFold(spec.Columns[0], col.Name) || f.Column.Cast != "" {
			continue
		}
		ids, ok := s.bucketIDs(col.Type, f.ValuesX, spec.NumBuckets)
		if !ok {
			s.note("bucket pruning on %s.%s (type %s) is not modelled; all buckets assumed selected", t.Name, col.Name, col.Type)
			continue
		}
		if selected == nil {
			selected = ids
			continue
		}
		for id := range selected {
			if !ids[id] {
				delete(selected, id)
			}
		}
	}
	return conds, partFilters, s.orPruning(rel, t, selected)
}

func containsFold(list []string, s string) bool {
	for _, x := range list {
		if strings.EqualFold(x, s) {
			return true
		}
	}
	return false
}
