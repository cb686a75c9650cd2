package cli

import (
	"encoding/json"
	"strconv"
	"strings"
	"testing"
)

// Issue 19, item 6: crowd and timeline run one model, the settings' slot;
// a timeline's row only groups slots. Summed over its rows, the timeline
// gives the crowd's counts exactly, with a capacity, a load and a budget,
// at slots that divide a second and slots that do not.
func TestTimelineSumsToTheCrowd(t *testing.T) {
	settings := []struct {
		flags []string
		slot  int
		every string // a whole number of slots
	}{
		{[]string{"--clients", "5000", "--outage", "30s", "--capacity", "2000", "--load", "1500"}, 100, "5s"},
		{[]string{"--clients", "2000", "--capacity", "300", "--load", "50", "--slot", "250ms", "--budget", "aws:500:5", "--processes", "2"}, 250, "5s"},
		{[]string{"--clients", "1000", "--capacity", "5000", "--slot", "7ms", "--outage", "1234", "--load", "700", "--budget", "grpc:10:0.1"}, 7, "77ms"},
		{[]string{"--clients", "3000", "--capacity", "900", "--slot", "1500ms", "--outage", "20s"}, 1500, "6s"},
	}
	counts := []string{"retries", "attempts", "served", "rejected", "failed_while_down"}
	for _, set := range settings {
		for _, every := range [][]string{nil, {"--every", set.every}} {
			args := append([]string{"--policies", "grpc,aws,full-jitter,exponential"}, set.flags...)
			crowd := csvRecords(t, reportOf(t, append([]string{"crowd", "--format", "csv"}, args...)...))
			args = append(args, every...)
			timeline := csvRecords(t, reportOf(t, append([]string{"timeline", "--format", "csv"}, args...)...))
			want := map[string]map[string]int{} // policy, figure
			col := func(head []string, name string) int {
				for i, h := range head {
					if h == name {
						return i
					}
				}
				t.Fatalf("%q: no column %s in %q", args, name, head)
				return -1
			}
			for _, row := range crowd[1:] {
				want[row[0]] = map[string]int{}
				for _, c := range counts {
					want[row[0]][c], _ = strconv.Atoi(row[col(crowd[0], c)])
				}
			}
			got := map[string]map[string]int{}
			for _, row := range timeline[1:] {
				p := row[col(timeline[0], "policy")]
				if got[p] == nil {
					got[p] = map[string]int{}
				}
				for _, c := range counts {
					n, _ := strconv.Atoi(row[col(timeline[0], c)])
					got[p][c] += n
				}
				if slot, _ := strconv.Atoi(row[col(timeline[0], "slot_ms")]); slot != set.slot {
					t.Fatalf("%q: slot_ms %d, want the settings' %d", args, slot, set.slot)
				}
			}
			if len(want) != 4 {
				t.Fatalf("%q: the crowd ran %d policies, want 4", args, len(want))
			}
			for p, figs := range want {
				for _, c := range counts {
					if got[p][c] != figs[c] {
						t.Errorf("%q: %s's %s summed over the timeline's rows: got %d, want the crowd's %d", args, p, c, got[p][c], figs[c])
					}
				}
			}
		}
	}
}

// The timeline's rows: the slot by default, grouped to the fewest whole
// slots that span a second; --every groups more; the JSON says the model's
// slot and the rows' width.
func TestTimelineRows(t *testing.T) {
	tests := []struct {
		args          []string
		slot, row     int
		firstRowsFrom []int
	}{
		{nil, 100, 1000, []int{0, 1000, 2000}},
		{[]string{"--slot", "250ms"}, 250, 1000, []int{0, 1000}},
		{[]string{"--slot", "300ms"}, 300, 1200, []int{0, 1200}},
		{[]string{"--slot", "2s"}, 2000, 2000, []int{0, 2000}},
		{[]string{"--every", "500ms"}, 100, 500, []int{0, 500}},
		{[]string{"--every", "100ms"}, 100, 100, []int{0, 100}},
		{[]string{"--from", "back"}, 100, 1000, []int{10000, 11000}},
		{[]string{"--from", "back", "--outage", "10050", "--every", "200ms"}, 100, 200, []int{10000, 10200}},
	}
	for _, tt := range tests {
		args := append([]string{"timeline", "--policy", "full-jitter", "--format", "json"}, tt.args...)
		var doc struct {
			SlotMs int `json:"slot_ms"`
			RowMs  int `json:"row_ms"`
			Rows   []struct {
				FromMs int `json:"from_ms"`
			} `json:"rows"`
		}
		if err := json.Unmarshal([]byte(reportOf(t, args...)), &doc); err != nil {
			t.Fatalf("%q: %v", args, err)
		}
		if doc.SlotMs != tt.slot || doc.RowMs != tt.row {
			t.Errorf("%q: slot_ms %d, row_ms %d; want %d and %d", args, doc.SlotMs, doc.RowMs, tt.slot, tt.row)
		}
		for i, from := range tt.firstRowsFrom {
			if i >= len(doc.Rows) || doc.Rows[i].FromMs != from {
				t.Errorf("%q: row %d from %v, want %d", args, i, doc.Rows, from)
				break
			}
		}
	}
	for _, bad := range [][]string{{"--every", "150ms"}, {"--every", "0"}, {"--slot", "300ms", "--every", "1s"}, {"--from", "middle"}} {
		checkUsageError(t, append([]string{"timeline", "--policy", "fixed"}, bad...), "--"+strings.TrimPrefix(bad[len(bad)-2], "--"))
	}
	checkUsageError(t, []string{"crowd", "--every", "1s"}, "--every")
}
