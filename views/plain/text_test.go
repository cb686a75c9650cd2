package plain

import (
	"testing"

	"github.com/retryplanner/retry-planner/backoff"
)

func TestPolicyTextsNameEveryPolicy(t *testing.T) {
	if want := "policy (" + backoff.ShapeList() + ")> "; PolicyPrompt != want {
		t.Errorf("PolicyPrompt: got %q, want %q", PolicyPrompt, want)
	}
	if want := "Type " + backoff.ShapeList() + "."; PolicyError != want {
		t.Errorf("PolicyError: got %q, want %q", PolicyError, want)
	}
}

// Issue 19, item 3: the crowd's first sentence says each policy's attempts
// where they differ, and is the reference's, byte for byte, when every
// policy tries the settings' attempts (always so in --plain).
func TestCrowdIntroSaysEachPolicysAttempts(t *testing.T) {
	s := backoff.Defaults()
	grpc, _ := backoff.FindPreset("grpc")
	aws, _ := backoff.FindPreset("aws")
	ref := "200 clients fail at 0 ms; the service is back at 10000 ms; each tries 6 times at most. Retries counted per 100 ms"
	withGRPC := s.WithPreset(grpc)
	tests := []struct {
		name string
		s    backoff.Settings
		ps   []backoff.Policy
		want string
	}{
		{"the five", s, s.Five(), ref},
		{"none", s, nil, ref},
		{"grpc and aws", s, []backoff.Policy{grpc.Policy, aws.Policy},
			"200 clients fail at 0 ms; the service is back at 10000 ms; grpc tries 5 times at most, aws 3. Retries counted per 100 ms"},
		{"the five and grpc", s, append(s.Five(), grpc.Policy),
			"200 clients fail at 0 ms; the service is back at 10000 ms; each tries 6 times at most, but grpc 5. Retries counted per 100 ms"},
		{"the five, grpc and aws", s, append(s.Five(), grpc.Policy, aws.Policy),
			"200 clients fail at 0 ms; the service is back at 10000 ms; each tries 6 times at most, but grpc 5 and aws 3. Retries counted per 100 ms"},
		{"all alike but not the settings'", s, []backoff.Policy{aws.Policy, aws.Policy},
			"200 clients fail at 0 ms; the service is back at 10000 ms; each tries 3 times at most. Retries counted per 100 ms"},
		// A preset is custom's alone (issue 19, item 2): the five keep theirs.
		{"the five under a preset", withGRPC, withGRPC.Five(), ref},
		{"the five and custom under a preset", withGRPC, append(withGRPC.Five(), withGRPC.Custom()),
			"200 clients fail at 0 ms; the service is back at 10000 ms; each tries 6 times at most, but grpc 5. Retries counted per 100 ms"},
	}
	for _, tt := range tests {
		if got := CrowdIntroOf(tt.s, tt.ps); got != tt.want {
			t.Errorf("%s: got\n%q\nwant\n%q", tt.name, got, tt.want)
		}
	}
	if CrowdIntro(s) != ref {
		t.Errorf("CrowdIntro: got %q, want the reference's %q", CrowdIntro(s), ref)
	}
}
