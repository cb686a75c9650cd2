package model

import (
	"errors"
	"fmt"
	"io/fs"
	"strings"
	"sync"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/exp/golden"
	"github.com/charmbracelet/x/exp/teatest"

	"github.com/retryplanner/retry-planner/backoff"
	"github.com/retryplanner/retry-planner/backoff/plan"
	"github.com/retryplanner/retry-planner/views/pane"
)

// memFiles is a file system in memory for the s key: files by name,
// folders, and names whose writes the system refuses.
type memFiles struct {
	mu      sync.Mutex
	files   map[string]string
	folders map[string]bool
	denied  map[string]bool // writing there is not permitted
	writes  int             // writes that changed a file
}

func newMemFiles() *memFiles {
	return &memFiles{files: map[string]string{}, folders: map[string]bool{}, denied: map[string]bool{}}
}

func (f *memFiles) Write(name string, data []byte, overwrite bool) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	switch _, there := f.files[name]; {
	case f.folders[name]:
		return &fs.PathError{Op: "open", Path: name, Err: errors.New("is a directory")}
	case f.denied[name]:
		return &fs.PathError{Op: "open", Path: name, Err: fs.ErrPermission}
	case there && !overwrite:
		return &fs.PathError{Op: "open", Path: name, Err: fs.ErrExist}
	}
	f.files[name] = string(data)
	f.writes++
	return nil
}

func (f *memFiles) file(name string) (string, bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	text, ok := f.files[name]
	return text, ok
}

// saving is the program at defaults in a w x h window, saving to files,
// every computation inside Update, with opts.
func saving(t testing.TB, files Files, w, h int, opts ...Option) App {
	t.Helper()
	return newAppWith(t, w, h, inline(append([]Option{WithFiles(files)}, opts...)...)...)
}

// decodeSaved is the plan in the file name, decoded.
func decodeSaved(t *testing.T, files *memFiles, name string) plan.Plan {
	t.Helper()
	text, ok := files.file(name)
	if !ok {
		t.Fatalf("no file %s was written; files: %v", name, files.files)
	}
	p, err := plan.Decode(name, []byte(text))
	if err != nil {
		t.Fatalf("the file saved does not decode: %v\n%s", err, text)
	}
	return p
}

// bottom is the frame's lines above the footer, from the save box's.
func bottom(frame string, n int) string {
	ls := lines(frame)
	return strings.Join(ls[max(len(ls)-1-n, 0):len(ls)-1], "\n")
}

// The s key saves the program's plan: the file decodes to the plan the
// program shows (its settings after a change, the six policies, the
// spread's seeds and draws), and the program says what it saved and the
// command lines that give the same figures.
func TestSaveKeySavesThePlan(t *testing.T) {
	files := newMemFiles()
	m := saving(t, files, 120, 40, WithSeeds(20), WithSpreadDraws(backoff.Reference), WithNote("the storm"))
	m = deliver(t, m, applied(func(s *backoff.Settings) { s.FirstWait, s.Clients, s.Capacity = 250, 300, 400 }))
	m = deliver(t, m, press("2", "s")...)
	if !m.SaveBox().Captured() {
		t.Fatal("after s: the save box does not have the keys")
	}
	if got := m.SaveBox().Value(); got != pane.DefaultPlanFile {
		t.Errorf("the field holds %q, want %q", got, pane.DefaultPlanFile)
	}
	if got := bottom(m.View(), 1); !strings.Contains(got, pane.SavePrompt+pane.DefaultPlanFile) {
		t.Errorf("above the footer: got %q, want the field holding %s", got, pane.DefaultPlanFile)
	}
	if footer := lines(m.View())[len(lines(m.View()))-1]; footer != "enter save • esc cancel • ctrl+c quit" {
		t.Errorf("footer while naming: got %q, want enter save • esc cancel • ctrl+c quit", footer)
	}
	m = deliver(t, m, press("enter")...)

	got := decodeSaved(t, files, pane.DefaultPlanFile)
	want := m.SavedPlan()
	if !got.Equal(want) {
		t.Errorf("the file decodes to\n%+v\nwant the program's plan\n%+v", got, want)
	}
	s := backoff.Defaults()
	s.FirstWait, s.Clients, s.Capacity = 250, 300, 400
	wantPlan := plan.Plan{Settings: s, Policies: []string{"fixed", "exponential", "full jitter", "equal jitter", "decorrelated", "custom"},
		Seeds: 20, SeedDraws: backoff.Reference, Note: "the storm"}
	if !got.Equal(wantPlan) {
		t.Errorf("the file decodes to\n%+v\nwant\n%+v", got, wantPlan)
	}
	pols, err := got.PolicyList()
	if err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(pols) != fmt.Sprint(m.CrowdPane().Data().B.Policies) {
		t.Errorf("the file's policies are %v, want the six pane 2 shows, %v", pols, m.CrowdPane().Data().B.Policies)
	}
	if m.SaveBox().Captured() {
		t.Error("after saving, the save box still has the keys")
	}
	shown := m.SaveBox().Shown()
	for _, text := range []string{"Saved the plan as retry-plan.toml.", "\nretry-planner --plan retry-plan.toml\n", "\nretry-planner --plan retry-plan.toml crowd\n",
		"\n" + plan.CommandLine(wantPlan)} {
		if !strings.Contains(shown, text) {
			t.Errorf("after saving, the box shows %q, want it to hold %q", shown, text)
		}
	}
	frame := m.View()
	if !strings.Contains(strings.ReplaceAll(frame, "\n", " "), "Saved the plan as retry-plan.toml.") {
		t.Errorf("the frame does not say what was saved:\n%s", frame)
	}
	checkFits(t, frame, 120, 40)
	// The next key closes it, and does what it does.
	m = deliver(t, m, press("3")...)
	if m.SaveBox().Shown() != "" || m.Focus() != FocusTimeline {
		t.Errorf("after 3: the box shows %q and pane %v has the keys, want nothing shown and pane 3", m.SaveBox().Shown(), m.Focus())
	}
}

