//go:build engine

package main

// engineBuilt is true: this build has the embedded engine (-tags engine), as the release
// binaries do, and with it `verify` and `check --verify`.
const engineBuilt = true
