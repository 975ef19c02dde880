package dbt

import (
	"path"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/bucketlint/bucketlint/parser/perr"
	"github.com/bucketlint/bucketlint/plan"
)

// A Project is one dbt project: the directory of its dbt_project.yml, its name, where its
// models and macros are, the configs set in dbt_project.yml and property files, and its
// sources.
type Project struct {
	// Dir is the project's directory, slash-separated, "" for the current one.
	Dir  string
	Name string
	// ModelPaths and MacroPaths are relative to Dir (dbt's defaults: models, macros); Other
	// are the other resource paths (tests, snapshots, analyses, seeds).
	ModelPaths, MacroPaths, Other []string
	// folders are the configs of dbt_project.yml's models: block.
	folders *node
	// models are the configs of property files, by model name.
	models map[string]Config
	// sources maps "source.table" to the relation dbt reads: schema.identifier.
	sources map[string]string
}

// A node is one level of dbt_project.yml's models: tree: the configs set at it and the
// folders (or models) below it.
type node struct {
	config Config
	kids   map[string]*node
}

// ReadProject reads a dbt_project.yml. file is its slash-separated name.
func ReadProject(file string, src []byte) (*Project, perr.List) {
	var errs perr.List
	p := &Project{Dir: path.Dir(file), models: map[string]Config{}, sources: map[string]string{}}
	if p.Dir == "." {
		p.Dir = ""
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(src, &doc); err != nil || len(doc.Content) == 0 || doc.Content[0].Kind != yaml.MappingNode {
		errs.Add(plan.Pos{File: file, Line: 1, Col: 1}, "dbt_project.yml is not a YAML mapping; the dbt project is not read")
		return nil, errs
	}
	root := doc.Content[0]
	p.Name = scalar(value(root, "name"))
	p.ModelPaths = strings0(value(root, "model-paths"), value(root, "source-paths"), "models")
	p.MacroPaths = strings0(value(root, "macro-paths"), nil, "macros")
	for _, k := range []string{"test-paths", "snapshot-paths", "analysis-paths", "seed-paths", "docs-paths"} {
		def := map[string]string{"test-paths": "tests", "snapshot-paths": "snapshots", "analysis-paths": "analyses", "seed-paths": "seeds"}[k]
		p.Other = append(p.Other, strings0(value(root, k), nil, def)...)
	}
	p.folders = readNode(file, value(root, "models"))
	return p, errs
}

// value returns the value of key in mapping n, nil when absent.
func value(n *yaml.Node, key string) *yaml.Node {
	if n == nil || n.Kind != yaml.MappingNode {
		return nil
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == key {
			return n.Content[i+1]
		}
	}
	return nil
}

func scalar(n *yaml.Node) string {
	if n == nil || n.Kind != yaml.ScalarNode {
		return ""
	}
	return n.Value
}

// strings0 reads a list of strings (or one string), from n or else alt, else def.
func strings0(n, alt *yaml.Node, def string) []string {
	if n == nil {
		n = alt
	}
	var out []string
	switch {
	case n == nil:
	case n.Kind == yaml.ScalarNode:
		out = append(out, n.Value)
	case n.Kind == yaml.SequenceNode:
		for _, e := range n.Content {
			if e.Kind == yaml.ScalarNode {
				out = append(out, strings.Trim(e.Value, "/"))
			}
		}
	}
	if len(out) == 0 && def != "" {
		out = []string{def}
	}
	return out
}

// readNode reads one level of the models: tree: "+key" and known keys are configs, other
// mapping keys are folders or models.
func readNode(file string, n *yaml.Node) *node {
	out := &node{config: Config{}, kids: map[string]*node{}}
	if n == nil || n.Kind != yaml.MappingNode {
		return out
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		key := strings.TrimPrefix(k.Value, "+")
		switch {
		case (strings.HasPrefix(k.Value, "+") || v.Kind != yaml.MappingNode) && known(key):
			out.config[key] = yamlValue(file, k, v)
		case v.Kind == yaml.MappingNode && !strings.HasPrefix(k.Value, "+"):
			out.kids[k.Value] = readNode(file, v)
		}
	}
	return out
}

// yamlValue turns a YAML scalar or sequence of scalars into a Value.
func yamlValue(file string, k, v *yaml.Node) Value {
	out := Value{Pos: plan.Pos{File: file, Line: k.Line, Col: k.Column}}
	item := func(e *yaml.Node) Item {
		col := e.Column
		if e.Style&(yaml.SingleQuotedStyle|yaml.DoubleQuotedStyle) != 0 {
			col++
		}
		return Item{Text: e.Value, Pos: plan.Pos{File: file, Line: e.Line, Col: col}}
	}
	switch v.Kind {
	case yaml.ScalarNode:
		out.Items = []Item{item(v)}
	case yaml.SequenceNode:
		for _, e := range v.Content {
			if e.Kind != yaml.ScalarNode {
				out.Other = true
				return out
			}
			out.Items = append(out.Items, item(e))
		}
	default:
		out.Other = true
	}
	return out
}

// AddProperties reads a property file (schema.yml and the like) of the project: the config
// blocks of its models and its sources. A file that is not YAML adds nothing.
func (p *Project) AddProperties(file string, src []byte) {
	var doc yaml.Node
	if yaml.Unmarshal(src, &doc) != nil || len(doc.Content) == 0 {
		return
	}
	root := doc.Content[0]
	if ms := value(root, "models"); ms != nil && ms.Kind == yaml.SequenceNode {
		for _, m := range ms.Content {
			name := scalar(value(m, "name"))
			if name == "" {
				continue
			}
			c := p.models[name]
			if c == nil {
				c = Config{}
			}
			c.merge(readNode(file, value(m, "config")).config)
			p.models[name] = c
		}
	}
	if ss := value(root, "sources"); ss != nil && ss.Kind == yaml.SequenceNode {
		for _, s := range ss.Content {
			p.addSource(s)
		}
	}
}

// addSource records a source's tables: dbt reads schema.identifier, the schema defaulting to
// the source's name and the identifier to the table's.
func (p *Project) addSource(s *yaml.Node) {
	name := scalar(value(s, "name"))
	schema := scalar(value(s, "schema"))
	if schema == "" {
		schema = name
	}
	ts := value(s, "tables")
	if name == "" || ts == nil || ts.Kind != yaml.SequenceNode {
		return
	}
	for _, t := range ts.Content {
		tn := scalar(value(t, "name"))
		id := scalar(value(t, "identifier"))
		if id == "" {
			id = tn
		}
		if tn != "" {
			p.sources[name+"."+tn] = strings.ToLower(schema + "." + id)
		}
	}
}

// A Role is what a file of a project is to dbt.
type Role int

// The roles.
const (
	// Outside is a file outside the project's resource paths.
	Outside Role = iota
	// ModelFile is a model (a .sql file under a model path).
	ModelFile
	// PropertyFile is a .yml or .yaml file under a model path.
	PropertyFile
	// Skipped is a macro, test, snapshot, analysis or seed file.
	Skipped
)

// Role says what file (slash-separated, as walked) is to the project.
func (p *Project) Role(file string) Role {
	rel, ok := p.rel(file)
	if !ok {
		return Outside
	}
	ext := strings.ToLower(path.Ext(rel))
	for _, mp := range p.ModelPaths {
		if under(rel, mp) {
			switch ext {
			case ".sql":
				return ModelFile
			case ".yml", ".yaml":
				return PropertyFile
			}
			return Outside
		}
	}
	for _, d := range append(append([]string{}, p.MacroPaths...), p.Other...) {
		if under(rel, d) && ext == ".sql" {
			return Skipped
		}
	}
	return Outside
}

// rel returns file relative to the project's directory.
func (p *Project) rel(file string) (string, bool) {
	if p.Dir == "" {
		return file, !strings.HasPrefix(file, "../") && !strings.HasPrefix(file, "/")
	}
	return strings.CutPrefix(file, p.Dir+"/")
}

// under reports whether rel lies in directory dir.
func under(rel, dir string) bool {
	dir = strings.Trim(path.Clean(dir), "/")
	return dir == "." || strings.HasPrefix(rel, dir+"/")
}

// config returns the configuration of the model in file: dbt_project.yml's folders from the
// project down to the model, then the property files, then the model's own config call.
func (p *Project) config(file string, own Config) Config {
	out := Config{}
	rel, _ := p.rel(file)
	for _, mp := range p.ModelPaths {
		if r, ok := strings.CutPrefix(rel, strings.Trim(path.Clean(mp), "/")+"/"); ok {
			rel = r
			break
		}
	}
	name := strings.TrimSuffix(path.Base(rel), path.Ext(rel))
	fqn := append([]string{p.Name}, strings.Split(path.Dir(rel), "/")...)
	fqn = append(fqn, name)
	n := p.folders
	out.merge(n.config)
	for _, part := range fqn {
		if part == "." || n == nil {
			continue
		}
		if n = n.kids[part]; n != nil {
			out.merge(n.config)
		}
	}
	out.merge(p.models[name])
	out.merge(own)
	return out
}
