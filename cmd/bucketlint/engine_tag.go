package main

// errNoEngine is the error of a command that needs the embedded engine in a build without it
// (engineBuilt false): a usage error (exit 2) that says where to get a build with it.
func errNoEngine(what string) error {
	return usagef("this bucketlint was built without the embedded engine, which %s runs on (the default `go install` "+
		"leaves it out to stay light); the release binaries include it, or install it with "+
		"`go install -tags engine github.com/bucketlint/bucketlint/cmd/bucketlint@VERSION`", what)
}
