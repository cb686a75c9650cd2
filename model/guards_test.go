package model

import (
	"strings"
	"testing"

	"github.com/retryplanner/retry-planner/backoff"
	"github.com/retryplanner/retry-planner/views/pane"
)

// The service's page takes the client's guards (issue 26) after the
// queue's selects, each time with its unit as the flags take it, refused
// beside its field otherwise; applied, the note names them and pane 5 and
// pane 2 show them.
func TestFormTakesTheGuards(t *testing.T) {
	m := openServicePage(t)
	m = deliver(t, m, press("backspace", "100")...)
	m = deliver(t, m, enters(9)...) // load, load until, budget, processes, queue, timeout, queue order, expired, the hang
	if got := focused(m); got != pane.FieldName(backoff.OutageHang) {
		t.Fatalf("the focused field is %q, want the outage hang", got)
	}
	m = deliver(t, m, press("backspace", "5", "enter")...)
	if got := focused(m); got != pane.FieldName(backoff.OutageHang) {
		t.Errorf("a hang without a unit: the cursor moved on to %q", got)
	}
	if view := m.View(); !strings.Contains(view, "A time needs a unit: 5ms or 5s?") {
		t.Errorf("no error beside the outage hang:\n%s", view)
	}
	m = deliver(t, m, press("s", "enter")...)
	if got := focused(m); got != breakerField {
		t.Fatalf("the focused field is %q, want the breaker", got)
	}
	m = deliver(t, m, press("backspace", "backspace", "backspace", "backspace", "5:30", "enter")...)
	if view := m.View(); focused(m) != breakerField || !strings.Contains(view, "The time it stays open needs a unit: 5:30ms or 5:30s?") {
		t.Errorf("a breaker without a unit: focused %q, want it refused beside the breaker:\n%s", focused(m), view)
	}
	m = deliver(t, m, press("backspace", "backspace", "backspace", "backspace", "gobreaker", "enter", "backspace", "2s", "enter")...)
	m = deliver(t, m, enters(thirdPage)...) // the third page, and apply
	if m.SettingsPane().Editing() {
		t.Fatalf("the form is still open: %q", m.SettingsPane().finalErr)
	}
	s := m.Settings()
	if s.OutageHang != 5000 || s.Breaker != (backoff.Breaker{Failures: 6, Open: 60000}) || s.RetryAfter != 2000 {
		t.Errorf("applied %+v, want a hang of 5000 ms, the breaker 6:60s, retry after 2000 ms", s)
	}
	want := "Applied: capacity a second 0 → 100, outage hang none → 5 s, retry after none → 2 s, breaker none → 6:60s."
	if got := m.SettingsPane().Note(); got != want {
		t.Errorf("note %q, want %q", got, want)
	}
	for _, want := range []string{"outage hang", "5 s", "6:60s: 6 failures in a row open it for 1 min", "retry after"} {
		if view := m.View(); !strings.Contains(view, want) {
			t.Errorf("pane 5 does not say %q:\n%s", want, view)
		}
	}
	if got := m.CrowdPane().Crowds()[backoff.Exponential].Figures; got.ShortCircuited == 0 || got.BreakerOpened == 0 {
		t.Errorf("pane 2's crowds have no breaker: %+v", got)
	}
}
