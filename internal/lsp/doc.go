// Package lsp is bucketlint's Language Server: `bucketlint lsp` speaks the Language Server
// Protocol over standard input and output (JSON-RPC 2.0 framed by package jsonrpc).
//
// The server keeps one model per workspace folder, the whole folder loaded, resolved and
// checked as `bucketlint check` does (the check itself is a CheckFunc the command supplies,
// so that the server and check share one pipeline and one configuration). Open documents
// overlay the files on disk: a change to a DDL file re-checks the folder, and the findings
// of jobs in other files that read its tables appear and disappear. Changes are debounced;
// each re-check reruns the folder's model (it takes tens of milliseconds on the fixtures'
// example projects). Diagnostics carry the rule's code, a link to its documentation and the
// related places (the other side of a join, the table's DDL); code actions apply the
// findings' fixes; hover shows a table's layout and a join's predicted plan.
//
// It sits beside cmd/bucketlint, which wires it: it reads plan, rules, simulate, workload
// and report, and prints nothing but protocol messages to the writer it is given.
package lsp
