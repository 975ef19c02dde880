package jsonrpc

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"
)

// TestRead reads framed streams: each case lists the bodies read, then the error that ends
// the stream.
func TestRead(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name, in string
		bodies   []string
		err      string // "" for io.EOF
	}{
		{"two messages", "Content-Length: 2\r\n\r\n{}Content-Length: 4\r\n\r\nnull", []string{"{}", "null"}, ""},
		{"content type and case", "content-length: 2\r\nContent-Type: application/vscode-jsonrpc; charset=utf-8\r\n\r\n{}", []string{"{}"}, ""},
		{"utf8 synonym", "Content-Type: application/json; charset=utf8\r\nContent-Length: 2\r\n\r\n[]", []string{"[]"}, ""},
		{"empty stream", "", nil, ""},
		{"unknown header kept out", "X-Other: 1\r\nContent-Length: 1\r\n\r\n1", []string{"1"}, ""},
		{"no length", "Content-Type: application/json\r\n\r\n{}", nil, "malformed message header: no Content-Length"},
		{"negative length", "Content-Length: -1\r\n\r\n", nil, `Content-Length "-1" is not a length`},
		{"signed length", "Content-Length: +1\r\n\r\n1", nil, `Content-Length "+1" is not a length`},
		{"huge length", "Content-Length: 99999999999999999999\r\n\r\n", nil, "is not a length"},
		{"two lengths", "Content-Length: 1\r\nContent-Length: 1\r\n\r\n1", nil, "two Content-Length headers"},
		{"bare LF", "Content-Length: 2\n\n{}", nil, "not ended by CRLF"},
		{"no colon", "Content-Length 2\r\n\r\n{}", nil, "has no colon"},
		{"other charset", "Content-Length: 2\r\nContent-Type: application/json; charset=latin1\r\n\r\n{}", nil, "is not JSON in UTF-8"},
		{"truncated body", "Content-Length: 10\r\n\r\n{}", nil, "unexpected EOF"},
		{"truncated header", "Content-Length: 10\r\n", nil, "unexpected EOF"},
		{"too large then next", "Content-Length: 20\r\n\r\n" + strings.Repeat("x", 20) + "Content-Length: 2\r\n\r\n{}", []string{"{}"}, ""},
		{"long header", strings.Repeat("X-Pad: 0123456789\r\n", 400) + "Content-Length: 2\r\n\r\n{}", nil, "header block longer than"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			r := NewReader(strings.NewReader(c.in), 16)
			var got []string
			var err error
			for {
				var b []byte
				b, err = r.Read()
				var tl *TooLargeError
				if errors.As(err, &tl) {
					continue
				}
				if err != nil {
					break
				}
				got = append(got, string(b))
			}
			if strings.Join(got, "|") != strings.Join(c.bodies, "|") {
				t.Errorf("bodies %q, want %q", got, c.bodies)
			}
			if c.err == "" && !errors.Is(err, io.EOF) || c.err != "" && !strings.Contains(err.Error(), c.err) {
				t.Errorf("error %v, want %q", err, c.err)
			}
		})
	}
}

// TestTooLarge reports the skipped message's length and limit.
func TestTooLarge(t *testing.T) {
	t.Parallel()
	_, err := NewReader(strings.NewReader("Content-Length: 5\r\n\r\nhello"), 4).Read()
	var tl *TooLargeError
	if !errors.As(err, &tl) || tl.Length != 5 || tl.Limit != 4 {
		t.Fatalf("got %v, want a TooLargeError of 5 above 4", err)
	}
}

// TestWriteRead writes messages and reads them back.
func TestWriteRead(t *testing.T) {
	t.Parallel()
	var buf bytes.Buffer
	w := NewWriter(&buf)
	bodies := []string{`{"a":1}`, "", `"é"`}
	for _, b := range bodies {
		if err := w.Write([]byte(b)); err != nil {
			t.Fatal(err)
		}
	}
	r := NewReader(&buf, 0)
	for _, want := range bodies {
		got, err := r.Read()
		if err != nil || string(got) != want {
			t.Fatalf("read %q, %v; want %q", got, err, want)
		}
	}
	if _, err := r.Read(); !errors.Is(err, io.EOF) {
		t.Fatalf("after the last message: %v, want EOF", err)
	}
}

// FuzzReader reads arbitrary streams: no panic, no body above the limit, and each body read
// decodes without panicking; a body written and read back is the same.
func FuzzReader(f *testing.F) {
	f.Add([]byte("Content-Length: 2\r\n\r\n{}"), []byte(`{"jsonrpc":"2.0","id":1,"method":"initialize"}`))
	f.Add([]byte("Content-Length: 20\r\n\r\n"+strings.Repeat("x", 20)+"Content-Length: 1\r\n\r\n1"), []byte(`[1]`))
	f.Add([]byte("Content-Type: application/json\r\nContent-Length: 3\r\n\r\n{\"a"), []byte(`{"jsonrpc":"2.0","id":{}}`))
	f.Add([]byte("Content-Length: 99999999999999999999\r\n\r\n"), []byte(`{"jsonrpc":"2.0","result":null,"id":"x"}`))
	f.Fuzz(func(t *testing.T, stream, body []byte) {
		r := NewReader(bytes.NewReader(stream), 64)
		for range 1000 {
			b, err := r.Read()
			var tl *TooLargeError
			if errors.As(err, &tl) {
				continue
			}
			if err != nil {
				break
			}
			if len(b) > 64 {
				t.Fatalf("body of %d bytes above the limit", len(b))
			}
			_, _ = Decode(b)
		}
		var buf bytes.Buffer
		if err := NewWriter(&buf).Write(body); err != nil {
			t.Fatal(err)
		}
		got, err := NewReader(&buf, int64(len(body))).Read()
		if err != nil || !bytes.Equal(got, body) {
			t.Fatalf("round trip: %q, %v; want %q", got, err, body)
		}
		_, _ = Decode(body)
	})
}