// A file that is there is overwritten only on y: n keeps it and goes back
// to the name, esc closes the box; another name saves beside it.
func TestSaveAsksBeforeOverwriting(t *testing.T) {
	const old = "# a plan of one's own\n"
	tests := []struct {
		name     string
		answer   []string
		replaced bool
		shown    string // in the box after the answer
		captured bool
	}{
		{"y replaces it", []string{"y"}, true, "Saved the plan as retry-plan.toml.", false},
		{"n keeps it", []string{"n"}, false, "Kept retry-plan.toml: type another name, or esc to cancel.", true},
		{"n then esc keeps it", []string{"n", "esc"}, false, "", false},
		{"esc keeps it", []string{"esc"}, false, "", false},
		{"other keys do nothing", []string{"x", "q", "enter", "2"}, false, pane.SaveExists("retry-plan.toml"), true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			files := newMemFiles()
			files.files[pane.DefaultPlanFile] = old
			m := deliver(t, saving(t, files, 100, 30, WithSeeds(0)), press("s", "enter")...)
			if got := bottom(m.View(), 1); got != pane.SaveExists("retry-plan.toml") {
				t.Fatalf("the file is there: above the footer %q, want %q", got, pane.SaveExists("retry-plan.toml"))
			}
			if footer := lines(m.View())[len(lines(m.View()))-1]; footer != "y overwrite • n keep it • esc cancel • ctrl+c quit" {
				t.Errorf("footer while asking: got %q", footer)
			}
			m = deliver(t, m, press(tt.answer...)...)
			text, _ := files.file(pane.DefaultPlanFile)
			if replaced := text != old; replaced != tt.replaced {
				t.Errorf("replaced: got %v, want %v (the file holds %.40q)", replaced, tt.replaced, text)
			}
			if tt.replaced {
				if got := decodeSaved(t, files, pane.DefaultPlanFile); !got.Equal(m.SavedPlan()) {
					t.Errorf("the file decodes to %+v, want %+v", got, m.SavedPlan())
				}
			}
			view := strings.ReplaceAll(bottom(m.View(), 7), "\n", " ")
			if tt.shown != "" && !strings.Contains(view, tt.shown) {
				t.Errorf("after %q: the bottom of the frame %q does not hold %q", tt.answer, view, tt.shown)
			}
			if m.SaveBox().Captured() != tt.captured {
				t.Errorf("after %q: the box has the keys: %v, want %v", tt.answer, m.SaveBox().Captured(), tt.captured)
			}
			if m.Focus() != FocusCrowd {
				t.Errorf("after %q: pane %v, want pane 2: the box had the keys", tt.answer, m.Focus())
			}
		})
	}
	// n, then another name: saved beside the old file, which stays.
	files := newMemFiles()
	files.files[pane.DefaultPlanFile] = old
	m := deliver(t, saving(t, files, 100, 30, WithSeeds(0)), press("s", "enter", "n", "backspace", "backspace", "backspace", "backspace", "backspace", "2.toml", "enter")...)
	if text, _ := files.file(pane.DefaultPlanFile); text != old {
		t.Errorf("the old file holds %.40q, want it kept", text)
	}
	decodeSaved(t, files, "retry-plan2.toml")
	if got := m.SaveBox().Shown(); !strings.HasPrefix(got, "Saved the plan as retry-plan2.toml.") {
		t.Errorf("after another name: the box shows %q, want Saved the plan as retry-plan2.toml.", got)
	}
	// s again offers the last name saved.
	if m = deliver(t, m, press("s")...); m.SaveBox().Value() != "retry-plan2.toml" {
		t.Errorf("s again: the field holds %q, want the last name saved", m.SaveBox().Value())
	}
}

