package model

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/retryplanner/retry-planner/backoff"
	"github.com/retryplanner/retry-planner/views/pane"
	"github.com/retryplanner/retry-planner/views/words"
)

// Issue 19, item 5: a number is never cut, in any pane, at any width from
// 50 to 200: a table that does not fit is wrapped, never cut.

// stormApp is the program on issue 19's storm: 50,000 clients, a 30 s
// outage, a capacity of 2,000 a second and a load of 1,500, the five with
// the grpc and aws presets, the AWS SDKs' budget, the spread over 5 seeds
// landed.
func stormApp(t testing.TB, w, h int) App {
	t.Helper()
	s := backoff.Defaults()
	s.Clients, s.Outage, s.Capacity, s.Load = 50000, 30000, 2000, 1500
	s.Budget, s.Processes = backoff.Budget{Kind: backoff.BudgetAWS, A: 500, B: 5}, 1000
	policies := append(DefaultPolicyNames()[:5], "grpc", "aws")
	return send(t, NewApp(s, pane.DefaultStyles(), inline(WithSeeds(5), WithPolicies(policies))...), tea.WindowSizeMsg{Width: w, Height: h})
}

// numberRE is a number as the panes write one: digits with their commas and
// decimal point, and a median/p95 pair.
var numberRE = regexp.MustCompile(`\d[\d,.]*(?:/\d[\d,.]*)*`)

// cutNumber finds a number the width cut: one an ellipsis follows.
var cutNumber = regexp.MustCompile(`\d[\d,./]*(?: ?[a-zµ]{1,3})?…`)

// numbers are the numbers of a frame, counted.
func numbers(frame string) map[string]int {
	out := map[string]int{}
	for _, n := range numberRE.FindAllString(frame, -1) {
		out[strings.TrimRight(n, ".,")]++
	}
	return out
}

// cells are what the crowd's tables must show whole, for each policy: the
// one seed's figures and their medians and 95th percentiles.
func cells(m App) []string {
	var out []string
	d := m.CrowdPane().Data().B
	for i, r := range d.Crowds {
		f := r.Figures
		out = append(out, words.Count(f.Retries), words.Count(f.MostInASlot), words.Count(f.GaveUp), words.Count(f.PeakAfterBack),
			words.Count(f.Served), words.Count(f.Rejected), words.Count(f.Throttled), words.Human(f.RecoveredAfter), words.Human(f.LatencyP99))
		if d.Spread == nil {
			continue
		}
		sp := d.Spread.Policies[i]
		for _, name := range []string{"retries", "served", "rejected", "throttled"} {
			v := sp.Spread(name)
			out = append(out, words.Count(v.Median)+"/"+words.Count(v.P95))
		}
		for _, name := range []string{"recovered_after_ms", "latency_p99_ms"} {
			v := sp.Spread(name)
			out = append(out, words.Human(v.Median)+"/"+words.Human(v.P95))
		}
	}
	return out
}

func TestNoNumberIsCut(t *testing.T) {
	// Each state in a window tall enough for every line of its pane: the
	// timeline's rows of 100 ms over 90 s need about a thousand.
	states := []struct {
		name string
		keys []string
		tall int
	}{
		{"client", []string{"1", "right", "right", "right", "right"}, 40}, // grpc
		{"crowd", []string{"2"}, 40},
		{"crowd A and B", []string{"p", "d", "2"}, 40},
		{"timeline A and B", []string{"p", "d", "3"}, 40},
		{"timeline", []string{"3"}, 40},
		{"timeline all", []string{"3", "a"}, 40},
		{"timeline after back", []string{"3", "b"}, 40},
		{"jobs", []string{"4", "enter", "alpha:0 bravo:2 charlie:9 delta:fatal", "enter"}, 40},
		{"settings", []string{"5"}, 40},
	}
	m := stormApp(t, 200, 400)
	if len(m.CrowdPane().Data().B.Crowds) != 7 || m.CrowdPane().Data().B.Spread == nil {
		t.Fatal("the storm's crowds or spread did not land")
	}
	want := cells(m)
	for _, st := range states {
		t.Run(st.name, func(t *testing.T) {
			t.Parallel()
			tall := st.tall
			m := send(t, stormApp(t, 200, tall), press(st.keys...)...)
			// The numbers at the widest width each layout has.
			wide := map[bool]map[string]int{}
			for _, w := range []int{159, 200} {
				m = send(t, m, tea.WindowSizeMsg{Width: w, Height: tall})
				wide[w >= 160] = numbers(content(m))
			}
			for w := 50; w <= 200; w++ {
				m = send(t, m, tea.WindowSizeMsg{Width: w, Height: tall})
				frame := content(m)
				if c := cutNumber.FindString(frame); c != "" {
					t.Fatalf("width %d: %q is cut:\n%s", w, c, frame)
				}
				// No number of the widest layout is lost (a narrow one may say
				// more, such as "2 of 7" beside the chosen policy).
				if got, ref := numbers(frame), wide[w >= 160]; lost(got, ref) != "" {
					t.Fatalf("width %d: numbers lost from the widest layout's: %s\n%s", w, lost(got, ref), frame)
				}
				if st.name == "crowd" {
					flat := strings.Join(strings.Fields(frame), " ")
					for _, c := range want {
						if !strings.Contains(flat, c) {
							t.Fatalf("width %d: %q does not show whole:\n%s", w, c, frame)
						}
					}
				}
			}
			// And at 80x24, what is in sight.
			m = send(t, m, tea.WindowSizeMsg{Width: 80, Height: 24})
			for range 10 {
				if c := cutNumber.FindString(m.View()); c != "" {
					t.Fatalf("80x24: %q is cut:\n%s", c, m.View())
				}
				m = send(t, m, press("pgdown")...)
			}
		})
	}
}

// content is every line of the focused pane, scrolled into sight or not:
// its fixed head, if it has one, and the lines it scrolls.
func content(m App) string {
	var head string
	var v scroller
	switch m.focus {
	case FocusClient:
		head, v = m.client.head, m.client.view
	case FocusCrowd:
		v = m.crowd.view
	case FocusTimeline:
		head, v = m.timeline.head, m.timeline.view
	case FocusJobs:
		head, v = m.jobs.summary, m.jobs.view
	default:
		v = m.form.view
	}
	return head + "\n" + strings.Join(v.lines, "\n")
}

// lost says which numbers got has fewer of than want.
func lost(got, want map[string]int) string {
	var out []string
	for k, n := range want {
		if got[k] < n {
			out = append(out, fmt.Sprintf("%s %d times (want %d)", k, got[k], n))
		}
	}
	slices.Sort(out)
	return strings.Join(out, ", ")
}
