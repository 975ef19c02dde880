package jsonrpc

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"
)

// MaxHeaderBytes bounds a message's header block: two short lines in practice.
const MaxHeaderBytes = 4 << 10

// DefaultMaxBody is the largest message body read when NewReader is given no limit: 64 MiB,
// far above a document an editor sends (bucketlint reads inputs of at most 16 MiB).
const DefaultMaxBody = 64 << 20

// A TooLargeError is a message whose Content-Length is above the reader's limit. Its body
// was skipped, so the next Read reads the next message.
type TooLargeError struct {
	Length, Limit int64
}

func (e *TooLargeError) Error() string {
	return fmt.Sprintf("message of %d bytes is above the limit of %d bytes; skipped", e.Length, e.Limit)
}

// A HeaderError is a malformed header block: the stream cannot be followed past it.
type HeaderError struct {
	Msg string
}

func (e *HeaderError) Error() string { return "malformed message header: " + e.Msg }

// A Reader reads framed message bodies from a stream.
type Reader struct {
	r   *bufio.Reader
	max int64
}

// NewReader returns a Reader of r that reads bodies of at most maxBody bytes
// (DefaultMaxBody when maxBody is 0 or less).
func NewReader(r io.Reader, maxBody int64) *Reader {
	if maxBody <= 0 {
		maxBody = DefaultMaxBody
	}
	return &Reader{r: bufio.NewReader(r), max: maxBody}
}

// Read returns the next message's body. It returns io.EOF when the stream ends between
// messages, io.ErrUnexpectedEOF when it ends inside one, a *TooLargeError (the stream stays
// usable) for a body above the limit, and a *HeaderError for a header it cannot read.
func (r *Reader) Read() ([]byte, error) {
	length, err := r.header()
	if err != nil {
		return nil, err
	}
	if length > r.max {
		if _, err := io.CopyN(io.Discard, r.r, length); err != nil {
			return nil, io.ErrUnexpectedEOF
		}
		return nil, &TooLargeError{Length: length, Limit: r.max}
	}
	body := make([]byte, length)
	if _, err := io.ReadFull(r.r, body); err != nil {
		return nil, io.ErrUnexpectedEOF
	}
	return body, nil
}

// header reads a header block and returns its Content-Length.
func (r *Reader) header() (int64, error) {
	length := int64(-1)
	read := 0
	for first := true; ; first = false {
		line, err := r.line(MaxHeaderBytes - read)
		if err != nil {
			if first && errors.Is(err, io.EOF) && len(line) == 0 {
				return 0, io.EOF
			}
			if errors.Is(err, io.EOF) {
				return 0, io.ErrUnexpectedEOF
			}
			return 0, err
		}
		read += len(line) + 2
		if len(line) == 0 {
			break
		}
		name, value, ok := strings.Cut(string(line), ":")
		if !ok {
			return 0, &HeaderError{Msg: fmt.Sprintf("line %q has no colon", clip(line))}
		}
		value = strings.TrimSpace(value)
		switch strings.ToLower(strings.TrimSpace(name)) {
		case "content-length":
			if length >= 0 {
				return 0, &HeaderError{Msg: "two Content-Length headers"}
			}
			n, err := strconv.ParseInt(value, 10, 64)
			if err != nil || strings.Trim(value, "0123456789") != "" {
				return 0, &HeaderError{Msg: fmt.Sprintf("Content-Length %q is not a length", clip([]byte(value)))}
			}
			length = n
		case "content-type":
			// The protocol's only type is JSON in UTF-8 ("utf8" is accepted as a synonym).
			if !jsonUTF8(value) {
				return 0, &HeaderError{Msg: fmt.Sprintf("Content-Type %q is not JSON in UTF-8", clip([]byte(value)))}
			}
		}
	}
	if length < 0 {
		return 0, &HeaderError{Msg: "no Content-Length"}
	}
	return length, nil
}

// line reads one header line of at most limit bytes, without its CRLF.
func (r *Reader) line(limit int) ([]byte, error) {
	var out []byte
	for {
		if len(out) > limit-2 {
			return nil, &HeaderError{Msg: fmt.Sprintf("header block longer than %d bytes", MaxHeaderBytes)}
		}
		c, err := r.r.ReadByte()
		if err != nil {
			return out, err
		}
		if c == '\n' {
			if !bytes.HasSuffix(out, []byte{'\r'}) {
				return nil, &HeaderError{Msg: "header line not ended by CRLF"}
			}
			return out[:len(out)-1], nil
		}
		out = append(out, c)
	}
}

// jsonUTF8 reports a Content-Type naming JSON (any type naming json, as clients send
// "application/vscode-jsonrpc") with no charset or a UTF-8 one.
func jsonUTF8(v string) bool {
	media, params, _ := strings.Cut(strings.ToLower(v), ";")
	if !strings.Contains(media, "json") {
		return false
	}
	for p := range strings.SplitSeq(params, ";") {
		k, val, _ := strings.Cut(strings.TrimSpace(p), "=")
		if k == "charset" && val != "utf-8" && val != "utf8" {
			return false
		}
	}
	return true
}

// clip shortens text quoted in an error.
func clip(b []byte) string {
	if len(b) > 40 {
		return string(b[:40]) + "…"
	}
	return string(b)
}

// A Writer writes framed messages to a stream; it is safe for concurrent use, each message
// written whole.
type Writer struct {
	mu sync.Mutex
	w  io.Writer
}

// NewWriter returns a Writer to w.
func NewWriter(w io.Writer) *Writer { return &Writer{w: w} }

// Write writes body as one message.
func (w *Writer) Write(body []byte) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	buf := make([]byte, 0, len(body)+32)
	buf = append(buf, "Content-Length: "...)
	buf = strconv.AppendInt(buf, int64(len(body)), 10)
	buf = append(buf, "\r\n\r\n"...)
	buf = append(buf, body...)
	_, err := w.w.Write(buf)
	return err
}
