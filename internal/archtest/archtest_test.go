package archtest

import (
	"go/ast"
	"go/token"
	"go/types"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"golang.org/x/tools/go/packages"
)

const module = "github.com/bucketlint/bucketlint"

// TestNoTextParsingOutsideParser checks every non-test Go file outside parser/ for the
// three ways text gets parsed: importing a text-matching or tokenizing package, declaring a
// parser or tokenizer, and inspecting the printed text the model keeps of an expression
// (plan's Raw and Text fields and the other as-written strings) with strings functions.
// What is allowed is listed below with the reason; an allowance that no longer matches
// anything fails the test too, so the lists stay exact.
func TestNoTextParsingOutsideParser(t *testing.T) {
	if testing.Short() {
		t.Skip("type-checks the whole module")
	}
	// go test caches a result by the files the test opens; go/packages reads the sources in
	// a go list process, so open each of them here to make every edit re-run the test.
	touchSources(t, "../..")
	cfg := &packages.Config{
		Mode: packages.NeedName | packages.NeedFiles | packages.NeedSyntax | packages.NeedTypes |
			packages.NeedTypesInfo | packages.NeedImports,
		Dir: "../..",
		// The engine build: a superset of the light one but for cmd/bucketlint/engine_none.go,
		// which parses nothing.
		BuildFlags: []string{"-tags", "engine"},
	}
	pkgs, err := packages.Load(cfg, module+"/...")
	if err != nil {
		t.Fatal(err)
	}
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	c := &checker{used: map[string]bool{}, rootBase: filepath.Base(root)}
	for _, p := range pkgs {
		for _, e := range p.Errors {
			t.Errorf("%s: %v", p.PkgPath, e)
		}
		rel := strings.TrimPrefix(strings.TrimPrefix(p.PkgPath, module), "/")
		if rel == "parser" || strings.HasPrefix(rel, "parser/") || rel == "internal/archtest" {
			continue
		}
		for _, f := range p.Syntax {
			c.file(p, rel, p.Fset.Position(f.Pos()).Filename, f)
		}
	}
	sort.Strings(c.problems)
	for _, pr := range c.problems {
		t.Error(pr)
	}
	for _, list := range []map[string]string{allowedImports, allowedDecls, allowedReads} {
		for k := range list {
			if !c.used[k] {
				t.Errorf("allowance %q matches nothing any more; remove it", k)
			}
		}
	}
}

// forbiddenImports are packages that match or tokenize text.
var forbiddenImports = []string{"regexp", "text/scanner", "go/scanner", "github.com/alecthomas/participle"}

// allowedImports are the files outside parser/ that may import them, by path, and why.
var allowedImports = map[string]string{
	"engine/store/layout.go": "matches the file names of Spark and Hive bucket files (part-…_00003.c000…, 000003_0), not expression text",
}

// allowedDecls are the functions outside parser/ whose names say they parse or tokenize,
// by package and name, and what they read instead of SQL, explain or expression text.
var allowedDecls = map[string]string{
	"simulate.ParseVersion":            "a Spark version number (3.5.1), from a flag or config",
	"simulate.ParseBytes":              "a Spark conf byte size (10MB)",
	"rules.ParseSeverity":              "a severity name from a flag or config",
	"engine/hash.ParseType":            "a Spark type name, canonical (plan.CanonicalType) or from --type",
	"engine/hash.parseType":            "a Spark type name (ParseType)",
	"engine/hash.parseDecimalParams":   "the (p,s) of a decimal type name (ParseType)",
	"engine/hash.ParseValue":           "one value of a data row or of the hash command's arguments",
	"engine/hash.ParseValueIn":         "one value of a data row, in a time zone (ParseValue)",
	"engine/hash.parseValue":           "one value (ParseValue)",
	"engine/hash.parseBool":            "one value (ParseValue)",
	"engine/hash.parseInt":             "one value (ParseValue)",
	"engine/hash.parseFloat":           "one value (ParseValue)",
	"engine/hash.parseString":          "one value (ParseValue)",
	"engine/hash.parseBinary":          "one value (ParseValue)",
	"engine/hash.parseDecimal":         "one value (ParseValue)",
	"engine/hash.parseDate":            "one date value (ParseValue)",
	"engine/hash.parseTimestamp":       "one timestamp value (ParseValue)",
	"engine/store.ParseSchema":         "a data file's schema declaration (name:type, …)",
	"engine/store.parser":              "returns the bucket-file-name reader of a bucketing",
	"engine/verify.ParseScenario":      "a verify scenario file (YAML)",
	"engine/verify.parseChecksum":      "the rows of a checksum query's result",
	"cmd/bucketlint.parseFlags":        "command-line flags",
	"cmd/bucketlint.parseInterspersed": "command-line flags and paths",
	"cmd/bucketlint.parseCheck":        "the check command's flags",
	"cmd/bucketlint.parseEvidence":     "the evidence command's flags",
	"cmd/bucketlint.parsePlan":         "the plan command's flags",
	"cmd/bucketlint.parseTables":       "the tables command's flags",
	"cmd/bucketlint.parseSimulate":     "the simulate command's flags",
	"cmd/bucketlint.parseAdvise":       "the advise command's flags",
	"cmd/bucketlint.parseVerify":       "the verify command's flags",
	"cmd/bucketlint.parseHash":         "the hash command's flags",
	"cmd/bucketlint.parseRules":        "the rules command's flags",
	"cmd/bucketlint.parseExplain":      "the explain command's flags",
	"cmd/bucketlint.parseConfig":       "the .bucketlint.yaml configuration (YAML)",
}

