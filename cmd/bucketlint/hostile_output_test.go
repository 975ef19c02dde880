//go:build unix

package main

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"errors"
	"io"
	"os"
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/bucketlint/bucketlint/report"
)

// hostileRepo writes a repository whose file and table names try to drive the tools that
// read bucketlint's output: a GitHub workflow command after a line break, ANSI and OSC
// escapes, a C0 control, Markdown images and links, raw HTML, a backtick that would close a
// code span, the runner's older "##[" syntax, a bidirectional override and autolinks.
func hostileRepo(t *testing.T) {
	t.Helper()
	file := "ev`il<img src=x onerror=alert(1)>\x1b]0;title\x07![i](x.png)\n::error file=evil.yml::x.sql"
	t1 := "`y\n::error file=evil.yml::x ![img](http://evil/a.png) [link](http://evil) <b>html</b> \x1b[31mred\x01 ##[error]v1`"
	t2 := "`z\u202eabc www.evil.com a@evil.com </summary>`"
	sql := "CREATE TABLE " + t1 + " (k INT, v INT) USING parquet CLUSTERED BY (k) INTO 8 BUCKETS;\n" +
		"CREATE TABLE " + t2 + " (k INT, w INT) USING parquet CLUSTERED BY (k) INTO 16 BUCKETS;\n" +
		"SELECT * FROM " + t1 + " a JOIN " + t2 + " b ON a.k = b.k;\n"
	if err := os.WriteFile(file, []byte(sql), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile("broken\x1b[2J.sql", []byte("CREATE TABLE `\x1b]8;;http://evil\x07` (;\n"), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestHostileOutput runs check with every format over hostileRepo, to standard output and
// to a file, and validates each output for what reads it.
func TestHostileOutput(t *testing.T) {
	t.Chdir(t.TempDir())
	hostileRepo(t)
	for _, format := range report.Formats() {
		t.Run(format, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			code := runStreams(t.Context(), []string{"check", "--format", format, "--format", "json=out.json", "."},
				&streams{in: strings.NewReader(""), out: &stdout, err: &stderr})
			if code != exitParse {
				t.Fatalf("exit %d, want %d (a finding and a broken file)\n%s%s", code, exitParse, stdout.String(), stderr.String())
			}
			if !strings.Contains(stdout.String(), "bucket") {
				t.Fatalf("no finding reported:\n%s", stdout.String())
			}
			validateOutput(t, format, stdout.Bytes())
			validateOutput(t, "stderr", stderr.Bytes())
			file, err := os.ReadFile("out.json")
			if err != nil {
				t.Fatal(err)
			}
			validateOutput(t, "json", file)
		})
	}
	// The other commands print names too.
	for _, args := range [][]string{{"tables", "."}, {"tables", "--format", "json", "."}, {"advise", "."}, {"simulate", "--tables", ".", "."}} {
		var stdout, stderr bytes.Buffer
		runStreams(t.Context(), args, &streams{in: strings.NewReader(""), out: &stdout, err: &stderr})
		validateOutput(t, strings.Join(args, " "), stdout.Bytes())
		validateOutput(t, "stderr", stderr.Bytes())
	}
}

// githubCommand is the grammar of a workflow command line: properties free of ':' and ',',
// and nothing but escapes of line breaks and '%'.
var githubCommand = regexp.MustCompile(`^::(error|warning|notice)( [a-zA-Z]+=[^,:\r\n]*(,[a-zA-Z]+=[^,:\r\n]*)*)?::[^\r\n]*$`)

// validateOutput fails the test when out holds a raw control character, a line GitHub reads
// as a workflow command (other than the github format's own, which must follow the grammar),
// or what the format's reader would refuse or bring alive.
func validateOutput(t *testing.T, format string, out []byte) {
	t.Helper()
	if !utf8.Valid(out) {
		t.Errorf("%s: output is not UTF-8", format)
	}
	for _, r := range string(out) {
		if (r < 0x20 && r != '\n' && r != '\t') || r == 0x7f || (r >= 0x80 && r <= 0x9f) || (r >= 0x202a && r <= 0x202e) {
			t.Errorf("%s: raw control character %U in output:\n%s", format, r, out)
			return
		}
	}
	for _, line := range strings.Split(strings.TrimSuffix(string(out), "\n"), "\n") {
		cmd := strings.HasPrefix(strings.TrimLeft(line, " \t"), "::")
		if format == "github" && !githubCommand.MatchString(line) || format != "github" && cmd {
			t.Errorf("%s: a workflow command not of bucketlint's making: %q", format, line)
		}
		if strings.Contains(line, "##[") {
			t.Errorf("%s: the runner's older command syntax: %q", format, line)
		}
	}
	switch format {
	case "json", "sarif", "gitlab", "tables --format json":
		if !json.Valid(out) {
			t.Errorf("%s: not valid JSON:\n%s", format, out)
		}
	case "rdjsonl":
		for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
			if !json.Valid([]byte(line)) {
				t.Errorf("rdjsonl: not valid JSON: %s", line)
			}
		}
	case "junit", "checkstyle":
		dec := xml.NewDecoder(bytes.NewReader(out))
		for {
			_, err := dec.Token()
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				t.Errorf("%s: not well-formed XML: %v\n%s", format, err, out)
				break
			}
		}
	case "markdown":
		if bad := liveMarkdown(string(out)); bad != "" {
			t.Errorf("markdown: input text comes alive: %s\n%s", bad, out)
		}
	}
}

