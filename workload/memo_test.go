package workload

import (
	"errors"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
)

// TestMemoComputesOnce asks a memo for the same keys from many goroutines at once, while
// the first computation of each key is still running, and wants each key computed once and
// every caller given that one value.
func TestMemoComputesOnce(t *testing.T) {
	t.Parallel()
	var m memo[int, *int]
	var computed [3]atomic.Int32
	release := make(chan struct{})
	started := make(chan int, 24)
	const callers = 24
	got := make([]*int, callers)
	var wg sync.WaitGroup
	for i := range callers {
		wg.Go(func() {
			k := i % 3
			got[i] = m.get(k, func() *int {
				computed[k].Add(1)
				started <- k
				<-release // the others ask while this computation runs
				v := k * 10
				return &v
			})
		})
	}
	for range 3 {
		<-started
	}
	close(release)
	wg.Wait()
	for k := range 3 {
		if n := computed[k].Load(); n != 1 {
			t.Errorf("key %d computed %d times, want once", k, n)
		}
	}
	for i, p := range got {
		if p == nil || *p != (i%3)*10 || p != got[i%3] {
			t.Errorf("caller %d got %v, not the one value of key %d", i, p, i%3)
		}
	}
}

// TestMemoPanic raises a computation's panic in its caller and in every caller after it.
func TestMemoPanic(t *testing.T) {
	t.Parallel()
	var m memo[string, int]
	for i := range 3 {
		func() {
			defer func() {
				if p := recover(); p != "boom" {
					t.Errorf("call %d: panic %v, want boom", i, p)
				}
			}()
			m.get("k", func() int { panic("boom") })
		}()
	}
	if v := m.get("other", func() int { return 7 }); v != 7 {
		t.Errorf("another key: %d, want 7", v)
	}
}

// TestWeakMemo shares a weakMemo's value while a caller holds it, computes it again once the
// collector took it back, and keeps errors.
func TestWeakMemo(t *testing.T) {
	type value struct{ text [64]byte } // not a tiny allocation, which may share a block
	var m weakMemo[string, value]
	computed := 0
	compute := func() (*value, error) {
		computed++
		return &value{text: [64]byte{'x'}}, nil
	}
	first, _ := m.get("k", compute)
	again, _ := m.get("k", compute)
	if again != first || computed != 1 {
		t.Fatalf("asked again while held: computed %d times, same value %v; want once, same", computed, again == first)
	}
	first, again = nil, nil //nolint:ineffassign,wastedassign // released for the collector
	runtime.GC()
	runtime.GC()
	third, _ := m.get("k", compute)
	if computed != 2 || third == nil || third.text[0] != 'x' {
		t.Errorf("asked after collection: computed %d times, value %v; want twice, an equal value", computed, third)
	}
	errs := 0
	for range 2 {
		if _, err := m.get("bad", func() (*value, error) { errs++; return nil, errors.New("no") }); err == nil {
			t.Error("the error was lost")
		}
		runtime.GC()
	}
	if errs != 1 {
		t.Errorf("an error computed %d times, want once (errors are kept)", errs)
	}
}
