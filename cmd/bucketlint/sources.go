package main

import (
	"sync"

	"github.com/bucketlint/bucketlint/internal/readcap"
	"github.com/bucketlint/bucketlint/parser/perr"
	"github.com/bucketlint/bucketlint/rules"
)

// sources reads input files once and keeps them: rules, inline suppressions and SARIF
// columns all read the same text. It is safe for concurrent use.
type sources struct {
	mu    sync.Mutex
	files map[string][]byte
	limit int64 // the largest file read (--max-input-size)
}

func newSources(limit int64) *sources { return &sources{files: map[string][]byte{}, limit: limit} }

// get returns a file's contents, nil when it cannot be read.
func (s *sources) get(file string) []byte {
	s.mu.Lock()
	b, ok := s.files[file]
	s.mu.Unlock()
	if ok {
		return b
	}
	b, err := readcap.File(file, s.limit)
	if err != nil {
		b = nil
	}
	s.mu.Lock()
	s.files[file] = b
	s.mu.Unlock()
	return b
}

// readers is how many files scanAll reads at once: reading is I/O-bound, so more readers
// than cores pay off even on one core.
const readers = 16

// scanAll reads every file (keeping it for later readers) and collects its suppressions and
// their errors, in file order whatever the scheduling.
func scanAll(files []string, src *sources, catalogue []*rules.Rule) ([]*directive, perr.List) {
	dirs := make([][]*directive, len(files))
	errs := make([]perr.List, len(files))
	next := make(chan int)
	var wg sync.WaitGroup
	for range min(readers, len(files)) {
		wg.Go(func() {
			for i := range next {
				dirs[i], errs[i] = scanDirectives(files[i], src.get(files[i]), catalogue)
			}
		})
	}
	for i := range files {
		next <- i
	}
	close(next)
	wg.Wait()
	var all []*directive
	var allErrs perr.List
	for i := range files {
		all = append(all, dirs[i]...)
		allErrs = append(allErrs, errs[i]...)
	}
	return all, allErrs
}
