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
