// Package jsonrpc reads and writes JSON-RPC 2.0 messages framed as the Language Server
// Protocol frames them over a byte stream: a block of header lines ("Content-Length: n",
// optionally "Content-Type: …"), each ending in CRLF, an empty line, then n bytes of JSON.
//
// It uses the standard library only. A message and its header are bounded (a body above the
// limit is skipped and reported, keeping the stream in step), a malformed header stops the
// stream, and no input makes it panic: FuzzReader feeds it arbitrary bytes. The language
// server (internal/lsp) is its only user; it imports nothing of bucketlint.
package jsonrpc
