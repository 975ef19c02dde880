package workload

import (
	"sort"

	"github.com/bucketlint/bucketlint/plan"
)

// A Session is one script read as one Spark session: a SQL file, a Python or Scala program
// with its spark.sql strings, a notebook. Its settings, table statements and temporary views
// apply in order, each from its own position on.
type Session struct {
	// File is the script's file, as positions name it.
	File string
	// Language is "sql", "python", "scala" or "notebook".
	Language string
	// confs are the session's settings in position order.
	confs []plan.Conf
	// events are what changes the catalogue the session sees, in position order.
	events []event
}

// Confs returns the session's settings (SET, spark.conf.set, .config(…), spark.sql("SET …")),
// in order.
func (s *Session) Confs() []plan.Conf { return s.confs }

// An event is one step of a session that changes its catalogue: a table statement, a CREATE
// VIEW, or a temporary view registered from a DataFrame.
type event struct {
	pos   plan.Pos
	table *plan.TableEvent
	view  *plan.Query
	temp  *plan.TempView
}

// scriptLanguage returns the language of a file as a session, "" for a file that configures
// every session (spark-defaults.conf, a spark-submit script) or is not a script.
func scriptLanguage(p *plan.Project) map[string]string {
	lang := map[string]string{}
	for _, cf := range p.Code {
		switch {
		case cf.Language == "conf" || cf.Language == "shell":
			lang[cf.File] = ""
		case cf.Notebook != "":
			lang[cf.File] = "notebook"
		default:
			lang[cf.File] = cf.Language
		}
	}
	return lang
}

// buildSessions groups the project's settings and table statements by script. Settings of
// files that configure every application are returned apart, in file order.
func buildSessions(p *plan.Project) (map[string]*Session, []plan.Conf) {
	lang := scriptLanguage(p)
	sessions := map[string]*Session{}
	session := func(file string) *Session {
		s := sessions[file]
		if s == nil {
			l, ok := lang[file]
			if !ok {
				l = "sql"
			}
			s = &Session{File: file, Language: l}
			sessions[file] = s
		}
		return s
	}
	var global []plan.Conf
	for _, c := range projectConfs(p) {
		if l, known := lang[c.Pos.File]; c.Pos.File == "" || known && l == "" {
			global = append(global, c)
			continue
		}
		s := session(c.Pos.File)
		s.confs = append(s.confs, c)
	}
	for i := range p.TableEvents {
		e := &p.TableEvents[i]
		if e.Pos.File != "" {
			s := session(e.Pos.File)
			s.events = append(s.events, event{pos: e.Pos, table: e})
		}
	}
	for _, q := range p.Queries {
		if q.View && q.Target != "" && q.Span.Start.File != "" {
			s := session(q.Span.Start.File)
			s.events = append(s.events, event{pos: q.Span.Start, view: q})
		}
	}
	for _, cf := range p.Code {
		for _, v := range cf.TempViews {
			s := session(cf.File)
			s.events = append(s.events, event{pos: v.Span.Start, temp: v})
		}
	}
	for _, s := range sessions {
		sort.SliceStable(s.confs, func(i, j int) bool { return s.confs[i].Pos.Before(s.confs[j].Pos) })
		sort.SliceStable(s.events, func(i, j int) bool { return s.events[i].pos.Before(s.events[j].pos) })
	}
	return sessions, global
}

// projectConfs returns every setting of the project once: those of SQL and conf files and of
// SQL strings, then those of code. The loader lists a code file's settings in both places.
func projectConfs(p *plan.Project) []plan.Conf {
	seen := map[plan.Conf]bool{}
	var out []plan.Conf
	add := func(cs []plan.Conf) {
		for _, c := range cs {
			if !seen[c] {
				seen[c] = true
				out = append(out, c)
			}
		}
	}
	add(p.Confs)
	for _, cf := range p.Code {
		add(cf.Confs)
	}
	return out
}

// reaches reports whether something at position at, in the same file, is in force at pos: it
// comes first, or at the same place (a setting on the line of the statement it precedes).
func reaches(at, pos plan.Pos) bool {
	return at.File == pos.File && !pos.Before(at)
}

// inScope reports whether the setting confs[i] of a session, which comes before pos, is still
// in force there: a setting for a block (plan.Conf.Until) ends with the block, and so does a
// later setting of the same key inside that block, since the block's end restores the value
// the key had before the block (Spark's withSQLConf). confs are in position order.
func inScope(confs []plan.Conf, i int, pos plan.Pos) bool {
	c := confs[i]
	if c.Until.IsValid() && !pos.Before(c.Until) {
		return false
	}
	for _, o := range confs[:i] {
		if o.Key == c.Key && o.Until.IsValid() && c.Pos.Before(o.Until) && !pos.Before(o.Until) {
			return false
		}
	}
	return true
}

// precedes reports whether a statement at position at ran before the one at pos.
func precedes(at, pos plan.Pos) bool {
	return at.File == pos.File && at.Before(pos)
}

// sortedSessions returns the sessions in file order.
func sortedSessions(m map[string]*Session) []*Session {
	out := make([]*Session, 0, len(m))
	for _, s := range m {
		out = append(out, s)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].File < out[j].File })
	return out
}
