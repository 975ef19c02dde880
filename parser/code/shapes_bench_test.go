package code

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/bucketlint/bucketlint/internal/cputime"
)

// loopCPU runs parse b.N times and reports, besides the wall-clock figures, the bytes parsed
// per CPU-second of the whole process (the collector's work included), which a loaded machine
// distorts far less than wall-clock time. $BUCKETLINT_BENCH_OUT, when set, names a directory
// that receives the bytes parsed, as name, for a peer (gzip -c, cat, wc -l) to be timed on.
func loopCPU(b *testing.B, name string, src []byte, parse func()) {
	b.Helper()
	if dir := os.Getenv("BUCKETLINT_BENCH_OUT"); dir != "" {
		if err := os.WriteFile(filepath.Join(dir, name), src, 0o600); err != nil {
			b.Fatal(err)
		}
	}
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	cpu0 := cputime.Process()
	for b.Loop() {
		parse()
	}
	if cpu := (cputime.Process() - cpu0).Seconds(); cpu > 0 {
		b.ReportMetric(float64(len(src))*float64(b.N)/cpu/1e6, "MB/cpu-s")
	}
}

// codeShapes are adversarial Python, Scala and Java inputs of about 1 MB each, every one
// below the parser's limits so that all of it is read: one line of 100,000 column names,
// one line of many statements, brackets nested one level short of maxDepth, operator and
// method chains one link short of maxHeight, and a long string literal.
func codeShapes() map[string]string {
	var cols, scalaCols, javaCols strings.Builder
	cols.WriteString(`df = spark.table("t").select(`)
	scalaCols.WriteString(`val df = spark.table("t").select(`)
	javaCols.WriteString("class A {\n  void f(SparkSession spark) {\n    Dataset<Row> df = spark.table(\"t\").select(")
	for i := range 100_000 {
		sep := ", "
		if i == 0 {
			sep = ""
		}
		fmt.Fprintf(&cols, `%s"c%d"`, sep, i)
		fmt.Fprintf(&scalaCols, `%scol("c%d")`, sep, i)
		fmt.Fprintf(&javaCols, `%scol("c%d")`, sep, i)
	}
	cols.WriteString(")\ndf.write.bucketBy(8, \"c1\").saveAsTable(\"out\")\n")
	scalaCols.WriteString(")\ndf.write.bucketBy(8, \"c1\").saveAsTable(\"out\")\n")
	javaCols.WriteString(");\n    df.write().bucketBy(8, \"c1\").saveAsTable(\"out\");\n  }\n}\n")
	repeat := func(line string) string {
		return strings.Repeat(line, (1<<20)/len(line)+1)
	}
	var stmts strings.Builder
	for i := 0; stmts.Len() < 1<<20; i++ {
		fmt.Fprintf(&stmts, `a%[1]d = spark.table("t%[1]d"); b%[1]d = a%[1]d.join(spark.table("u"), "k"); `, i)
	}
	stmts.WriteString("\n")
	return map[string]string{
		"py_many_columns":     cols.String(),
		"scala_many_columns":  scalaCols.String(),
		"java_many_columns":   javaCols.String(),
		"py_long_line":        stmts.String(),
		"py_deep_nesting":     repeat("x = " + strings.Repeat("(", maxDepth/2-1) + "a" + strings.Repeat(")", maxDepth/2-1) + "\n"),
		"scala_deep_nesting":  repeat("val x = " + strings.Repeat("f(", maxDepth/2-1) + "a" + strings.Repeat(")", maxDepth/2-1) + "\n"),
		"py_operator_chain":   repeat("x = a" + strings.Repeat(" + a", maxHeight-2) + "\n"),
		"scala_method_chain":  repeat("val x = df" + strings.Repeat(".f()", maxHeight/2-2) + "\n"),
		"py_long_string":      "q = \"\"\"" + strings.Repeat("SELECT k, v FROM t WHERE v > 1 -- \"quoted\" 'text'\n", (1<<20)/48) + "\"\"\"\n",
		"scala_long_comments": repeat("/* a comment /* nested */ " + strings.Repeat("x", 60) + " */ // and a line one\n"),
	}
}

// BenchmarkParseShapes parses each adversarial shape (run with -cpu 1: MB/cpu-s is per core).
// Each must parse without an error: they are all below the limits.
func BenchmarkParseShapes(b *testing.B) {
	shapes := codeShapes()
	names := make([]string, 0, len(shapes))
	for name := range shapes {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		src := []byte(shapes[name])
		file := "shape." + strings.Split(name, "_")[0]
		b.Run(name, func(b *testing.B) {
			loopCPU(b, name, src, func() {
				if _, errs := Parse(file, src); len(errs) > 0 {
					b.Fatal(errs[0])
				}
			})
		})
	}
}

// A codeFile is a file's name and text.
type codeFile struct {
	name string
	text []byte
}

// realWorldCode reads the Python, Scala and Java files of the shared real-world projects
// ($BUCKETLINT_REALWORLD, else ../shared/realworld beside the checkout), by language.
func realWorldCode(b *testing.B) map[string][]codeFile {
	b.Helper()
	dir := os.Getenv("BUCKETLINT_REALWORLD")
	if dir == "" {
		dir = filepath.Join("..", "..", "..", "shared", "realworld")
	}
	files := map[string][]codeFile{}
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		ext := strings.TrimPrefix(filepath.Ext(path), ".")
		if ext != "py" && ext != "scala" && ext != "java" {
			return nil
		}
		text, err := os.ReadFile(path)
		files[ext] = append(files[ext], codeFile{path, text})
		return err
	})
	if err != nil || len(files) == 0 {
		b.Skipf("real-world copies not found in %s (set BUCKETLINT_REALWORLD): %v", dir, err)
	}
	return files
}

// BenchmarkParseRealWorld parses the real-world projects' code, every file of one language
// a pass (MB/cpu-s over their bytes; with $BUCKETLINT_BENCH_OUT their concatenation is
// written for the peers).
func BenchmarkParseRealWorld(b *testing.B) {
	files := realWorldCode(b)
	for _, lang := range []string{"py", "scala", "java"} {
		var all []byte
		for _, f := range files[lang] {
			all = append(all, f.text...)
		}
		b.Run(lang, func(b *testing.B) {
			if len(all) == 0 {
				b.Skip("no files")
			}
			loopCPU(b, "realworld."+lang, all, func() {
				for _, f := range files[lang] {
					_, _ = Parse(f.name, f.text) // a real file may hold what the reader reports
				}
			})
		})
	}
}
