package jsonrpc

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// The error codes of JSON-RPC 2.0 and of the Language Server Protocol.
const (
	CodeParseError           = -32700
	CodeInvalidRequest       = -32600
	CodeMethodNotFound       = -32601
	CodeInvalidParams        = -32602
	CodeInternalError        = -32603
	CodeServerNotInitialized = -32002
	CodeRequestCancelled     = -32800
	CodeContentModified      = -32801
)

// An Error is a response's error object.
type Error struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
}

func (e *Error) Error() string { return fmt.Sprintf("%s (%d)", e.Message, e.Code) }

// Errorf returns an Error with code and a formatted message.
func Errorf(code int, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}

// A Message is a request (ID and Method), a notification (Method, no ID) or a response (ID
// and Result or Error). ID is kept as written: a number or a string.
type Message struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id,omitempty"`
	Method  string          `json:"method,omitempty"`
	Params  json.RawMessage `json:"params,omitempty"`
	Result  json.RawMessage `json:"result,omitempty"`
	Error   *Error          `json:"error,omitempty"`
}

// IsRequest reports a request: a method and an ID.
func (m *Message) IsRequest() bool { return m.Method != "" && m.ID != nil }

// IsNotification reports a notification: a method without an ID.
func (m *Message) IsNotification() bool { return m.Method != "" && m.ID == nil }

// Decode reads one message body. A body that is not JSON is a CodeParseError; one that is
// JSON but not a JSON-RPC 2.0 message (a batch, a wrong version, an ID that is neither a
// number nor a string, null only in an error response, no method and no result) is a
// CodeInvalidRequest, returned with the
// message as far as it was read, so that a request's ID can still be answered.
func Decode(body []byte) (*Message, *Error) {
	trimmed := bytes.TrimLeft(body, " \t\r\n")
	if len(trimmed) > 0 && trimmed[0] == '[' {
		if !json.Valid(trimmed) {
			return nil, Errorf(CodeParseError, "body is not JSON")
		}
		return nil, Errorf(CodeInvalidRequest, "batches are not supported")
	}
	var m Message
	if err := json.Unmarshal(body, &m); err != nil {
		if !json.Valid(body) {
			return nil, Errorf(CodeParseError, "body is not JSON")
		}
		return nil, Errorf(CodeInvalidRequest, "not a JSON-RPC message: %v", err)
	}
	if m.JSONRPC != "2.0" {
		return &m, Errorf(CodeInvalidRequest, "jsonrpc is %q, want \"2.0\"", m.JSONRPC)
	}
	if m.ID != nil && string(m.ID) == "null" && m.Method == "" && m.Error != nil {
		return &m, nil // the error response to a message whose id could not be read
	}
	if m.ID != nil && !validID(m.ID) {
		m.ID = nil
		return &m, Errorf(CodeInvalidRequest, "id is neither a number nor a string")
	}
	if m.Method == "" && m.ID == nil {
		return &m, Errorf(CodeInvalidRequest, "a message without a method or an id")
	}
	if m.Method == "" && m.Result == nil && m.Error == nil {
		return &m, Errorf(CodeInvalidRequest, "a response without a result or an error")
	}
	return &m, nil
}

// validID reports a JSON number or string; null counts as no ID.
func validID(id json.RawMessage) bool {
	var v any
	if json.Unmarshal(id, &v) != nil {
		return false
	}
	switch v.(type) {
	case string, float64:
		return true
	}
	return false
}

// Response returns a response body to the request id: result marshalled, or the error.
func Response(id json.RawMessage, result any, rpcErr *Error) ([]byte, error) {
	m := Message{JSONRPC: "2.0", ID: id, Error: rpcErr}
	if id == nil {
		m.ID = json.RawMessage("null")
	}
	if rpcErr == nil {
		b, err := json.Marshal(result)
		if err != nil {
			return nil, err
		}
		m.Result = b
	}
	return json.Marshal(&m)
}

// Notification returns a notification body of method with params marshalled.
func Notification(method string, params any) ([]byte, error) {
	b, err := json.Marshal(params)
	if err != nil {
		return nil, err
	}
	return json.Marshal(&Message{JSONRPC: "2.0", Method: method, Params: b})
}
