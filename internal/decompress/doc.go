// Package decompress decodes the block formats of the codecs Spark compresses event logs
// with: LZ4 blocks (lz4-java's LZ4BlockOutputStream carries them), Snappy blocks
// (snappy-java's SnappyOutputStream) and Zstandard frames (RFC 8878). It is written for
// bucketlint from the format descriptions, on the standard library only, so that the
// linter's default build needs no compression module (issue 15).
//
// Every decoder is bounded: the caller gives the output size or a limit, no input makes it
// allocate more than that, and a malformed input is an error that says at which input byte
// it went wrong, never a panic. The stream framings of Spark's codecs (block headers,
// checksums) are read by parser/eventlog.
package decompress

import "fmt"

// An Error is a malformed input: the codec, the byte offset in the input where decoding
// stopped, and what was wrong there.
type Error struct {
	Codec  string
	Offset int64
	Reason string
}

// Error implements error.
func (e *Error) Error() string {
	return fmt.Sprintf("%s: at input byte %d: %s", e.Codec, e.Offset, e.Reason)
}