// tokenizerWords are parts of a declared name that say it reads text, beside a "parse"
// prefix; old re-parsers' names are among them so that none comes back.
var tokenizerWords = []string{
	"tokeni", "lexer", "lexeme", "scanner", "identifiers", "splitand", "splitalias",
	"splitequality", "splititem", "unqualify", "funcname", "plaincolumn",
}

// textFields are the fields of plan that hold expressions or statements as written or
// printed: reading them with strings' search and split functions is parsing.
var textFields = map[string][]string{
	"Expr":            {"Raw", "Text"},
	"ExprParts":       {"Text"},
	"X":               {"Raw"},
	"ColumnRef":       {"Text"},
	"Select":          {"Items", "Where", "Having", "Limit"},
	"JoinSpec":        {"Condition", "Residual"},
	"WindowSpec":      {"Args"},
	"Hint":            {"Args"},
	"KeyFilter":       {"Values"},
	"Query":           {"Text"},
	"Relation":        {"Text"},
	"Table":           {"PartitionTransforms"},
	"OpInfo":          {"Args", "Text"},
	"Generic":         {"Args"},
	"Partitioning":    {"Raw"},
	"CodeJoin":        {"On", "Residual"},
	"Write":           {"BucketCountExpr", "TargetExpr"},
	"Read":            {"Expr"},
	"RepartitionCall": {"NExpr"},
	"FrameRef":        {"Text"},
	"SQLString":       {"Text"},
}

// inspecting are the strings functions that look into text.
var inspecting = map[string]bool{
	"Contains": true, "ContainsAny": true, "ContainsRune": true, "ContainsFunc": true,
	"HasPrefix": true, "HasSuffix": true, "Index": true, "IndexAny": true, "IndexByte": true,
	"IndexRune": true, "IndexFunc": true, "LastIndex": true, "LastIndexAny": true,
	"LastIndexByte": true, "LastIndexFunc": true, "Cut": true, "CutPrefix": true,
	"CutSuffix": true, "Split": true, "SplitN": true, "SplitAfter": true, "SplitAfterN": true,
	"Fields": true, "FieldsFunc": true, "TrimPrefix": true, "TrimSuffix": true, "Count": true,
	"EqualFold": true,
}

// wrapping are the strings functions whose result is still the text they were given.
var wrapping = map[string]bool{"ToLower": true, "ToUpper": true, "TrimSpace": true, "Trim": true, "TrimLeft": true, "TrimRight": true}

// allowedReads are the places outside parser/ that inspect such text, by package, function
// and field, and why it is not parsing.
var allowedReads = map[string]string{
	"advise.Merged:Query.Text": "merges repeated statements by their text with case and blanks folded: an identity " +
		"of texts, no structure is read",
	"engine/verify.nameOffsets:Relation.Text": "checks that a scan's text stands at the position the parser recorded " +
		"before a renamed table is spliced in: compares text at a position, reads no structure",
	"engine/verify.viewEdit:Relation.Text": "checks that a view scan's text stands at the position the parser recorded " +
		"before the view's definition is spliced in: compares text at a position, reads no structure",
	"engine/exec.resolve:Expr.Text": "finds the output column Spark names after an aggregate expression's printed text " +
		"(count(1)): compares whole names, reads no structure",
}

// touchSources stats every Go file and go.mod under root.
func touchSources(t *testing.T, root string) {
	t.Helper()
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".")) && path != root {
			return filepath.SkipDir
		}
		if !d.IsDir() && (strings.HasSuffix(path, ".go") || d.Name() == "go.mod") {
			_, err = os.Stat(path)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
}

type checker struct {
	problems []string
	used     map[string]bool
	// rootBase is the module directory's name, cut from the file names reported.
	rootBase string
}

func (c *checker) add(pos token.Position, format string, args ...any) {
	if i := strings.Index(pos.Filename, "/"+c.rootBase+"/"); c.rootBase != "" && i >= 0 {
		pos.Filename = pos.Filename[i+len(c.rootBase)+2:]
	}
	c.problems = append(c.problems, pos.String()+": "+sprintf(format, args...))
}

