// Package archtest holds the tests of rules about the module's shape that no linter states.
//
// TestNoTextParsingOutsideParser enforces DESIGN.md §1's "nothing outside parser/ parses
// text": parsers build plan trees (plan.X) and everything downstream reads the trees. Over
// the non-test files outside parser/ it forbids
//
//   - importing regexp, text/scanner, go/scanner or participle;
//   - declaring a function named parse… or after a tokenizer (tokenize, lexer, identifiers,
//     splitAnd, splitAlias, unqualify … — the names of the re-parsers removed);
//   - calling strings' search and split functions (Contains, HasPrefix, Index, Cut, Split,
//     Fields …) on the text plan keeps of an expression or statement (Expr.Raw and .Text,
//     X.Raw, ColumnRef.Text, Select.Items/Where/Having/Limit, JoinSpec.Condition/Residual,
//     the Args of hints, windows and operators, Query.Text, the code model's as-written
//     strings …), directly or through ToLower, TrimSpace and indexing.
//
// Each exception is listed in the test with the reason it reads no SQL, explain or
// expression text (a flag, a version number, a data value, a bucket file name); an exception
// that matches nothing fails the test. The check follows no data flow: a text field copied
// into a variable first is not seen, so review still matters.
//
// TestNoLongFiles enforces the brief's "no non-test file over 500 lines", which no linter
// in .golangci.yml states: it names each non-test Go file of the module (testdata, vendor
// and dot directories skipped) longer than that.
package archtest
