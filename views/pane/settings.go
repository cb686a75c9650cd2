package pane

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/lipgloss"

	"github.com/retryplanner/retry-planner/backoff"
	"github.com/retryplanner/retry-planner/views/words"
)

// SettingsValue writes setting f's value as the form takes it back and a
// person reads it: times in human units, the load's end as the default's
// words, the multiplier as "x2".
func SettingsValue(s backoff.Settings, f backoff.Field) string {
	v := s.Get(f)
	if shared, own := f.Follows(); own {
		// Custom's own, written as the five's field it stands beside.
		if v == backoff.Follow {
			return SettingsValue(s, shared) + " (the five's)"
		}
		t := s
		t.Set(shared, v)
		return SettingsValue(t, shared)
	}
	switch {
	case f == backoff.LoadUntil && v == backoff.DefaultLoadUntil:
		return "outage + 1 min (" + words.Human(s.LoadEnd()) + ")"
	case f == backoff.MaxElapsed && v == 0:
		return "none"
	case f == backoff.Capacity && v == 0:
		return "no limit"
	case f == backoff.Queue && v == 0:
		return "none"
	case f == backoff.Timeout && v == 0:
		return "none: waits for ever"
	case f == backoff.OutageHang && v == 0:
		return "none: fails at once"
	case f == backoff.RetryAfter && v == 0:
		return "none"
	case f == backoff.Multiplier:
		return "x" + backoff.FormatThousandths(v)
	case f.IsTime():
		return words.Human(v)
	case f == backoff.Processes && v == backoff.PerClient:
		return "one a client (" + words.Count(s.ProcessCount()) + ")"
	}
	return words.Count(v)
}

// SettingsSummary is pane 5 while its form is closed: every setting, in the
// form's three groups, and how to change them.
func SettingsSummary(s backoff.Settings, seeds int, spreadDraws backoff.Draws, w int, st *Styles) string {
	w = max(w, 0)
	if w == 0 {
		return ""
	}
	row := func(f backoff.Field) []string { return []string{fieldName(f), SettingsValue(s, f)} }
	crowd := [][]string{}
	for _, f := range []backoff.Field{backoff.FirstWait, backoff.LongestWait, backoff.Attempts, backoff.Clients, backoff.Outage, backoff.Seed, backoff.Slot} {
		crowd = append(crowd, row(f))
	}
	if s.MaxElapsed > 0 {
		// The five's limit, which --max-elapsed and plans set.
		crowd = append(crowd[:3], append([][]string{row(backoff.MaxElapsed)}, crowd[3:]...)...)
	}
	own := func(f backoff.Field) []string {
		shared, _ := f.Follows()
		return []string{fieldName(shared), SettingsValue(s, f)}
	}
	service := [][]string{row(backoff.Capacity), row(backoff.Load), row(backoff.LoadUntil), {"budget", s.Budget.String()}, row(backoff.Processes),
		row(backoff.Queue), row(backoff.Timeout), {"queue order", QueueOrderName(s.QueueOrder)}, {"drop expired", yesNo(s.DropExpired)}}
	if s.HasGuards() {
		// Said only when one is set, as the five's limit: the form's
		// service page holds them.
		service = append(service, row(backoff.OutageHang), []string{"breaker", BreakerName(s.Breaker)}, row(backoff.RetryAfter))
	}
	custom := s.Custom()
	growth := [][]string{row(backoff.Multiplier)}
	if s.Growth == backoff.GrowthLinear {
		// Said only when linear, as the five's limit only when set: the
		// multiplier stays, ignored.
		growth = [][]string{{"growth", GrowthName(s.Growth)}, {fieldName(backoff.Multiplier), SettingsValue(s, backoff.Multiplier) + ", ignored"}}
	}
	ownRows := [][]string{{"the policy of one's own", custom.Name}, own(backoff.CustomFirstWait), own(backoff.CustomLongestWait), own(backoff.CustomAttempts)}
	ownRows = append(append(ownRows, growth...), [][]string{{"jitter", s.Jitter.String()}, own(backoff.CustomMaxElapsed),
		{"draws", s.Draws.String()}, {"the spread's seeds", spreadSeeds(seeds)}, {"the spread's draws", spreadDraws.String()}}...)
	table := func(title string, rows [][]string) string {
		return st.Title.Render(cut(title, w)) + "\n" + readTable([]string{"setting", "value"}, rows, []bool{false, true}, w, st, nil)
	}
	hint := "Press enter to change them: the crowd on the form's first page, the service on its second, your own policy, the draws and the spread on its third. " +
		"Each field takes what the flags take: a time with its unit, 1.5s, 1500ms or 1m30s."
	parts := []string{table("The crowd", crowd), table("The service", service), table("Your own policy and the draws", ownRows)}
	// Side by side as far as the width allows, each row of tables under the
	// last.
	out := strings.Join(flow(parts, w), "\n\n") + "\n\n" + st.Muted.Render(prose(hint, w))
	return Fit(out, w, Height(out))
}

// GrowthName is a growth as the form offers it: "exponential, times the
// multiplier", "linear, plus the first wait".
func GrowthName(g backoff.Growth) string {
	if g == backoff.GrowthLinear {
		return "linear, plus the first wait"
	}
	return "exponential, times the multiplier"
}

// BreakerName is a breaker as pane 5 says it: "none", "5:30s: 5 failures
// in a row open it for 30 s".
func BreakerName(b backoff.Breaker) string {
	if !b.On() {
		return "none"
	}
	return fmt.Sprintf("%s: %s", b, words.BreakerRule(b))
}

// QueueOrderName is a queue's order as the form offers it: "fifo, the
// oldest first".
func QueueOrderName(o backoff.QueueOrder) string {
	if o == backoff.LIFO {
		return "lifo, the newest first"
	}
	return "fifo, the oldest first"
}

func spreadSeeds(n int) string {
	if n <= 0 {
		return "none"
	}
	return words.Count(n)
}

// ErrorMark begins an error beside the field it is about.
const ErrorMark = "✗"

// flow lays blocks side by side, four cells apart, as far as width w
// holds, and the rest in rows under them.
func flow(blocks []string, w int) []string {
	var rows []string
	row := ""
	for _, b := range blocks {
		switch {
		case row == "":
			row = b
		case Width(row)+4+Width(b) <= w:
			row = lipgloss.JoinHorizontal(lipgloss.Top, row, "    ", b)
		default:
			rows, row = append(rows, row), b
		}
	}
	return append(rows, row)
}

// Flow is flow for the model's full help: blocks side by side as far as
// w holds, joined into rows.
func Flow(blocks []string, w int) string { return strings.Join(flow(blocks, w), "\n") }