// A write that fails says why in one line and changes nothing; an empty
// name is refused beside the field; esc saves nothing.
func TestSaveErrors(t *testing.T) {
	tests := []struct {
		name string
		keys []string
		want string // the box's line
	}{
		{"a folder", []string{"s", "ctrl+u", "plans", "enter"}, "Could not save plans: is a directory."},
		{"no permission", []string{"s", "ctrl+u", "/etc/plan.toml", "enter"}, "Could not save /etc/plan.toml: permission denied."},
		{"a name with a space", []string{"s", "ctrl+u", "my plan", "enter"}, `Could not save "my plan": permission denied.`},
		{"no name", []string{"s", "ctrl+u", "space", "enter"}, pane.SaveNoName},
		// Characters that do not show as themselves: refused beside the
		// field, before anything is written, so that "Open it again with"
		// never shows them.
		{"a right-to-left override", []string{"s", "ctrl+u", "plan\u202elmth.toml", "enter"}, "A file name cannot hold U+202E, which does not show as itself: type the name again."},
		{"a zero width space", []string{"s", "ctrl+u", "pl\u200ban.toml", "enter"}, "A file name cannot hold U+200B, which does not show as itself: type the name again."},
		{"a Hangul filler", []string{"s", "ctrl+u", "\u3164.toml", "enter"}, "A file name cannot hold U+3164, which does not show as itself: type the name again."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			files := newMemFiles()
			files.folders["plans"] = true
			files.denied["/etc/plan.toml"], files.denied["my plan"] = true, true
			m := deliver(t, saving(t, files, 100, 30, WithSeeds(0)), press(tt.keys...)...)
			if got := bottom(m.View(), 1); got != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
			if files.writes != 0 {
				t.Errorf("%d files written, want none", files.writes)
			}
			checkFits(t, m.View(), 100, 30)
		})
	}
	// Given no files, the program says it cannot save.
	m := deliver(t, newAppWith(t, 100, 30, inline(WithSeeds(0))...), press("s", "enter")...)
	if got := m.SaveBox().Shown(); got != pane.PlanNotSaved(pane.DefaultPlanFile, errNoFiles.Error()) || !m.SaveBox().Failed() {
		t.Errorf("without files: the box shows %q (an error: %v), want that it cannot save", got, m.SaveBox().Failed())
	}
	files := newMemFiles()
	if m := deliver(t, saving(t, files, 100, 30, WithSeeds(0)), press("s", "esc")...); m.SaveBox().Captured() || m.SaveBox().View() != "" || files.writes != 0 {
		t.Errorf("after s, esc: the box has the keys %v and shows %q, %d files written; want it closed and nothing written",
			m.SaveBox().Captured(), m.SaveBox().View(), files.writes)
	}
}

// While the field is open it takes the keys, 1-5, q, tab and s included;
// ctrl+c still quits.
func TestSaveFieldTakesTheKeys(t *testing.T) {
	m := send(t, saving(t, newMemFiles(), 100, 30, WithSeeds(0)), press("s", "ctrl+u", "q1s")...)
	m = send(t, m, tea.KeyMsg{Type: tea.KeyTab})
	if m.Focus() != FocusCrowd || m.SaveBox().Value() != "q1s" {
		t.Errorf("typed q1s and tab: pane %v, the field %q; want pane 2 and q1s", m.Focus(), m.SaveBox().Value())
	}
	_, cmd := m.Update(tea.KeyMsg{Type: tea.KeyCtrlC})
	if !quits(cmd) {
		t.Error("ctrl+c in the save field does not quit")
	}
	// In a pane's own field, s is typed, not the save box's.
	m = send(t, saving(t, newMemFiles(), 100, 30, WithSeeds(0)), press("4", "enter", "s")...)
	if m.SaveBox().Captured() || m.JobsPane().input.Value() != "s" {
		t.Errorf("s in the jobs line: the box has the keys %v, the line %q; want the line to hold s", m.SaveBox().Captured(), m.JobsPane().input.Value())
	}
}

