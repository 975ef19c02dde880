package main

import (
	"errors"
	"fmt"
	"strings"

	"github.com/bucketlint/bucketlint/internal/crash"
	"github.com/bucketlint/bucketlint/internal/lsp"
	"github.com/bucketlint/bucketlint/parser"
	"github.com/bucketlint/bucketlint/rules"
)

// Exit codes, the same for every command and format (DESIGN.md §4, docs/exit-codes.md). When
// several apply, the first of 2, 3, 4, 1, 0 wins.
const (
	exitOK       = 0 // nothing at or above --fail-on
	exitFindings = 1 // findings at or above --fail-on
	exitUsage    = 2 // usage (a missing path included), config or internal error
	exitParse    = 3 // an input could not be read or parsed; the others were still processed
	exitVerify   = 4 // verify: a recommendation failed to reproduce
)

// A usageError is a mistake in the command line.
type usageError struct{ msg string }

func (e *usageError) Error() string { return e.msg }

func usagef(format string, args ...any) error { return &usageError{msg: fmt.Sprintf(format, args...)} }

// A parseFailure says that at least one input could not be parsed. Its errors have already
// been reported; the command still produced output for everything it could read.
type parseFailure struct{ count int }

func (e *parseFailure) Error() string {
	if e.count == 1 {
		return "1 input error"
	}
	return fmt.Sprintf("%d input errors", e.count)
}

// A verifyFailure says that at least one recommendation did not reproduce (exit 4).
type verifyFailure struct{ failed, total int }

func (e *verifyFailure) Error() string {
	return fmt.Sprintf("%d of %d verifications did not reproduce", e.failed, e.total)
}

// A findingsError says that findings at or above --fail-on were reported.
type findingsError struct {
	count  int
	failOn string
}

func (e *findingsError) Error() string {
	if e.count == 1 {
		return fmt.Sprintf("1 finding at or above %s", e.failOn)
	}
	return fmt.Sprintf("%d findings at or above %s", e.count, e.failOn)
}

// exitCode maps an error returned by a command to the process exit code.
func exitCode(err error) int {
	var u *usageError
	var p *parseFailure
	var c *configError
	var f *findingsError
	var v *verifyFailure
	var pf *pendingFixes
	// Several errors may be joined (errors.Join): the order of the cases is the precedence.
	switch {
	case err == nil:
		return exitOK
	case errors.As(err, &u), errors.As(err, &c):
		return exitUsage
	case !onlyExpected(err):
		return exitUsage // an internal or I/O error
	case errors.As(err, &p):
		return exitParse
	case errors.As(err, &v):
		return exitVerify
	case errors.As(err, &f), errors.As(err, &pf), errors.Is(err, lsp.ErrNoShutdown):
		return exitFindings // --diff with edits to make; the protocol's status when the client exits without shutdown
	}
	return exitUsage
}

// onlyExpected reports whether err holds nothing but parse failures, verify failures and
// findings, the outcomes below "usage, config or internal error" in precedence.
func onlyExpected(err error) bool {
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		for _, e := range j.Unwrap() {
			if !onlyExpected(e) {
				return false
			}
		}
		return true
	}
	var p *parseFailure
	var f *findingsError
	var v *verifyFailure
	var pf *pendingFixes
	return errors.As(err, &p) || errors.As(err, &f) || errors.As(err, &v) || errors.As(err, &pf) || errors.Is(err, lsp.ErrNoShutdown)
}

// internalErrors are the rules' failures as internal errors: each "internal error: …", but a
// panic (a *crash.Error, which says so itself) as it is, not wrapped a second time.
func internalErrors(ruleErr error) []error {
	list := []error{ruleErr}
	if j, ok := ruleErr.(interface{ Unwrap() []error }); ok {
		list = j.Unwrap()
	}
	var errs []error
	for _, err := range list {
		var ce *crash.Error
		switch {
		case err == nil:
		case errors.As(err, &ce):
			errs = append(errs, err)
		default:
			errs = append(errs, fmt.Errorf("internal error: %w", err))
		}
	}
	return errs
}

// exitError joins what decides the exit code; exitCode picks the first of 2, 3, 4, 1, 0.
func exitError(ruleErr, outErr error, loadErrs []*parser.Error, diags []rules.Diagnostic, failOn string) error {
	errs := internalErrors(ruleErr)
	if outErr != nil {
		errs = append(errs, outErr)
	}
	if len(loadErrs) > 0 {
		errs = append(errs, &parseFailure{count: len(loadErrs)})
	}
	if lowest, _ := failThreshold(failOn); lowest > 0 {
		n := 0
		for i := range diags {
			if diags[i].Severity >= lowest {
				n++
			}
		}
		if n > 0 {
			errs = append(errs, &findingsError{count: n, failOn: failOn})
		}
	}
	if len(errs) == 0 {
		return nil
	}
	return outcome(errs)
}

// An outcome is every reason a check run did not end clean, printed on one line.
type outcome []error

func (o outcome) Error() string {
	parts := make([]string, len(o))
	for i, e := range o {
		parts[i] = e.Error()
	}
	return strings.Join(parts, "; ")
}

// Unwrap lets errors.As find each reason (exitCode picks by precedence).
func (o outcome) Unwrap() []error { return o }
