package main

import (
	"runtime/debug"
	"testing"
)

// TestBuildVersion: the stamp wins; else the module version the go command recorded
// (`go install …@v1.2.3` records v1.2.3); a build from a checkout without VCS stamping is "devel".
func TestBuildVersion(t *testing.T) {
	info := func(v string, ok bool) func() (*debug.BuildInfo, bool) {
		return func() (*debug.BuildInfo, bool) { return &debug.BuildInfo{Main: debug.Module{Version: v}}, ok }
	}
	for _, tc := range []struct {
		name, stamp string
		read        func() (*debug.BuildInfo, bool)
		want        string
	}{
		{"stamped_release", "v1.2.3", info("(devel)", true), "v1.2.3"},
		{"stamp_wins_over_module", "v1.2.3", info("v1.2.2", true), "v1.2.3"},
		{"go_install_at_version", "", info("v0.4.0", true), "v0.4.0"},
		{"pseudo_version_from_git", "", info("v0.0.0-20261202033000-5977cb4abcde", true), "v0.0.0-20261202033000-5977cb4abcde"},
		{"checkout_without_vcs", "", info("(devel)", true), "devel"},
		{"no_build_info", "", info("", false), "devel"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := buildVersion(tc.stamp, tc.read); got != tc.want {
				t.Errorf("buildVersion = %q, want %q", got, tc.want)
			}
		})
	}
}
