//go:build !engine

package main

import (
	"testing"

	"github.com/bucketlint/bucketlint/internal/enginetest"
)

// TestEngineBuild runs this package's tests in the engine build (-tags engine), from a test
// run without the tag (see internal/enginetest), so that they are never skipped unsaid.
func TestEngineBuild(t *testing.T) { enginetest.Run(t) }