// The s key as a person presses it, the program's commands and all: the
// write runs in a command, its result comes back as a message.
func TestProgramSavesThePlan(t *testing.T) {
	files := newMemFiles()
	files.files["taken.toml"] = "old"
	tm := teatest.NewTestModel(t, NewApp(backoff.Defaults(), pane.DefaultStyles(), inline(WithSeeds(10), WithFiles(files))...),
		teatest.WithInitialTermSize(100, 30))
	sendKeys(tm, "2", "s", "ctrl+u", "taken.toml", "enter")
	waitFor(t, tm, "exists: overwrite? y/n")
	sendKeys(tm, "y")
	waitFor(t, tm, "Saved the plan as taken.toml.")
	m := finalApp(t, tm)
	if got := decodeSaved(t, files, "taken.toml"); !got.Equal(m.SavedPlan()) {
		t.Errorf("the file decodes to %+v, want %+v", got, m.SavedPlan())
	}
	golden.RequireEqual(t, []byte(m.View()))
}

// The footer lists s while there is room, and leaves it out before the
// pane's keys, tab, ? and q, after 1-5, the plans' keys and d; the full
// help lists it.
func TestSaveKeyInTheFooter(t *testing.T) {
	for _, pane := range []string{"1", "2", "3", "4", "5"} {
		for w := MinWidth; w <= 200; w++ {
			m := send(t, quick(t, w, 30), press(pane)...)
			footer := lines(m.View())[len(lines(m.View()))-1]
			// s gives way before d and p, tab before s (issue 19, item 10).
			hasSave, hasDraws := strings.Contains(footer, "s save plan"), strings.Contains(footer, "d draws")
			if hasSave && !hasDraws {
				t.Errorf("pane %s at %d columns: footer %q keeps s but not d", pane, w, footer)
			}
			if strings.Contains(footer, "tab next pane") && !hasSave {
				t.Errorf("pane %s at %d columns: footer %q keeps tab but not s", pane, w, footer)
			}
			if w == 200 && !hasSave {
				t.Errorf("pane %s at 200 columns: footer %q does not list s", pane, footer)
			}
		}
	}
	if narrow := lines(quick(t, MinWidth, 30).View()); strings.Contains(narrow[len(narrow)-1], "s save plan") {
		t.Errorf("at %d columns: footer %q lists s, want it left out first", MinWidth, narrow[len(narrow)-1])
	}
	if full := send(t, quick(t, 120, 40), press("?")...).View(); !strings.Contains(full, "s save plan") {
		t.Errorf("the full help does not list s:\n%s", full)
	}
}

// Every stage of the box fits the window, at the least size and below it,
// and a window's change redraws it at the new width.
func TestSaveBoxFits(t *testing.T) {
	long := strings.Repeat("a-very-long-folder-name/", 8) + "plan.toml"
	stages := []struct {
		name string
		keys []string
	}{
		{"naming", []string{"s"}},
		{"a long name", []string{"s", "ctrl+u", long}},
		{"refused", []string{"s", "ctrl+u", "enter"}},
		{"asking", []string{"s", "ctrl+u", "taken.toml", "enter"}},
		{"kept", []string{"s", "ctrl+u", "taken.toml", "enter", "n"}},
		{"saved", []string{"s", "ctrl+u", long, "enter"}},
		{"failed", []string{"s", "ctrl+u", "denied.toml", "enter"}},
	}
	for _, st := range stages {
		for _, size := range [][2]int{{MinWidth, MinHeight}, {80, 24}, {200, 60}, {30, 10}} {
			t.Run(fmt.Sprintf("%s_%dx%d", st.name, size[0], size[1]), func(t *testing.T) {
				files := newMemFiles()
				files.files["taken.toml"] = "old"
				files.denied["denied.toml"] = true
				// The keys are pressed in a window that shows the box, then
				// the window changes.
				m := deliver(t, saving(t, files, 100, 30, WithSeeds(0)), press(st.keys...)...)
				if st.name == "saved" && !strings.Contains(m.SaveBox().Shown(), "Saved") {
					t.Fatalf("the box shows %q, want it saved", m.SaveBox().Shown())
				}
				m = send(t, m, tea.WindowSizeMsg{Width: size[0], Height: size[1]})
				checkFits(t, m.View(), size[0], size[1])
				if size[0] >= MinWidth && m.SaveBox().View() != "" && !strings.Contains(m.View(), lines(m.SaveBox().View())[0]) {
					t.Errorf("the frame does not show the box's first line %q:\n%s", lines(m.SaveBox().View())[0], m.View())
				}
			})
		}
	}
}
