package main

import (
	"context"
	"errors"
	"time"

	"github.com/bucketlint/bucketlint/internal/lsp"
	"github.com/bucketlint/bucketlint/parser"
	"github.com/bucketlint/bucketlint/parser/sql"
	"github.com/bucketlint/bucketlint/rules"
)

// lspOptions are the flags of `bucketlint lsp`.
type lspOptions struct {
	common   commonFlags
	debounce time.Duration
}

func runLSPCmd(ctx context.Context, args []string, s *streams) error {
	opts := &lspOptions{}
	fs := newFlagSet("lsp", "[flags]",
		"Run the Language Server on standard input and output, for editors. Each workspace\n"+
			"folder is checked as 'bucketlint check' checks it, with its .bucketlint.yaml and the\n"+
			"editor's unsaved text; diagnostics, quick fixes and hovers follow (docs/editor.md).\n"+
			"Exit codes: 0 after the client's shutdown and exit, 1 when it exits without shutdown.",
		s, "bucketlint lsp", "bucketlint lsp --spark-version 3.3")
	opts.common.register(fs, false)
	fs.DurationVar(&opts.debounce, "debounce", lsp.DefaultDebounce, "pause after an edit before the workspace is re-checked")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usagef("lsp takes no arguments, got %d", fs.NArg())
	}
	if err := opts.common.check(); err != nil {
		return err
	}
	sqlp, err := sql.New()
	if err != nil {
		return err
	}
	c := &lspChecker{common: &opts.common, sql: sqlp}
	srv := lsp.New(lsp.Options{Check: c.check, Debounce: opts.debounce, Version: version, Log: s.rawErr})
	out := s.rawOut // protocol messages, never escaped for a terminal
	if out == nil {
		out = s.out
	}
	return srv.Serve(ctx, s.in, out)
}

// lspChecker checks a workspace folder for the language server as check does.
type lspChecker struct {
	common *commonFlags
	sql    *sql.Parser
}

// check loads root under its configuration (--config, else the .bucketlint.yaml found from
// root up to its repository's root) with the editor's texts, runs the configured rules and
// post-processes their findings as check does, without a baseline.
func (c *lspChecker) check(ctx context.Context, root string, overlay map[string][]byte) (*lsp.Model, error) {
	catalogue := rules.All()
	file := c.common.config
	if file == "" {
		file = findConfig(root)
	}
	cfg := &config{}
	if file != "" {
		var err error
		if cfg, err = resolveConfig(file, c.common.maxInput.limit(), catalogue); err != nil {
			return nil, err
		}
	}
	ld, err := c.common.loadFrom(ctx, cfg, []string{root}, parser.LoadOptions{Overlay: overlay, SQL: c.sql})
	if err != nil {
		return nil, err
	}
	src := newSources(c.common.maxInput.limit())
	source := func(f string) []byte {
		if text, ok := overlay[f]; ok {
			return text
		}
		return src.get(f)
	}
	enabled := rules.Enabled(catalogue, cfg.Rules)
	dg := diagnose(ld, enabled, catalogue, time.Now().UTC().Format(time.DateOnly), source)
	if dg.ruleErr != nil {
		return nil, errors.Join(errors.New("internal error"), dg.ruleErr)
	}
	// Load skipped the excluded files under root; the patterns are relative to it, and the
	// absolute names of its files would match the directories above it.
	dg.st.exclude = nil
	return &lsp.Model{Workload: ld.w, Findings: postprocess(dg.diags, dg.st)}, nil
}
