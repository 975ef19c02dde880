package parser

import (
	"bytes"
	"path"
	"reflect"
	"sort"
	"strings"

	"github.com/bucketlint/bucketlint/parser/catalog"
	"github.com/bucketlint/bucketlint/parser/code"
	"github.com/bucketlint/bucketlint/parser/dbt"
	"github.com/bucketlint/bucketlint/parser/explain"
	"github.com/bucketlint/bucketlint/parser/perr"
	"github.com/bucketlint/bucketlint/parser/sql"
	"github.com/bucketlint/bucketlint/plan"
)

// A result is what one file contributed.
type result struct {
	file string
	kind kind
	// tables are the table facts the file states, as they stand at the end of the file: its
	// own ALTERs applied, a table dropped and created again replaced.
	tables []fact
	// changes are ALTERs of tables the file does not declare, applied after merging.
	changes []sql.Change
	// events are the file's CREATE, DROP and RENAME statements and saveAsTable writes.
	events   []plan.TableEvent
	queries  []*plan.Query
	explains []*plan.Explain
	code     *plan.CodeFile
	confs    []plan.Conf
	errs     perr.List
	// dbt is the dbt project of a model file; notes say what the file's reader skipped.
	dbt   *dbt.Project
	notes []plan.Note
	// suppressions are the file's inline bucketlint:ignore comments.
	suppressions []plan.Suppression
}

// A fact is one source's statement of a table. Sources of lower rank win a conflict.
type fact struct {
	t    *plan.Table
	rank rank
	// partial is set when the source states only what it sets (a code write): an absent
	// format, partitioning or bucket spec is unknown, not "none".
	partial bool
}

type rank int

const (
	rankCatalog    rank = iota // catalog YAML: what the user says the metastore holds
	rankDescribe               // DESCRIBE output: what a metastore reported
	rankShowCreate             // SHOW CREATE TABLE output
	rankDDL                    // CREATE TABLE in SQL files and SQL strings in code
	rankWrite                  // saveAsTable in code
)

// parseSource dispatches on the kind of file and its content.
func parseSource(sqlp *sql.Parser, r *result, src []byte) {
	switch r.kind {
	case kindSQL:
		if r.dbt != nil {
			parseDbtModel(sqlp, r, src)
			return
		}
		if isMacroFile(src) {
			r.kind = kindNone
			r.notes = append(r.notes, plan.Note{Pos: plan.Pos{File: r.file, Line: 1, Col: 1}, Text: "Jinja macros (dbt): a template dbt expands, not SQL Spark runs: not read"})
			return
		}
		if code.Language(r.file, src) == "sql" {
			parseCode(sqlp, r, src)
			return
		}
		f, errs := sqlp.ParseFile(r.file, src)
		r.errs = append(r.errs, errs...)
		r.addSQL(f, rankDDL)
	case kindCode:
		parseCode(sqlp, r, src)
	case kindYAML:
		if !catalog.IsCatalog(src) {
			r.kind = kindNone
			return
		}
		tables, errs := catalog.Read(r.file, src)
		r.errs = append(r.errs, errs...)
		for _, t := range tables {
			r.tables = append(r.tables, fact{t: t, rank: rankCatalog})
		}
	case kindJSON:
		if !bytes.HasPrefix(bytes.TrimSpace(src), []byte("{")) || !sql.IsDescribe(src) {
			r.kind = kindNone
			return
		}
		parseDescribe(sqlp, r, src)
	case kindText:
		parseText(sqlp, r, src)
	}
}

// parseText reads a text file: code with a shebang, explain output, SHOW CREATE TABLE or
// DESCRIBE output. A text file that holds none of them is skipped without an error.
func parseText(sqlp *sql.Parser, r *result, src []byte) {
	if code.Language(r.file, src) != "" {
		r.kind = kindCode
		parseCode(sqlp, r, src)
		return
	}
	if explains, errs := explain.Parse(r.file, src); len(explains) > 0 {
		r.explains, r.errs = explains, append(r.errs, errs...)
		return
	}
	switch {
	case sql.IsShowCreate(src):
		t, errs := sqlp.ParseShowCreate(r.file, src)
		r.errs = append(r.errs, errs...)
		if t != nil {
			r.tables = append(r.tables, fact{t: t, rank: rankShowCreate})
		}
	case looksDescribe(r.file, src):
		parseDescribe(sqlp, r, src)
	default:
		r.kind = kindNone
	}
}

