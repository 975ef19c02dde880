package crash

import (
	"errors"
	"strings"
	"sync"
	"testing"
)

func TestCatch(t *testing.T) {
	cases := []struct {
		name  string
		body  func()
		panic string // "" = no error expected
	}{
		{"no panic", func() {}, ""},
		{"string", func() { panic("boom") }, "boom"},
		{"index", func() {
			var s []int
			_ = s[3]
		}, "index out of range"},
		{"error value", func() { panic(errors.New("wrapped")) }, "wrapped"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var got error
			var wg sync.WaitGroup
			wg.Add(1)
			go func() {
				defer wg.Done()
				defer Catch(func(err error) { got = err })
				c.body()
			}()
			wg.Wait()
			if c.panic == "" {
				if got != nil {
					t.Fatalf("error %v without a panic", got)
				}
				return
			}
			var ce *Error
			if !errors.As(got, &ce) {
				t.Fatalf("got %v, want a *crash.Error", got)
			}
			if !strings.Contains(got.Error(), c.panic) || !strings.Contains(got.Error(), "internal error") || len(ce.Stack) == 0 {
				t.Fatalf("error %q lacks %q, the words internal error or a stack", got, c.panic)
			}
		})
	}
}

// TestCatchRaisedAgain: an *Error raised again in the owner's goroutine (as store's parallel
// loops do) is reported as it is, not wrapped in a second one.
func TestCatchRaisedAgain(t *testing.T) {
	first := &Error{Value: "in a worker", Stack: []byte("worker stack")}
	var got error
	func() {
		defer Catch(func(err error) { got = err })
		panic(first)
	}()
	if got != first { //nolint:errorlint // the very value raised
		t.Fatalf("got %v, want the *Error raised", got)
	}
}

// TestPoint: without a hook Point does nothing; with one it calls it with the site, and a
// panic there is caught like any other.
func TestPoint(t *testing.T) {
	Point("no hook")
	var sites []string
	SetHook(func(site string) {
		sites = append(sites, site)
		if site == "bad" {
			panic("injected")
		}
	})
	defer SetHook(nil)
	Point("good")
	var got error
	func() {
		defer Catch(func(err error) { got = err })
		Point("bad")
	}()
	if len(sites) != 2 || sites[0] != "good" || sites[1] != "bad" {
		t.Errorf("hook called with %v, want [good bad]", sites)
	}
	if got == nil || !strings.Contains(got.Error(), "injected") {
		t.Errorf("got %v, want the injected panic", got)
	}
	SetHook(nil)
	Point("bad") // no hook: no panic
}
