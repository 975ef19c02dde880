//go:build engine

package verify

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
)

func TestRedactRemote(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"sc://host:15002", "sc://host:15002"},
		{"sc://host:443/;use_ssl=true;token=abc123", "sc://host:443/;use_ssl=true;token=***"},
		{"sc://host/;Token=abc;user_id=me", "sc://host/;Token=***;user_id=me"},
		{"sc://host/;x-api-secret=s1;password=p1", "sc://host/;x-api-secret=***;password=***"},
		{"sc://alice:pw@host:15002/;token=t", "sc://***@host:15002/;token=***"},
		{"sk://h/;token=abc", "sk://h/;token=***"},
		{"sc://host/;token=", "sc://host/;token="},
	} {
		if got := RedactRemote(c.in); got != c.want {
			t.Errorf("RedactRemote(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

// TestRunConnectRedactsToken: a token in the Spark Connect URL shows in no error, result or
// note RunConnect returns, even where the server's own messages echo it (issue 14).
func TestRunConnectRedactsToken(t *testing.T) {
	const secret = "s3cr3t-T0KEN"
	remote := "sc://spark.example:443/;use_ssl=true;token=" + secret
	sc := advised(t, connectDDL)
	// The session fails setting up, with the URL in its message.
	f := &fakeSession{fail: "SET spark.sql.autoBroadcastJoinThreshold", failErr: fmt.Errorf("cannot reach %s: %w", remote, context.Canceled)}
	_, err := RunConnect(t.Context(), sc[:1], ConnectOptions{Remote: remote, Sim: simOptions(t), session: f, ParseExplain: parseExplain})
	if err == nil || strings.Contains(err.Error(), secret) || !strings.Contains(err.Error(), "token=***") {
		t.Fatalf("error %v", err)
	}
	if !errors.Is(err, context.Canceled) {
		t.Errorf("the redacted error no longer unwraps: %v", err)
	}
	// A scenario fails, with the URL in its message.
	f = &fakeSession{fail: "SELECT count(*)", failErr: errors.New("query on " + remote + " failed")}
	res, err := RunConnect(t.Context(), sc[:1], ConnectOptions{Remote: remote, Sim: simOptions(t), session: f, ParseExplain: parseExplain})
	if err != nil {
		t.Fatal(err)
	}
	if r := res[0]; r.Error == "" || strings.Contains(fmt.Sprintf("%+v", r), secret) {
		t.Fatalf("result %+v", r)
	}
}

func TestRedactText(t *testing.T) {
	remote := "sc://alice:pw@host:15002/;use_ssl=true;token=abc;x_secret=longsecretvalue"
	in := "dial " + remote + " failed; token=abc refused; alice:pw@host down; header longsecretvalue; abc is a word"
	want := "dial sc://***@host:15002/;use_ssl=true;token=***;x_secret=*** failed; token=*** refused; ***@host down; header ***; abc is a word"
	if got := redactText(in, remote); got != want {
		t.Errorf("redactText:\n got %q\nwant %q", got, want)
	}
}
