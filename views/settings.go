package views

import (
	"strconv"

	"github.com/retryplanner/retry-planner/backoff"
)

// SettingsSummary is pane 5 while its form is closed: the settings as a
// table, named as --plain asks for them, and how to change them.
func SettingsSummary(s backoff.Settings, w int, st *Styles) string {
	w = max(w, 0)
	if w == 0 {
		return ""
	}
	var rows [][]string
	for _, f := range backoff.FormFields() {
		rows = append(rows, []string{f.String(), strconv.Itoa(s.Get(f))})
	}
	rows = append(rows, []string{backoff.Slot.String(), strconv.Itoa(s.Slot)})
	tbl := readTable([]string{"setting", "value"}, rows, []bool{false, true}, w, st, nil)
	hint := st.Muted.Render(Wrap("Press enter to change the first six; the crowd counts retries per slot, which stays as it is.", w))
	out := st.Title.Render("Settings") + "\n\n" + tbl + "\n\n" + hint
	return Fit(out, w, Height(out))
}
