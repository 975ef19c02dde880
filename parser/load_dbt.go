package parser

import (
	"bytes"
	"fmt"
	"path"
	"sort"

	"github.com/bucketlint/bucketlint/internal/readcap"
	"github.com/bucketlint/bucketlint/parser/dbt"
	"github.com/bucketlint/bucketlint/parser/perr"
	"github.com/bucketlint/bucketlint/parser/sql"
	"github.com/bucketlint/bucketlint/plan"
)

// attachDbt finds the dbt projects among the inputs (each dbt_project.yml), reads their
// property files, and marks each model for parseDbtModel and each macro, test, snapshot or
// analysis as skipped. It returns a note per project that skipped files, and the errors of
// dbt_project.yml files that could not be read.
func attachDbt(files []input, limit int64) ([]plan.Note, perr.List) {
	var projects []*dbt.Project
	var errs perr.List
	for _, in := range files {
		if path.Base(in.name) != "dbt_project.yml" {
			continue
		}
		src, err := readInput(in, limit)
		if err != nil {
			continue // parseInput reports it
		}
		p, perrs := dbt.ReadProject(in.name, src)
		errs = append(errs, perrs...)
		if p != nil {
			projects = append(projects, p)
		}
	}
	if len(projects) == 0 {
		return nil, errs
	}
	// The innermost project owns a file (an installed package inside another project).
	sort.SliceStable(projects, func(i, j int) bool { return len(projects[i].Dir) > len(projects[j].Dir) })
	skipped := map[*dbt.Project]int{}
	for i := range files {
		in := &files[i]
		for _, p := range projects {
			role := p.Role(in.name)
			if role == dbt.Outside {
				continue
			}
			switch role {
			case dbt.ModelFile:
				in.dbt = p
			case dbt.PropertyFile:
				if src, err := readInput(*in, limit); err == nil && !readcap.Binary(src) {
					p.AddProperties(in.name, src)
				}
			case dbt.Skipped:
				in.kind = kindNone
				skipped[p]++
			}
			break
		}
	}
	var notes []plan.Note
	for _, p := range projects {
		if n := skipped[p]; n > 0 {
			notes = append(notes, plan.Note{
				Pos:  plan.Pos{File: path.Join(p.Dir, "dbt_project.yml"), Line: 1, Col: 1},
				Text: fmt.Sprintf("dbt project %s: %d macro, test, snapshot or analysis files are Jinja templates dbt expands, not SQL Spark runs: not read", p.Name, n),
			})
		}
	}
	return notes, errs
}

// readInput returns an input's content, of at most limit bytes.
func readInput(in input, limit int64) ([]byte, error) {
	if in.src != nil {
		return in.src, nil
	}
	return readcap.File(in.path, limit)
}

// parseDbtModel reads a dbt model as the statement dbt sends for it. Errors in a model whose
// Jinja was not all understood are a note: the text parsed is not the SQL dbt compiles.
func parseDbtModel(sqlp *sql.Parser, r *result, src []byte) {
	m := r.dbt.Model(r.file, src)
	r.notes = append(r.notes, m.Notes...)
	if m.Statement == nil {
		return
	}
	f, errs := sqlp.ParseSession(r.file, []byte(m.Statement.Text), "")
	remap(f, r.file, m.Statement)
	remap(&errs, r.file, m.Statement)
	if m.Opaque && len(errs) > 0 {
		r.notes = append(r.notes, plan.Note{Pos: errs[0].Pos, Text: "dbt model " + m.Name + " holds Jinja bucketlint does not expand and does not parse without it (" + errs[0].Msg + "): not read"})
		return
	}
	r.errs = append(r.errs, errs...)
	for _, t := range f.Tables {
		t.DBTModel = true
	}
	r.addSQL(f, rankDDL)
}

// isMacroFile reports a SQL file that defines Jinja macros, tests or materializations: dbt
// expands it, Spark never reads it as written.
func isMacroFile(src []byte) bool {
	for _, tag := range []string{"macro", "materialization", "test", "snapshot"} {
		for _, open := range []string{"{% " + tag + " ", "{%- " + tag + " ", "{%" + tag + " "} {
			if bytes.Contains(src, []byte(open)) {
				return true
			}
		}
	}
	return false
}