func (c *checker) file(p *packages.Package, rel, name string, f *ast.File) {
	file := rel + "/" + filepath.Base(name)
	for _, imp := range f.Imports {
		path := strings.Trim(imp.Path.Value, `"`)
		for _, bad := range forbiddenImports {
			if path != bad && !strings.HasPrefix(path, bad+"/") {
				continue
			}
			if _, ok := allowedImports[file]; ok {
				c.used[file] = true
				continue
			}
			c.add(p.Fset.Position(imp.Pos()), "imports %s: text is parsed in parser/ only (allow it in allowedImports with a reason if it reads no SQL, explain or expression text)", path)
		}
	}
	for _, d := range f.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok {
			continue
		}
		c.decl(p, rel, fd)
		if fd.Body != nil {
			c.body(p, rel, fd)
		}
	}
}

// decl checks a function's name.
func (c *checker) decl(p *packages.Package, rel string, fd *ast.FuncDecl) {
	name := fd.Name.Name
	low := strings.ToLower(name)
	suspect := strings.HasPrefix(low, "parse")
	for _, w := range tokenizerWords {
		suspect = suspect || strings.Contains(low, w)
	}
	if !suspect {
		return
	}
	key := rel + "." + name
	if _, ok := allowedDecls[key]; ok {
		c.used[key] = true
		return
	}
	c.add(p.Fset.Position(fd.Pos()), "%s declares a parser or tokenizer outside parser/ (allow it in allowedDecls with what it reads if that is no SQL, explain or expression text)", key)
}

// body checks the strings calls of a function for reads of plan's text fields.
func (c *checker) body(p *packages.Package, rel string, fd *ast.FuncDecl) {
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok || !isStrings(p.TypesInfo, call, inspecting) {
			return true
		}
		for _, a := range call.Args {
			field, ok := textField(p.TypesInfo, a)
			if !ok {
				continue
			}
			key := rel + "." + fd.Name.Name + ":" + field
			if _, ok := allowedReads[key]; ok {
				c.used[key] = true
				continue
			}
			c.add(p.Fset.Position(call.Pos()), "%s inspects plan.%s with strings.%s: read the tree instead (or allow it in allowedReads with why it is not parsing)",
				rel+"."+fd.Name.Name, field, calleeName(call))
		}
		return true
	})
}

// isStrings reports whether call calls one of the named functions of package strings.
func isStrings(info *types.Info, call *ast.CallExpr, names map[string]bool) bool {
	sel, ok := call.Fun.(*ast.SelectorExpr)
	if !ok {
		return false
	}
	fn, ok := info.Uses[sel.Sel].(*types.Func)
	return ok && fn.Pkg() != nil && fn.Pkg().Path() == "strings" && names[fn.Name()]
}

func calleeName(call *ast.CallExpr) string {
	if sel, ok := call.Fun.(*ast.SelectorExpr); ok {
		return sel.Sel.Name
	}
	return "?"
}

// textField reports whether e is one of plan's text fields (possibly indexed, lower-cased or
// trimmed), naming it as Type.Field. A method without arguments of the same name (Expr's
// Text(), which reads an expression on first use) counts as the field.
func textField(info *types.Info, e ast.Expr) (string, bool) {
	kind := types.FieldVal
	for {
		switch x := e.(type) {
		case *ast.ParenExpr:
			e = x.X
			continue
		case *ast.IndexExpr:
			e = x.X
			continue
		case *ast.CallExpr:
			if isStrings(info, x, wrapping) && len(x.Args) > 0 {
				e = x.Args[0]
				continue
			}
			if sel, ok := x.Fun.(*ast.SelectorExpr); ok && len(x.Args) == 0 && kind == types.FieldVal {
				e, kind = sel, types.MethodVal
			}
		}
		break
	}
	sel, ok := e.(*ast.SelectorExpr)
	if !ok {
		return "", false
	}
	s, ok := info.Selections[sel]
	if !ok || s.Kind() != kind {
		return "", false
	}
	recv := s.Recv()
	if p, ok := recv.(*types.Pointer); ok {
		recv = p.Elem()
	}
	named, ok := recv.(*types.Named)
	if !ok {
		return "", false
	}
	// The field may be promoted from an embedded struct (OpInfo in every operator).
	owner := named
	if len(s.Index()) > 1 {
		if o, ok := ownerOf(named, s.Index()); ok {
			owner = o
		}
	}
	if owner.Obj().Pkg() == nil || owner.Obj().Pkg().Path() != module+"/plan" {
		return "", false
	}
	for _, f := range textFields[owner.Obj().Name()] {
		if f == sel.Sel.Name {
			return owner.Obj().Name() + "." + f, true
		}
	}
	return "", false
}

// ownerOf returns the named struct type that declares the field at path index in t.
func ownerOf(t *types.Named, index []int) (*types.Named, bool) {
	cur := t
	for _, i := range index[:len(index)-1] {
		st, ok := cur.Underlying().(*types.Struct)
		if !ok {
			return nil, false
		}
		ft := st.Field(i).Type()
		if p, ok := ft.(*types.Pointer); ok {
			ft = p.Elem()
		}
		n, ok := ft.(*types.Named)
		if !ok {
			return nil, false
		}
		cur = n
	}
	return cur, true
}