// markdownTrusted are the HTML tags and links bucketlint's own Markdown writes.
var markdownTrusted = regexp.MustCompile(`^(<!-- bucketlint -->|</?details>|</?summary>|</?b>|</?sub>|\[About BL\d+\]\(https://github\.com/bucketlint/[^)\s]*\))`)

// liveMarkdown returns the first construct in md, outside code spans and fenced blocks, that
// a CommonMark or GitHub renderer would make into a link, an image, an autolink or HTML
// without bucketlint having written it; "" when there is none.
func liveMarkdown(md string) string {
	fenced := false
	for _, line := range strings.Split(md, "\n") {
		if strings.HasPrefix(strings.TrimLeft(line, " "), "```") {
			fenced = !fenced
			continue
		}
		if fenced {
			continue
		}
		if bad := liveInline(line); bad != "" {
			return bad
		}
	}
	return ""
}

func liveInline(line string) string {
	for i := 0; i < len(line); i++ {
		rest := line[i:]
		switch c := line[i]; {
		case c == '\\':
			i++ // an escaped character is text
		case c == '`':
			n := len(rest) - len(strings.TrimLeft(rest, "`"))
			end := strings.Index(rest[n:], rest[:n])
			for end >= 0 && n+end+n < len(rest) && rest[n+end+n] == '`' {
				next := strings.Index(rest[n+end+n:], rest[:n])
				if next < 0 {
					end = -1
					break
				}
				end += n + next
			}
			if end < 0 {
				return "an unclosed code span: " + rest
			}
			i += n + end + n - 1
		case c == '<' || c == '[' || c == '!' && strings.HasPrefix(rest, "!["):
			if m := markdownTrusted.FindString(rest); m != "" {
				i += len(m) - 1
				continue
			}
			return rest
		case strings.HasPrefix(rest, "://"), strings.HasPrefix(strings.ToLower(rest), "www."), c == '@':
			return rest
		case c == '&' && regexp.MustCompile(`^&[#a-zA-Z0-9]+;`).MatchString(rest):
			if !regexp.MustCompile(`^&(lt|gt|amp|quot|#39);`).MatchString(rest) {
				return rest
			}
		}
	}
	return ""
}

// TestOutputValidators checks the validators themselves: each catches what it is for.
func TestOutputValidators(t *testing.T) {
	for _, md := range []string{
		"a [link](http://evil) b", "![img](x.png)", "<img src=x>", "see http://evil", "www.evil.com",
		"a@evil.com", "`unclosed", "&#x3C;b&#x3E;", "``a`b` [x](y)`",
	} {
		if liveMarkdown(md) == "" {
			t.Errorf("liveMarkdown misses %q", md)
		}
	}
	for _, md := range []string{
		`a \[link\]\(http\://evil\) b`, "`` a`b <img> ``", "```\n<img>\n```", "<details><summary><b>BL301</b> x</summary>",
		"[About BL301](https://github.com/bucketlint/bucketlint/blob/main/docs/rules.md#bl301)", `www\.evil.com a\@b`,
	} {
		if bad := liveMarkdown(md); bad != "" {
			t.Errorf("liveMarkdown refuses %q at %q", md, bad)
		}
	}
	for _, line := range []string{"::error file=a,line=1::m", "::warning::m %0A ::x"} {
		if !githubCommand.MatchString(line) {
			t.Errorf("githubCommand refuses %q", line)
		}
	}
	for _, line := range []string{"::error file=a:b::m", "::set-output name=x::y", "::error file=a\n::error::x"} {
		if githubCommand.MatchString(line) {
			t.Errorf("githubCommand accepts %q", line)
		}
	}
}
