//go:build engine

package verify

import (
	"errors"
	"strings"
)

// redacted replaces a secret in what verify prints.
const redacted = "***"

// RedactRemote returns a Spark Connect URL fit to print: the values of its parameters that
// carry secrets (token, and any parameter whose name holds "token", "secret" or
// "password") and any user information before the host are replaced by ***.
// "sc://host:443/;use_ssl=true;token=abc" prints as "sc://host:443/;use_ssl=true;token=***".
func RedactRemote(remote string) string {
	params := strings.Split(remote, ";")
	if head := params[0]; strings.Contains(head, "@") {
		// sc://user:password@host: everything between the scheme and the last @.
		scheme, rest, ok := strings.Cut(head, "://")
		if ok {
			params[0] = scheme + "://" + redacted + rest[strings.LastIndex(rest, "@"):]
		}
	}
	for i, p := range params[1:] {
		if k, v, ok := strings.Cut(p, "="); ok && v != "" && secretParam(k) {
			params[i+1] = k + "=" + redacted
		}
	}
	return strings.Join(params, ";")
}

// secretParam reports whether a Spark Connect URL parameter carries a secret.
func secretParam(key string) bool {
	k := strings.ToLower(strings.TrimSpace(key))
	return strings.Contains(k, "token") || strings.Contains(k, "secret") || strings.Contains(k, "password")
}

// minSecretLen is the length from which a secret value is removed wherever it occurs in a
// message, not only as part of the URL or of "key=value": shorter values would match
// ordinary words.
const minSecretLen = 6

// redactText removes the secrets of remote from s: the URL itself, each secret parameter
// written key=value, and each secret value of minSecretLen or more wherever it occurs.
func redactText(s, remote string) string {
	shown := RedactRemote(remote)
	if shown == remote {
		return s
	}
	s = strings.ReplaceAll(s, remote, shown)
	params := strings.Split(remote, ";")
	if head := params[0]; strings.Contains(head, "@") {
		if _, rest, ok := strings.Cut(head, "://"); ok {
			s = strings.ReplaceAll(s, rest[:strings.LastIndex(rest, "@")+1], redacted+"@")
		}
	}
	for _, p := range params[1:] {
		k, v, ok := strings.Cut(p, "=")
		if !ok || v == "" || !secretParam(k) {
			continue
		}
		s = strings.ReplaceAll(s, p, k+"="+redacted)
		if len(v) >= minSecretLen {
			s = strings.ReplaceAll(s, v, redacted)
		}
	}
	return s
}

// A redactedError is an error whose text had secrets removed; it still unwraps to the
// original, so that errors.Is finds context.Canceled.
type redactedError struct {
	msg string
	err error
}

func (e *redactedError) Error() string { return e.msg }
func (e *redactedError) Unwrap() error { return e.err }

// redactErr returns err with the secrets of remote removed from its text (nil for nil).
func redactErr(err error, remote string) error {
	if err == nil {
		return nil
	}
	msg := redactText(err.Error(), remote)
	if msg == err.Error() {
		return err
	}
	var re *redactedError
	if errors.As(err, &re) {
		return &redactedError{msg: msg, err: re.err}
	}
	return &redactedError{msg: msg, err: err}
}
