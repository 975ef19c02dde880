package lsp

import (
	"context"
	"fmt"
	"time"
)

// A project is one model the server keeps: a workspace folder, or a document open outside
// every folder (loose). Its worker re-checks it after changes; fields below the line are
// guarded by Server.mu.
type project struct {
	root   string // a directory, or the file of a loose project
	loose  bool
	kick   chan struct{} // a change: re-check after the debounce
	now    chan struct{} // a request waits: re-check without waiting
	cancel context.CancelFunc
	done   chan struct{} // closed when the worker has stopped

	wanted, built uint64            // the generation asked for and the one last checked
	model         *Model            // nil until a check succeeds
	texts         map[string][]byte // the open documents' texts the model was built from
	versions      map[string]int    // and their versions
	ready         chan struct{}     // closed and replaced after each check
	files         map[string]bool   // files whose diagnostics it published last
	took          time.Duration     // how long the last check took
}

// holds reports whether a change to the file name concerns the project.
func (p *project) holds(name string) bool {
	if p.loose {
		return name == p.root
	}
	return under(name, p.root)
}

// projectLocked returns the project of root, starting its worker when it is new.
func (s *Server) projectLocked(root string, loose bool) *project {
	if p := s.projects[root]; p != nil {
		return p
	}
	ctx, cancel := context.WithCancel(s.ctx)
	p := &project{
		root: root, loose: loose, cancel: cancel,
		kick: make(chan struct{}, 1), now: make(chan struct{}, 1), done: make(chan struct{}),
		ready: make(chan struct{}), files: map[string]bool{},
	}
	s.projects[root] = p
	s.workers.Go(func() {
		defer close(p.done)
		s.work(ctx, p)
	})
	return p
}

// kickLocked asks for a re-check of p at a new generation.
func (s *Server) kickLocked(p *project) {
	s.gen++
	p.wanted = s.gen
	select {
	case p.kick <- struct{}{}:
	default:
	}
}

// removeLocked stops p's worker and, once it has stopped, clears the diagnostics it
// published.
func (s *Server) removeLocked(p *project) {
	delete(s.projects, p.root)
	p.cancel()
	s.workers.Go(func() {
		<-p.done
		s.mu.Lock()
		defer s.mu.Unlock()
		if s.shutdown {
			return
		}
		for name := range p.files {
			if owner := s.ownerLocked(name); owner == nil || owner == p {
				s.publishLocked(name, nil, nil)
			}
		}
	})
}

// ownerLocked is the project whose diagnostics a file shows: the innermost folder holding
// it, else its loose project; nil when none.
func (s *Server) ownerLocked(name string) *project {
	var best *project
	for _, p := range s.projects {
		if p.holds(name) && (best == nil || len(p.root) > len(best.root)) {
			best = p
		}
	}
	return best
}

// work re-checks p after each change, once the changes pause for the debounce (or at once
// when a request waits for the model), until ctx ends.
func (s *Server) work(ctx context.Context, p *project) {
	for {
		select {
		case <-ctx.Done():
			return
		case <-p.kick:
		case <-p.now:
		}
		if !s.debounce(ctx, p) {
			return
		}
		s.mu.Lock()
		gen := p.wanted
		texts, versions := s.overlayLocked(p)
		s.mu.Unlock()
		start := time.Now()
		m, err := s.check(ctx, p.root, texts)
		took := time.Since(start)
		if ctx.Err() != nil {
			return
		}
		s.mu.Lock()
		if err == nil {
			p.model, p.texts, p.versions = m, texts, versions
		}
		p.built, p.took = gen, took
		close(p.ready)
		p.ready = make(chan struct{})
		s.mu.Unlock()
		if err != nil {
			s.showError(fmt.Sprintf("checking %s: %v", p.root, err))
			continue
		}
		s.logf("checked %s: %d findings in %v", p.root, len(m.Findings), took.Round(time.Millisecond))
		s.publish(p, m, texts, versions)
	}
}

// debounce waits until no change has come for the debounce, or a request asks for the
// model now; false when ctx ended.
func (s *Server) debounce(ctx context.Context, p *project) bool {
	t := time.NewTimer(s.opts.Debounce)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return false
		case <-p.kick:
			t.Reset(s.opts.Debounce)
		case <-p.now:
			return true
		case <-t.C:
			return true
		}
	}
}

// check runs the CheckFunc, turning a panic into an error.
func (s *Server) check(ctx context.Context, root string, texts map[string][]byte) (m *Model, err error) {
	defer func() {
		if p := recover(); p != nil {
			m, err = nil, fmt.Errorf("internal error: %v", p)
		}
	}()
	m, err = s.opts.Check(ctx, root, texts)
	if err == nil && m == nil {
		err = fmt.Errorf("internal error: no model")
	}
	return m, err
}

// overlayLocked copies the texts of the open documents p reads, and their versions.
func (s *Server) overlayLocked(p *project) (map[string][]byte, map[string]int) {
	texts, versions := map[string][]byte{}, map[string]int{}
	for name, d := range s.docs {
		if p.holds(name) {
			texts[name] = d.text // never mutated: a change replaces the slice
			versions[name] = d.version
		}
	}
	return texts, versions
}

// A snapshot is a project's model with the texts it was built from.
type snapshot struct {
	p        *project
	model    *Model
	texts    map[string][]byte
	versions map[string]int
}

// await returns the model of the project that owns the file name, checked at least as
// recently as the last change to it (it asks for a check at once if one is due), with the
// texts it was built from; the model is nil when no check has succeeded.
func (s *Server) await(ctx context.Context, name string) (*snapshot, error) {
	s.mu.Lock()
	p := s.ownerLocked(name)
	if p == nil {
		s.mu.Unlock()
		return nil, fmt.Errorf("%s is in no workspace folder and not open", name)
	}
	gen := p.wanted
	s.mu.Unlock()
	for {
		s.mu.Lock()
		snap := &snapshot{p: p, model: p.model, texts: p.texts, versions: p.versions}
		built, ready := p.built, p.ready
		s.mu.Unlock()
		if built >= gen {
			return snap, nil
		}
		select {
		case p.now <- struct{}{}:
		default:
		}
		select {
		case <-ready:
		case <-p.done: // removed or stopped: the last model is all there is
			return snap, nil
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
}
