package pane

import (
	"slices"
	"strings"
	"testing"

	"github.com/charmbracelet/bubbles/table"

	"github.com/retryplanner/retry-planner/backoff"
	"github.com/retryplanner/retry-planner/backoff/advice"
)

// twoOfYours are two closest candidates of one's own, their first waits
// and growth apart, with a not-through and a recovered goal: values, the
// not-through as 18,835 of 43,500.
func twoOfYours(sameFirst bool, values [2]int) AdviceData {
	s := backoff.Defaults()
	goals := advice.Goals{}.With(advice.Goal{Kind: advice.NotThrough, Limit: 1000}).With(advice.Goal{Kind: advice.Recovered, Limit: 60000})
	var cs []advice.Candidate
	for i, growth := range []int{2000, 3000} {
		p := s.Policy(backoff.Exponential)
		p.Name, p.Multiplier, p.FirstWait = "custom", growth, 250
		if !sameFirst && i == 1 {
			p.FirstWait = 10000
		}
		cs = append(cs, advice.Candidate{Source: advice.FromGrid, Policy: p, Settings: s, Verdicts: []advice.Verdict{
			{Goal: goals.List()[0], Value: values[i], Of: 43500, Most: 435},
			{Goal: goals.List()[1], Value: 55000, Met: true, Most: 60000},
		}})
	}
	return AdviceData{Goals: goals, Seeds: 5, Advice: &advice.Advice{Search: advice.Search{Settings: s, Goals: goals, Seeds: 5}, Closest: cs}}
}

func heads(cols []table.Column) []string {
	var out []string
	for _, c := range cols {
		out = append(out, c.Title)
	}
	return out
}

// As the width shrinks the growth gives way before the goals' values: at
// the widest width without it, the values are there.
func TestAdviceTableGrowthBeforeValues(t *testing.T) {
	d := twoOfYours(false, [2]int{18835, 20000})
	for w := 200; w > 30; w-- {
		cols, rows := AdviceTable(d, 0, w)
		if slices.Contains(heads(cols), "growth") {
			continue
		}
		if !strings.Contains(rows[0][len(rows[0])-2], "43.3%") {
			t.Errorf("width %d: the growth gave way with the values: %v %v", w, heads(cols), rows)
		}
		return
	}
	t.Error("the growth never gave way")
}

// Two candidates apart only in their growth, with the same values: the
// table keeps the growth rather than show two rows alike, at every width
// the growth fits in.
func TestAdviceTableKeepsRowsApart(t *testing.T) {
	d := twoOfYours(true, [2]int{18835, 18835})
	for w := 200; w >= 40; w-- {
		cols, rows := AdviceTable(d, 0, w)
		if TableWidth(cols) > w {
			t.Fatalf("width %d: the table takes %d", w, TableWidth(cols))
		}
		if !rowsApart(rows) {
			t.Errorf("width %d: two rows alike: %v %v", w, heads(cols), rows)
		}
	}
}

// rowsApart reports whether no two rows read the same but for their rank.
func rowsApart(rows []table.Row) bool {
	seen := map[string]bool{}
	for _, r := range rows {
		if k := strings.Join(r[1:], "|"); seen[k] {
			return false
		} else {
			seen[k] = true
		}
	}
	return true
}

// A row shows what tells its candidate from the others: a budget that one
// alone has, the waits of one's own, but not the jitter of full jitter
// beside fixed, which their names say.
func TestAdviceTableShowsWhatDiffers(t *testing.T) {
	s := backoff.Defaults()
	goals := advice.Goals{}.With(advice.Goal{Kind: advice.NotThrough, Limit: 1000})
	cand := func(src advice.Source, p backoff.Policy, b backoff.Budget) advice.Candidate {
		cs := s
		cs.Budget = b
		return advice.Candidate{Source: src, Policy: p, Settings: cs, Verdicts: []advice.Verdict{{Goal: goals.List()[0], Of: 100, Most: 1}}}
	}
	own := s.Policy(backoff.Exponential)
	own.Name, own.FirstWait = "custom", 250
	grpc := backoff.Budget{Kind: backoff.BudgetGRPC, A: 10, B: 100}
	tests := []struct {
		name string
		cs   []advice.Candidate
		want []string
	}{
		{"a budget one alone has", []advice.Candidate{cand(advice.FromGrid, own, backoff.Budget{}), cand(advice.FromFive, s.Policy(backoff.Fixed), grpc)},
			[]string{"#", "policy", "first", "budget", "growth", "not through"}},
		{"the five's names", []advice.Candidate{cand(advice.FromFive, s.Policy(backoff.Fixed), grpc), cand(advice.FromFive, s.Policy(backoff.FullJitter), grpc)},
			[]string{"#", "policy", "budget", "not through"}},
		{"one name, two budgets", []advice.Candidate{cand(advice.FromFive, s.Policy(backoff.Fixed), grpc), cand(advice.FromFive, s.Policy(backoff.Fixed), backoff.Budget{})},
			[]string{"#", "policy", "budget", "not through"}},
	}
	for _, tt := range tests {
		d := AdviceData{Goals: goals, Seeds: 1, Advice: &advice.Advice{Search: advice.Search{Settings: s, Goals: goals, Seeds: 1}, Closest: tt.cs}}
		cols, _ := AdviceTable(d, 0, 200)
		got := heads(cols)
		got = got[:slices.Index(got, "not through")+1]
		if !slices.Equal(got, tt.want) {
			t.Errorf("%s: got %v, want %v", tt.name, got, tt.want)
		}
	}
}