// looksDescribe is stricter than sql.IsDescribe, as any log may hold the word col_name: a
// DESCRIBE EXTENDED section header, a col_name/data_type header row, a pyspark Row repr, or a
// file named for DESCRIBE output.
func looksDescribe(file string, src []byte) bool {
	for _, m := range []string{"# Detailed Table Information", "# Partition Information", "Row(col_name="} {
		if bytes.Contains(src, []byte(m)) {
			return true
		}
	}
	for _, l := range strings.SplitN(string(src), "\n", 4) {
		f := strings.Fields(strings.ReplaceAll(l, "|", " "))
		if len(f) >= 2 && f[0] == "col_name" && f[1] == "data_type" {
			return true
		}
	}
	base := strings.ToLower(path.Base(file))
	return (strings.Contains(base, "describe") || strings.HasSuffix(base, ".desc")) && sql.IsDescribe(src) ||
		strings.Contains(base, "describe") && bytes.Contains(src, []byte("\t"))
}

// parseDescribe reads DESCRIBE output. Plain DESCRIBE names no table: the file's name up to
// its first dot stands for it ("orders.describe.txt" describes orders).
func parseDescribe(sqlp *sql.Parser, r *result, src []byte) {
	t, errs := sqlp.ParseDescribe(r.file, src)
	r.errs = append(r.errs, errs...)
	if t == nil || t.Name == "" && len(t.Columns) == 0 {
		return
	}
	if t.Name == "" {
		base := path.Base(r.file)
		t.Name = strings.ToLower(base[:strings.IndexByte(base+".", '.')])
	}
	r.tables = append(r.tables, fact{t: t, rank: rankDescribe})
}

// parseCode reads a code file and the SQL strings in it, whose positions are mapped back to
// the code file. Errors in SQL texts that are not fully known (interpolated values) are
// dropped: the text is bucketlint's guess, not the user's SQL.
func parseCode(sqlp *sql.Parser, r *result, src []byte) {
	cf, errs := code.Parse(r.file, src)
	r.errs = append(r.errs, errs...)
	if cf == nil {
		return
	}
	r.code = cf
	all := &sql.File{Name: r.file}
	db := "" // the session's current database: a USE in one SQL text holds for the next
	for _, s := range cf.SQL {
		f, errs := sqlp.ParseSession(r.file, []byte(s.Text), db)
		db = f.Database
		remap(f, r.file, s)
		remap(&errs, r.file, s)
		if s.Resolved {
			r.errs = append(r.errs, errs...)
		}
		all.Tables = append(all.Tables, f.Tables...)
		all.Changes = append(all.Changes, f.Changes...)
		all.Queries = append(all.Queries, f.Queries...)
		all.Confs = append(all.Confs, f.Confs...)
	}
	r.addSQL(all, rankDDL)
	r.confs = append(r.confs, cf.Confs...)
	sort.SliceStable(r.confs, func(i, j int) bool { return r.confs[i].Pos.Before(r.confs[j].Pos) })
	for _, w := range cf.Writes {
		t, ok := plan.TableOfWrite(w)
		if !ok {
			continue // not a table definition, or one bucketed on columns not known statically
		}
		r.tables = append(r.tables, fact{t: t, rank: rankWrite, partial: true})
		r.events = append(r.events, plan.TableEvent{Kind: plan.WriteTable, Pos: w.Span.Start, Name: w.Table, Table: t})
	}
	sort.SliceStable(r.events, func(i, j int) bool { return r.events[i].Pos.Before(r.events[j].Pos) })
}

// remap rewrites, in place, every position in v that lies in file (as parser/sql reported it
// for the text of s alone) to its position in the code file.
func remap(v any, file string, s *plan.SQLString) {
	posType := reflect.TypeFor[plan.Pos]()
	seen := map[uintptr]bool{}
	var walk func(reflect.Value)
	walk = func(v reflect.Value) {
		switch v.Kind() {
		case reflect.Pointer:
			if v.IsNil() || seen[v.Pointer()] {
				return
			}
			seen[v.Pointer()] = true
			walk(v.Elem())
		case reflect.Interface:
			if !v.IsNil() {
				walk(v.Elem())
			}
		case reflect.Struct:
			if v.Type() == posType {
				if !v.CanSet() {
					return
				}
				if p := v.Interface().(plan.Pos); p.File == file && p.IsValid() {
					v.Set(reflect.ValueOf(s.PosAt(p.Line, p.Col)))
				}
				return
			}
			for i := range v.NumField() {
				walk(v.Field(i))
			}
		case reflect.Slice, reflect.Array:
			for i := range v.Len() {
				walk(v.Index(i))
			}
		}
	}
	walk(reflect.ValueOf(v))
}
