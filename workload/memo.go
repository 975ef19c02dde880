package workload

import "sync"

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
	done  chan struct{}
	v     V
	panic any // the computation's panic, raised again in every caller
}

// get returns the value of k, computing it with compute when no caller has.
func (m *memo[K, V]) get(k K, compute func() V) V {
	m.mu.Lock()
	if e, ok := m.m[k]; ok {
		m.mu.Unlock()
		<-e.done
		if e.panic != nil {
			panic(e.panic)
		}
		return e.v
	}
	if m.m == nil {
		m.m = map[K]*memoEntry[V]{}
	}
	e := &memoEntry[V]{done: make(chan struct{})}
	m.m[k] = e
	m.mu.Unlock()
	defer close(e.done)
	defer func() {
		if p := recover(); p != nil {
			e.panic = p
			panic(p)
		}
	}()
	e.v = compute()
	return e.v
}
