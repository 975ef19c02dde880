package jsonrpc

import (
	"testing"
)

// TestDecode tells requests, notifications and responses apart and rejects what is not a
// JSON-RPC 2.0 message, keeping a request's ID when it can.
func TestDecode(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name, body string
		kind       string // "request", "notification", "response"
		code       int
		id         string
	}{
		{"request", `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}`, "request", 0, "1"},
		{"string id", `{"jsonrpc":"2.0","id":"a","method":"shutdown"}`, "request", 0, `"a"`},
		{"notification", `{"jsonrpc":"2.0","method":"initialized","params":{}}`, "notification", 0, ""},
		{"response", `{"jsonrpc":"2.0","id":3,"result":null}`, "response", 0, "3"},
		{"error response", `{"jsonrpc":"2.0","id":3,"error":{"code":-32601,"message":"no"}}`, "response", 0, "3"},
		{"error response without id", `{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"no"}}`, "response", 0, "null"},
		{"not json", `{"jsonrpc":`, "", CodeParseError, ""},
		{"batch", `[{"jsonrpc":"2.0","id":1,"method":"x"}]`, "", CodeInvalidRequest, ""},
		{"broken batch", `[{"jsonrpc"`, "", CodeParseError, ""},
		{"wrong version", `{"jsonrpc":"1.0","id":1,"method":"x"}`, "", CodeInvalidRequest, "1"},
		{"object id", `{"jsonrpc":"2.0","id":{},"method":"x"}`, "", CodeInvalidRequest, ""},
		{"null id", `{"jsonrpc":"2.0","id":null,"method":"x"}`, "", CodeInvalidRequest, ""},
		{"wrong method type", `{"jsonrpc":"2.0","id":1,"method":1}`, "", CodeInvalidRequest, ""},
		{"nothing", `{"jsonrpc":"2.0"}`, "", CodeInvalidRequest, ""},
		{"response without result", `{"jsonrpc":"2.0","id":1}`, "", CodeInvalidRequest, "1"},
		{"scalar", `7`, "", CodeInvalidRequest, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			m, err := Decode([]byte(c.body))
			if c.code != 0 {
				if err == nil || err.Code != c.code {
					t.Fatalf("error %v, want code %d", err, c.code)
				}
				if m != nil && string(m.ID) != c.id {
					t.Errorf("id %s, want %s", m.ID, c.id)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			kind := "response"
			if m.IsRequest() {
				kind = "request"
			} else if m.IsNotification() {
				kind = "notification"
			}
			if kind != c.kind || string(m.ID) != c.id {
				t.Errorf("%s with id %s, want %s with id %s", kind, m.ID, c.kind, c.id)
			}
		})
	}
}

// TestResponse writes a result (null included) or an error, and an unknown ID as null.
func TestResponse(t *testing.T) {
	t.Parallel()
	cases := []struct {
		id     string
		result any
		err    *Error
		want   string
	}{
		{"1", nil, nil, `{"jsonrpc":"2.0","id":1,"result":null}`},
		{`"x"`, map[string]int{"a": 1}, nil, `{"jsonrpc":"2.0","id":"x","result":{"a":1}}`},
		{"", nil, Errorf(CodeParseError, "bad"), `{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"bad"}}`},
	}
	for _, c := range cases {
		var id []byte
		if c.id != "" {
			id = []byte(c.id)
		}
		got, err := Response(id, c.result, c.err)
		if err != nil || string(got) != c.want {
			t.Errorf("Response(%s) = %s, %v; want %s", c.id, got, err, c.want)
		}
	}
}
