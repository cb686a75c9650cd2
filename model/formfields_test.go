package model

import (
	"testing"

	"github.com/retryplanner/retry-planner/backoff"
)

// Whatever is typed into any field of the settings form: nothing panics; a
// value the field takes is within its wide range (whether the plan as a
// whole holds, the longest wait at least the first, is the later fields'
// and the last enter's to check), and what the field opens with next time
// reads back as the same plan.
func FuzzFormField(f *testing.F) {
	for _, seed := range []string{"1000", "1s", "1.5s", "1s500ms", "1m30s", "0", "default", "x1.6", "2", "grpc:10:0.1", "aws:500:5",
		"spread:0.2", "none", "-1", "+5", "1.5ms", "99999999999", "", " 1s", "1h", "24h1ms", "10000", "clients", "CLIENTS", "45S",
		"5:30s", "5:30", "gobreaker", "0:1s", "1001:1s"} {
		for i := range formTexts() {
			f.Add(uint8(i), seed)
		}
	}
	f.Fuzz(func(t *testing.T, field uint8, typed string) {
		texts := formTexts()
		ft := texts[int(field)%len(texts)]
		p := DefaultPlan(backoff.Defaults())
		if err := ft.set(&p, typed); err != nil {
			if p != DefaultPlan(backoff.Defaults()) {
				t.Fatalf("%s %q: refused (%v), but the plan changed", ft.name, typed, err)
			}
			return
		}
		if ft.field >= 0 {
			if err := p.Settings.CheckIn(backoff.WideLimits, ft.field, p.Settings.Get(ft.field)); err != nil {
				t.Fatalf("%s %q: taken, but out of its range: %v", ft.name, typed, err)
			}
		} else if err := p.Settings.ValidateIn(backoff.WideLimits); err != nil {
			t.Fatalf("%s %q: taken, but the settings are not valid: %v", ft.name, typed, err)
		}
		if p.Seeds < 0 || p.Seeds > backoff.MaxSeeds {
			t.Fatalf("%s %q: %d seeds taken", ft.name, typed, p.Seeds)
		}
		again := DefaultPlan(backoff.Defaults())
		if err := ft.set(&again, ft.get(p)); err != nil || again != p {
			t.Fatalf("%s %q: opens next time as %q, which reads as %+v (%v), want %+v", ft.name, typed, ft.get(p), again, err, p)
		}
	})
}

// The processes' field takes clients, a process per client (issue 24,
// item 7), and opens with it again; its title says so.
func TestFormProcessesPerClient(t *testing.T) {
	var field formText
	for _, ft := range formTexts() {
		if ft.field == backoff.Processes {
			field = ft
		}
	}
	p := DefaultPlan(backoff.Defaults())
	if err := field.set(&p, "Clients"); err != nil || p.Settings.Processes != backoff.PerClient {
		t.Fatalf("processes Clients: got %d, %v; want a process per client", p.Settings.Processes, err)
	}
	if got := field.get(p); got != "clients" {
		t.Errorf("opens with %q, want clients", got)
	}
	if got, want := fieldTitle(field, p.Settings), "processes (1 to 100,000, or clients for one each)"; got != want {
		t.Errorf("title: got %q, want %q", got, want)
	}
	if err := field.set(&p, "-1"); err == nil {
		t.Errorf("processes -1: taken, want a refusal")
	}
}
