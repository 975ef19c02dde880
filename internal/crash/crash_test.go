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
