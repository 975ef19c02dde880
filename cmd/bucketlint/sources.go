package main

import (
	"sync"

	"github.com/bucketlint/bucketlint/internal/readcap"
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
	defer s.mu.Unlock()
	if first, ok := s.files[file]; ok {
		return first // read meanwhile by another rule: every reader gets the same text
	}
	s.files[file] = b
	return b
}
