package model

import (
	"errors"
	"strings"

	"github.com/retryplanner/retry-planner/backoff"
)

// The policies the panes compare: by default the five and one's own
// (custom); any list of the five, custom and the presets, as --policies and
// plans name them (issue 19, item 4). A plan keeps its list as one string,
// so that plans stay comparable with ==.

// DefaultPolicyNames are the policies the panes compare unless told: the
// five, then custom.
func DefaultPolicyNames() []string {
	return []string{"fixed", "exponential", "full-jitter", "equal-jitter", "decorrelated", "custom"}
}

// policyName is a name as the program writes it back: lower case, a hyphen
// for each space or underscore ("Full Jitter" is "full-jitter").
func policyName(name string) string {
	return strings.ToLower(strings.NewReplacer(" ", "-", "_", "-").Replace(strings.TrimSpace(name)))
}

// policiesFrom are names as Plan.Policies keeps them: "" for the default
// six, else the names written back, joined by commas.
func policiesFrom(names []string) string {
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = policyName(n)
	}
	joined := strings.Join(out, ",")
	if joined == strings.Join(DefaultPolicyNames(), ",") {
		return ""
	}
	return joined
}

// PolicyNames are the names of the policies the plan compares, in order.
func (p Plan) PolicyNames() []string {
	if p.Policies == "" {
		return DefaultPolicyNames()
	}
	return strings.Split(p.Policies, ",")
}

// policiesOf are the policies the panes show for p, in its order; a name
// the settings no longer take (none: the names are checked as they come)
// is left out, and none left gives the default six.
func policiesOf(p Plan) []backoff.Policy {
	var out []backoff.Policy
	for _, name := range p.PolicyNames() {
		if pol, err := backoff.LookupPolicy(p.Settings, name); err == nil {
			out = append(out, pol)
		}
	}
	if len(out) == 0 {
		return append(p.Settings.Five(), p.Settings.Custom())
	}
	return out
}

// errPolicies is what a list of policies the program cannot take gets.
var errPolicies = errors.New("Type the policies by name, separated by commas, each once: " + backoff.PolicyNames() + ".")

// parsePolicies reads names separated by commas, as --policies takes them,
// each a policy under s and each once (custom once it equals a preset is
// that preset), into the form Plan.Policies keeps; empty is the default
// six.
func parsePolicies(s backoff.Settings, typed string) (string, error) {
	if strings.TrimSpace(typed) == "" {
		return "", nil
	}
	var names []string
	seen := map[string]bool{}
	for item := range strings.SplitSeq(typed, ",") {
		p, err := backoff.LookupPolicy(s, item)
		if err != nil || strings.TrimSpace(item) == "" || seen[p.Name] {
			return "", errPolicies
		}
		seen[p.Name] = true
		names = append(names, item)
	}
	return policiesFrom(names), nil
}
