package rules

import (
	"errors"
	"fmt"
	"strings"
)

// All returns every rule, in ID order, as a fresh list the caller may change.
func All() []*Rule {
	return []*Rule{
		bl101(), bl102(), bl103(), bl104(), bl105(), bl106(), bl107(),
		bl201(), bl202(), bl203(),
		bl301(), bl302(), bl303(), bl304(), bl305(), bl306(), bl307(), bl308(), bl309(), bl310(), bl311(), bl312(), bl313(),
		bl401(), bl402(), bl403(), bl404(), bl405(),
		bl901(), bl902(),
	}
}

// ByID returns the rule of rules with the given ID or name, nil when there is none.
func ByID(rules []*Rule, idOrName string) *Rule {
	for _, r := range rules {
		if r.ID == idOrName || r.Name == idOrName {
			return r
		}
	}
	return nil
}

// Select resolves one entry of a rules list: "all", an ID or name, or an ID prefix naming a
// family ("BL3": joins and aggregations). It returns nothing for an unknown entry.
func Select(catalogue []*Rule, name string) []*Rule {
	if name == "all" {
		return catalogue
	}
	if r := ByID(catalogue, name); r != nil {
		return []*Rule{r}
	}
	var out []*Rule
	if len(name) >= 3 && strings.HasPrefix(name, "BL") {
		for _, r := range catalogue {
			if strings.HasPrefix(r.ID, name) {
				out = append(out, r)
			}
		}
	}
	return out
}

// Enabled says which rules are on: each rule's default, then the entries in order, each
// "all", "none", an ID, a name or a family (see Select), turned off by a leading "-" ("-none"
// turns every rule on). Entries that select nothing change nothing.
func Enabled(catalogue []*Rule, entries []string) map[string]bool {
	on := map[string]bool{}
	for _, r := range catalogue {
		on[r.ID] = r.Default
	}
	for _, e := range entries {
		name, neg := strings.CutPrefix(e, "-")
		for _, r := range Select(catalogue, name) {
			on[r.ID] = !neg
		}
		if name == "none" {
			for _, r := range catalogue {
				on[r.ID] = neg
			}
		}
	}
	return on
}

// Validate checks a rule list: IDs of the form BL[1-4 or 9]NN, unique IDs and names, names
// in kebab case, and every documentation field and Run set.
func Validate(rules []*Rule) error {
	ids, names := map[string]bool{}, map[string]bool{}
	var errs []error
	for i, r := range rules {
		if r == nil {
			errs = append(errs, fmt.Errorf("rule %d: nil", i))
			continue
		}
		if !validID(r.ID) {
			errs = append(errs, fmt.Errorf("rule %d: malformed ID %q", i, r.ID))
		}
		if !validName(r.Name) {
			errs = append(errs, fmt.Errorf("rule %s: malformed name %q", r.ID, r.Name))
		}
		if ids[r.ID] {
			errs = append(errs, fmt.Errorf("rule %s: duplicate ID", r.ID))
		}
		if names[r.Name] {
			errs = append(errs, fmt.Errorf("rule %s: duplicate name %q", r.ID, r.Name))
		}
		ids[r.ID], names[r.Name] = true, true
		for _, f := range []struct{ field, value string }{
			{"Title", r.Title}, {"Doc", r.Doc}, {"Bad", r.Bad}, {"Good", r.Good}, {"Spark", r.Spark}, {"Since", r.Since},
		} {
			if f.value == "" {
				errs = append(errs, fmt.Errorf("rule %s: empty %s", r.ID, f.field))
			}
		}
		if r.Run == nil {
			errs = append(errs, fmt.Errorf("rule %s: nil Run", r.ID))
		}
		if r.Severity < Info || r.Severity > Error {
			errs = append(errs, fmt.Errorf("rule %s: invalid severity %d", r.ID, r.Severity))
		}
	}
	return errors.Join(errs...)
}

// validID reports whether id is BL followed by a category digit (1-4, or 9) and two digits.
func validID(id string) bool {
	digit := func(c byte) bool { return '0' <= c && c <= '9' }
	return len(id) == 5 && id[:2] == "BL" && ('1' <= id[2] && id[2] <= '4' || id[2] == '9') && digit(id[3]) && digit(id[4])
}

// validName reports whether name is kebab case: lower-case letters and digits in words
// joined by single hyphens.
func validName(name string) bool {
	if name == "" || name[0] == '-' || name[len(name)-1] == '-' || strings.Contains(name, "--") {
		return false
	}
	for i := 0; i < len(name); i++ {
		if c := name[i]; c != '-' && (c < 'a' || c > 'z') && (c < '0' || c > '9') {
			return false
		}
	}
	return true
}
