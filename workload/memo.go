package workload

import (
	"sync"
	"weak"
)

// A memo computes the value of each key once, however many goroutines ask for it at the
// same time: the first caller computes it, the others wait for that value, and every caller
// gets the same value. Rules run side by side ask the workload for the same simulations
// and join sites; each is computed once and the rules share it, as they do when run one
// after another. The zero memo is ready to use. A computation must not ask its own memo
// for its own key (it would wait for itself).
type memo[K comparable, V any] struct {
	mu sync.Mutex
	m  map[K]*memoEntry[V]
}

type memoEntry[V any] struct {
	done  sync.WaitGroup // done while computing; not a channel, which is an allocation of its own
	v     V
	panic any // the computation's panic, raised again in every caller
}

// get returns the value of k, computing it with compute when no caller has.
func (m *memo[K, V]) get(k K, compute func() V) V {
	m.mu.Lock()
	if e, ok := m.m[k]; ok {
		m.mu.Unlock()
		e.done.Wait()
		if e.panic != nil {
			panic(e.panic)
		}
		return e.v
	}
	if m.m == nil {
		m.m = map[K]*memoEntry[V]{}
	}
	e := &memoEntry[V]{}
	e.done.Add(1)
	m.m[k] = e
	m.mu.Unlock()
	settle(&e.done, &e.panic, func() { e.v = compute() })
	return e.v
}

// settle runs the computation of an entry its caller has claimed (done added to under the
// memo's lock), then lets the waiters go; a panic of the computation is kept in panicked for
// them and raised again in the caller.
func settle(done *sync.WaitGroup, panicked *any, compute func()) {
	defer done.Done()
	defer func() {
		if p := recover(); p != nil {
			*panicked = p
			panic(p)
		}
	}()
	compute()
}

// A weakMemo is a memo of pointers that does not keep its values alive: a value is shared by
// every caller while one of them holds it, and computed again, to an equal value, when a
// caller asks after the collector took it back. The simulations of a large workload are
// used while its join sites are found and by a few rules after; kept for the whole run they
// were most of check's memory (issue 14). Errors are kept. The zero weakMemo is ready to
// use; a computation must not ask its own memo for its own key.
type weakMemo[K comparable, V any] struct {
	mu sync.Mutex
	m  map[K]*weakEntry[V]
}

type weakEntry[V any] struct {
	done  sync.WaitGroup
	v     weak.Pointer[V]
	err   error
	panic any
}

// get returns the value of k and its error, computing them with compute when no caller
// holds the value.
func (m *weakMemo[K, V]) get(k K, compute func() (*V, error)) (*V, error) {
	for {
		m.mu.Lock()
		e, ok := m.m[k]
		if !ok {
			break // m.mu stays locked
		}
		m.mu.Unlock()
		e.done.Wait()
		if e.panic != nil {
			panic(e.panic)
		}
		if v := e.v.Value(); v != nil || e.err != nil {
			return v, e.err
		}
		// Collected (or a nil value without an error): compute it again, unless another
		// caller already has.
		m.mu.Lock()
		if m.m[k] == e {
			delete(m.m, k)
		}
		m.mu.Unlock()
	}
	if m.m == nil {
		m.m = map[K]*weakEntry[V]{}
	}
	e := &weakEntry[V]{}
	e.done.Add(1)
	m.m[k] = e
	m.mu.Unlock()
	var v *V
	var err error
	settle(&e.done, &e.panic, func() {
		v, err = compute()
		e.v, e.err = weak.Make(v), err
	})
	return v, err
}
