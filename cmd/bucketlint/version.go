package main

import (
	"runtime/debug"
)

// stampedVersion is the release the binary was built as, set by the release script
// (.ci/release: -ldflags "-X main.stampedVersion=v1.2.3"); empty in other builds.
var stampedVersion string //nolint:gochecknoglobals // the linker sets it (-X main.stampedVersion=v1.2.3)

// version is the bucketlint version a binary reports: the stamped release; else the module
// version the go command recorded (`go install github.com/bucketlint/bucketlint/cmd/bucketlint@v1.2.3`
// records v1.2.3, and a build inside a Git checkout a pseudo-version); else "devel".
var version = buildVersion(stampedVersion, debug.ReadBuildInfo)

// buildVersion picks the version from the stamp, then the build information.
func buildVersion(stamp string, read func() (*debug.BuildInfo, bool)) string {
	if stamp != "" {
		return stamp
	}
	if bi, ok := read(); ok && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		return bi.Main.Version
	}
	return "devel"
}
