package main

import (
	"errors"
	"fmt"
)

// Exit codes, the same for every command and format (DESIGN.md §4). When several apply, the
// first of 2, 3, 4, 1, 0 wins.
const (
	exitOK       = 0 // nothing at or above --fail-on
	exitFindings = 1 // findings at or above --fail-on
	exitUsage    = 2 // usage, config or internal error
	exitParse    = 3 // an input could not be parsed; the others were still processed
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

// exitCode maps an error returned by a command to the process exit code.
func exitCode(err error) int {
	var u *usageError
	var p *parseFailure
	switch {
	case err == nil:
		return exitOK
	case errors.As(err, &u):
		return exitUsage
	case errors.As(err, &p):
		return exitParse
	}
	return exitUsage
}
