package simulate

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// A Version is a Spark release number; Patch is -1 when only major.minor was given, which
// stands for the latest patch release of that minor series.
type Version struct {
	Major, Minor, Patch int
}

// ParseVersion reads "3.5", "3.0.1" or "4.0.0-preview1" (suffixes after the patch are ignored).
// Every minor release of the major versions the behaviour table spans is accepted (Spark 3.x
// and 4.x today); a minor release newer than the table's last behaves as that last one.
func ParseVersion(s string) (Version, error) {
	s = strings.TrimSpace(s)
	if i := strings.IndexAny(s, "-+ "); i >= 0 {
		s = s[:i]
	}
	parts := strings.Split(s, ".")
	if len(parts) < 2 || len(parts) > 3 {
		return Version{}, fmt.Errorf("spark version %q: want MAJOR.MINOR[.PATCH]", s)
	}
	v := Version{Patch: -1}
	nums := []*int{&v.Major, &v.Minor, &v.Patch}
	for i, p := range parts {
		n, err := strconv.Atoi(p)
		if err != nil || n < 0 {
			return Version{}, fmt.Errorf("spark version %q: %q is not a number", s, p)
		}
		*nums[i] = n
	}
	sup := SupportedVersions()
	if lo, hi := sup[0].Major, sup[len(sup)-1].Major; v.Major < lo || v.Major > hi {
		return Version{}, fmt.Errorf("spark version %q: only Spark %s are modelled", s, majorsText(lo, hi))
	}
	return v, nil
}

// majorsText lists the major versions lo to hi: "3.x and 4.x".
func majorsText(lo, hi int) string {
	var b strings.Builder
	for m := lo; m <= hi; m++ {
		if m > lo && m < hi {
			b.WriteString(", ")
		} else if m > lo {
			b.WriteString(" and ")
		}
		fmt.Fprintf(&b, "%d.x", m)
	}
	return b.String()
}

// String prints the version as given.
func (v Version) String() string {
	if v.Patch < 0 {
		return fmt.Sprintf("%d.%d", v.Major, v.Minor)
	}
	return fmt.Sprintf("%d.%d.%d", v.Major, v.Minor, v.Patch)
}

// AtLeast reports whether v is major.minor.patch or later; a version given without a patch
// counts as the latest patch of its minor release.
//
// Only the behaviour table (BehaviourOf) compares versions: code that depends on the version
// reads a named field of [Behaviour] instead.
func (v Version) AtLeast(major, minor, patch int) bool {
	return v.compare(Version{Major: major, Minor: minor, Patch: patch}) >= 0
}

// Era returns the co-partitioning era of the version, BehaviourOf(v).CoPartition.
func (v Version) Era() Era { return BehaviourOf(v).CoPartition }

// compare orders versions: negative when v comes before w, zero when they are the same
// release, positive after. A version without a patch stands for the latest patch of its
// series, so 3.3.0 comes before 3.3 and 3.3 before 3.4.0.
func (v Version) compare(w Version) int {
	if v.Major != w.Major {
		return v.Major - w.Major
	}
	if v.Minor != w.Minor {
		return v.Minor - w.Minor
	}
	vp, wp := v.Patch, w.Patch
	if vp < 0 {
		vp = math.MaxInt32
	}
	if wp < 0 {
		wp = math.MaxInt32
	}
	return vp - wp
}

// series is the version without its patch: the latest release of its minor series.
func (v Version) series() Version { return Version{Major: v.Major, Minor: v.Minor, Patch: -1} }

// VersionRange reads the versions a test case states: "3.5" or "3.3.0" (that version only),
// "3.3+" (3.3.0 and every later version), "3.0-3.2" (3.0.0 through the latest 3.2) or
// "3.0.2-3.3.0". A range expands over DistinctVersions, the versions that show every
// behaviour of the table, so a new Spark version joins every open range by its table row.
func VersionRange(spec string) ([]Version, error) {
	lo, hi, isRange := strings.Cut(spec, "-")
	open := strings.HasSuffix(spec, "+")
	if open {
		lo, isRange = strings.TrimSuffix(spec, "+"), true
	}
	first, err := ParseVersion(lo)
	if err != nil {
		return nil, fmt.Errorf("version range %q: %w", spec, err)
	}
	if !isRange {
		return []Version{first}, nil
	}
	if first.Patch < 0 {
		first.Patch = 0
	}
	last := Version{Major: math.MaxInt32}
	if !open {
		if last, err = ParseVersion(hi); err != nil {
			return nil, fmt.Errorf("version range %q: %w", spec, err)
		}
	}
	var out []Version
	for _, v := range DistinctVersions() {
		if first.compare(v) <= 0 && v.compare(last) <= 0 {
			out = append(out, v)
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("version range %q: no modelled version in it", spec)
	}
	return out, nil
}
