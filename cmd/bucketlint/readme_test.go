package main

import (
	"bytes"
	"os"
	"regexp"
	"strings"
	"testing"
)

// TestREADMEOutput runs every "$ bucketlint …" example pasted in README.md's text blocks from the
// repository root and checks the command still prints exactly what the README shows.
func TestREADMEOutput(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	blocks := regexp.MustCompile("(?s)```text\n\\$ bucketlint ([^\n]*)\n(.*?)```").FindAllSubmatch(readme, -1)
	if len(blocks) == 0 {
		t.Fatal("README.md has no ```text block starting with \"$ bucketlint\"")
	}
	t.Chdir("../..")
	for _, b := range blocks {
		args := strings.Fields(string(b[1]))
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			run(args, strings.NewReader(""), &stdout, &stderr)
			if got, want := stdout.String(), string(b[2]); got != want {
				t.Errorf("README shows\n%s\nbut the command prints\n%s%s", want, got, stderr.String())
			}
		})
	}
}
