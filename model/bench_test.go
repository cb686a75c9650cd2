package model

import (
	"sync/atomic"
	"testing"

	"github.com/retryplanner/retry-planner/backoff"
)

// BenchmarkView draws one frame of each pane at 200x60: a frame has to
// take well under a millisecond for the program to keep up with a key held
// down.
func BenchmarkView(b *testing.B) {
	panes := []struct {
		name string
		keys []string
	}{
		{"1_client", nil},
		{"2_crowd", []string{"2"}},
		{"3_timeline", []string{"3", "right"}},
		{"3_timeline_all", []string{"3", "a"}},
		{"4_jobs", []string{"4", "enter", "a:0 b:1 c:2 d:3 e:4 f:9 g:fatal h:11", "enter"}},
		{"5_settings", []string{"5"}},
		{"5_settings_form", []string{"5", "enter"}},
	}
	for _, p := range panes {
		b.Run(p.name, func(b *testing.B) {
			m := send(b, newApp(b, 200, 60), press(p.keys...)...)
			b.ReportAllocs()
			for b.Loop() {
				_ = m.View()
			}
		})
	}
}

// BenchmarkHeldKey is a key and the frame after it: the policy changed in
// panes 1 and 3, the next client in pane 1, pane 2 scrolled (with plans A
// and B), the ledger scrolled in pane 4.
func BenchmarkHeldKey(b *testing.B) {
	panes := []struct {
		name  string
		setup []string
		key   string
	}{
		{"1_client", nil, "right"},
		{"1_client_next", nil, "down"},
		{"2_crowd", []string{"2"}, "down"},
		{"2_crowd_ab", []string{"p", "d", "2"}, "down"},
		{"3_timeline", []string{"3"}, "right"},
		{"3_timeline_all", []string{"3", "a"}, "right"},
		{"4_jobs", []string{"4", "enter", "a:0 b:1 c:2 d:3 e:4 f:9 g:fatal h:11", "enter"}, "down"},
	}
	for _, p := range panes {
		b.Run(p.name, func(b *testing.B) {
			m := send(b, newApp(b, 200, 60), press(p.setup...)...)
			if p.key == "down" && p.name == "1_client_next" {
				// 1,000 clients, so that a held down does not stop at the last.
				s := m.Settings()
				s.Clients = 1000
				m = send(b, m, SettingsAppliedMsg{Settings: s})
			}
			k := press(p.key)[0]
			b.ReportAllocs()
			for b.Loop() {
				next, _ := m.Update(k)
				m = next.(App)
				_ = m.View()
			}
		})
	}
}

// BenchmarkPlanChange is what a change of settings computes off the loop
// before every figure has landed: the six policies' crowds with their
// series, then their spread over 100 seeds with independent draws, on
// every core. The goals: within 50 ms at the defaults, within 1 s at 1,000
// clients and the largest reference waits (first 10 s, longest 10 min, 12
// attempts, an outage of 10 min).
func BenchmarkPlanChange(b *testing.B) {
	big := backoff.Defaults()
	big.Clients, big.FirstWait, big.LongestWait, big.Attempts, big.Outage = 1000, 10000, 600000, 12, 600000
	for _, c := range []struct {
		name string
		s    backoff.Settings
	}{{"defaults", backoff.Defaults()}, {"1000_clients_largest_waits", big}} {
		p := DefaultPlan(c.s)
		ps := policiesOf(p)
		core := CoreCompute()
		b.Run(c.name+"/crowds", func(b *testing.B) {
			for b.Loop() {
				if _, err := core.Crowds(ps, c.s, backoff.Options{Series: true}); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(c.name+"/spread", func(b *testing.B) {
			for b.Loop() {
				if _, err := core.Spread(ps, p.spreadSettings(), p.Seeds, backoff.SeedOptions{Done: new(atomic.Int64)}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
