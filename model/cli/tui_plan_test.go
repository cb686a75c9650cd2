package cli

import (
	"errors"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/retryplanner/retry-planner/backoff"
	"github.com/retryplanner/retry-planner/backoff/plan"
	"github.com/retryplanner/retry-planner/model"
	"github.com/retryplanner/retry-planner/views/pane"
	"github.com/retryplanner/retry-planner/views/words"
)

// The full-screen program and plans: --plan gives it the plan's settings,
// spread and note, its s key saves the plan it shows, and a plan saved so
// and loaded again shows the same figures.

// memPlans is model.Files in memory, whose files FuzzParseArgs's file
// system can read back.
type memPlans struct {
	mu    sync.Mutex
	files fuzzFiles
}

func (m *memPlans) Write(name string, data []byte, overwrite bool) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if _, there := m.files[name]; there && !overwrite {
		return &fs.PathError{Op: "open", Path: name, Err: fs.ErrExist}
	}
	m.files[name] = string(data)
	return nil
}

// inlineApp is the program the command line opens, in a w x h window,
// every computation inside Update so that frames can be compared, saving
// to files unless nil (the disk's then, as the command line's program does).
func inlineApp(t *testing.T, opts options, files model.Files, w, h int) model.App {
	t.Helper()
	o := append(opts.tui.appOptions(), model.WithInlineWork(math.MaxInt64), model.WithInlineSpread())
	if files != nil {
		o = append(o, model.WithFiles(files))
	}
	return deliverAll(t, model.NewApp(opts.settings, pane.DefaultStyles(), o...), tea.WindowSizeMsg{Width: w, Height: h})
}

// deliverAll updates m with each message and, before the next, with what
// its commands give within a moment (the write of a save); commands that
// wait, such as a tick, are left out.
func deliverAll(t *testing.T, m model.App, msgs ...tea.Msg) model.App {
	t.Helper()
	for _, msg := range msgs {
		next, cmd := m.Update(msg)
		m = deliverAll(t, next.(model.App), within(cmd)...)
	}
	return m
}

func within(cmd tea.Cmd) []tea.Msg {
	if cmd == nil {
		return nil
	}
	done := make(chan tea.Msg, 1)
	go func() { done <- cmd() }()
	select {
	case msg := <-done:
		if batch, ok := msg.(tea.BatchMsg); ok {
			var out []tea.Msg
			for _, c := range batch {
				out = append(out, within(c)...)
			}
			return out
		}
		if msg == nil {
			return nil
		}
		return []tea.Msg{msg}
	case <-time.After(200 * time.Millisecond):
		return nil
	}
}

// keys are the messages of keys: "enter", "esc", "ctrl+u", or runes.
func keys(names ...string) []tea.Msg {
	var out []tea.Msg
	for _, n := range names {
		switch n {
		case "enter":
			out = append(out, tea.KeyMsg{Type: tea.KeyEnter})
		case "esc":
			out = append(out, tea.KeyMsg{Type: tea.KeyEsc})
		case "ctrl+u":
			out = append(out, tea.KeyMsg{Type: tea.KeyCtrlU})
		default:
			out = append(out, tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(n)})
		}
	}
	return out
}

func mustParse(t *testing.T, fsys files, args ...string) options {
	t.Helper()
	opts, err := parseArgsIn(fsys, args)
	if err != nil {
		t.Fatalf("%q: %v", args, err)
	}
	return opts
}

// --plan gives the full-screen program the plan's settings, its policies,
// its spread's seeds and draws and its note; --seed-draws and --draws draw
// the spread as they do for crowd; --policies overrides the plan's.
func TestPlanIntoTheFullScreenProgram(t *testing.T) {
	fsys := newFuzzFiles()
	p := decodedTestPlan(t)
	planPolicies := strings.Join(p.Policies, ",")
	tests := []struct {
		name string
		args []string
		want tuiStart
	}{
		{"no plan", nil, tuiStart{seeds: model.DefaultSeeds, seedDraws: backoff.Independent}},
		{"--seed-draws", []string{"--seed-draws", "reference"}, tuiStart{seeds: model.DefaultSeeds, seedDraws: backoff.Reference}},
		{"--draws draws the spread too", []string{"--draws", "reference"}, tuiStart{seeds: model.DefaultSeeds, seedDraws: backoff.Reference}},
		{"a plan", []string{"--plan", "plan.toml"}, tuiStart{policies: planPolicies, seeds: 4, seedDraws: backoff.Reference, note: p.Note}},
		{"--seed-draws after it", []string{"--plan", "plan.toml", "--seed-draws", "independent"}, tuiStart{policies: planPolicies, seeds: 4, seedDraws: backoff.Independent, note: p.Note}},
		{"--draws after it", []string{"--plan", "plan.toml", "--draws", "independent"}, tuiStart{policies: planPolicies, seeds: 4, seedDraws: backoff.Independent, note: p.Note}},
		{"--policies before it", []string{"--policies", "grpc,aws", "--plan", "plan.toml"}, tuiStart{policies: "grpc,aws", seeds: 4, seedDraws: backoff.Reference, note: p.Note}},
		{"a plan of no seeds", []string{"--plan", "my plan.toml"}, tuiStart{seeds: 0, seedDraws: backoff.Independent}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			opts := mustParse(t, fsys, tt.args...)
			if opts.tui != tt.want {
				t.Errorf("%q: the program starts with %+v, want %+v", tt.args, opts.tui, tt.want)
			}
		})
	}
	opts := mustParse(t, fsys, "--plan", "plan.toml")
	if opts.settings != p.Settings {
		t.Errorf("--plan plan.toml: settings %+v, want the plan's %+v", opts.settings, p.Settings)
	}
	// And the program shows it: its settings, policies and spread.
	m := inlineApp(t, opts, &memPlans{files: fuzzFiles{}}, 120, 40)
	want := model.Plan{Settings: p.Settings, Policies: strings.ToLower(strings.ReplaceAll(planPolicies, " ", "-")), Seeds: 4, SpreadDraws: backoff.Reference}
	if got := m.Plan(); got != want {
		t.Errorf("the program's plan: got %+v, want %+v", got, want)
	}
	var shown []string
	for _, pol := range m.CrowdPane().Data().B.Policies {
		shown = append(shown, pol.Name)
	}
	if got, _ := lookupPolicies(p.Settings, p.Policies, "plan"); len(got) != len(shown) {
		t.Errorf("pane 2 compares %q, want the plan's %q", shown, p.Policies)
	}
}

// The full-screen program compares the policies named, by --policies or a
// plan, presets among them, as the plan has them: no preset moves into
// one's own policy, and the five's waits stay the settings' (issue 19, item
// 4).
func TestPoliciesInTheFullScreenProgram(t *testing.T) {
	fsys := fuzzFiles{
		"presets.toml": "policies = [\"exponential\", \"grpc\", \"aws\"]\n[crowd]\nclients = 50\n",
		"five.toml":    "policies = [\"fixed\", \"full_jitter\"]\n",
	}
	base := plan.DefaultSettings()
	base.Clients = 50
	tests := []struct {
		name     string
		args     []string
		settings backoff.Settings
		shown    []string // pane 2's policies
		saved    []string // the s key's plan's, as LookupPolicy reads them
	}{
		{"--policies", []string{"--policies", "grpc,aws,full-jitter"}, plan.DefaultSettings(), []string{"grpc", "aws", "full jitter"}, nil},
		{"a plan's presets", []string{"--plan", "presets.toml"}, base, []string{"exponential", "grpc", "aws"}, nil},
		{"--policies over the plan's", []string{"--plan", "presets.toml", "--policies", "custom,envoy"}, base, []string{"custom", "envoy"}, nil},
		{"a --preset beside them", []string{"--plan", "presets.toml", "--preset", "aws", "--policies", "exponential,custom"},
			base.WithPreset(mustPreset(t, "aws")), []string{"exponential", "aws"}, []string{"exponential", "custom"}},
		{"only two of the five", []string{"--plan", "five.toml"}, plan.DefaultSettings(), []string{"fixed", "full jitter"}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			opts := mustParse(t, fsys, tt.args...)
			if opts.settings != tt.settings {
				t.Errorf("%q: settings %+v, want %+v", tt.args, opts.settings, tt.settings)
			}
			m := inlineApp(t, opts, &memPlans{files: fuzzFiles{}}, 120, 40)
			var shown []string
			for _, pol := range m.CrowdPane().Data().B.Policies {
				shown = append(shown, pol.Name)
			}
			if !slices.Equal(shown, tt.shown) {
				t.Errorf("%q: pane 2 compares %q, want %q", tt.args, shown, tt.shown)
			}
			// The s key keeps them.
			var saved []string
			for _, n := range m.SavedPlan().Policies {
				k, _ := policyKey(n)
				saved = append(saved, k)
			}
			want := tt.saved
			if want == nil {
				want = tt.shown
			}
			if !slices.Equal(saved, want) {
				t.Errorf("%q: the plan s saves names %q, want %q", tt.args, m.SavedPlan().Policies, want)
			}
		})
	}
	for _, bad := range [][]string{{"--policies", "grpc,nope"}, {"--policies", "grpc,GRPC"}, {"--preset", "grpc", "--policies", "custom,grpc"}, {"--plain", "--policies", "grpc"}} {
		if _, err := parseArgsIn(fsys, bad); err == nil {
			t.Errorf("%q: taken, want a usage error", bad)
		}
	}
}

func mustPreset(t *testing.T, name string) backoff.Preset {
	t.Helper()
	pr, ok := backoff.FindPreset(name)
	if !ok {
		t.Fatalf("no preset %s", name)
	}
	return pr
}

// A plan saved with the s key, after a change in the program, and loaded
// with --plan gives the same figures in panes 2 and 3 as the program that
// saved it, and saves again as the same file.
func TestSavedPlanOpensAsItWasSaved(t *testing.T) {
	fsys := newFuzzFiles()
	files := &memPlans{files: fsys}
	opts := mustParse(t, fsys, "--plan", "plan.toml", "--clients", "200")
	a := inlineApp(t, opts, files, 120, 40)
	change := a.Settings()
	change.Capacity, change.Multiplier = 300, 1800
	a = deliverAll(t, a, model.SettingsAppliedMsg{Settings: change})
	a = deliverAll(t, a, keys("s", "ctrl+u", "saved.toml", "enter")...)
	if !strings.HasPrefix(a.SaveBox().Shown(), "Saved the plan as saved.toml.") {
		t.Fatalf("the box shows %q, want Saved the plan as saved.toml.", a.SaveBox().Shown())
	}
	saved := fsys["saved.toml"]

	b := inlineApp(t, mustParse(t, fsys, "--plan", "saved.toml"), files, 120, 40)
	if a.Plan() != b.Plan() {
		t.Errorf("loaded: plan %+v, want the saver's %+v", b.Plan(), a.Plan())
	}
	if b.SaveBox().Shown() != "" {
		t.Errorf("loaded: the box shows %q, want nothing", b.SaveBox().Shown())
	}
	for _, pane := range []string{"2", "3"} {
		fa, fb := deliverAll(t, a, keys(pane)...).View(), deliverAll(t, b, keys(pane)...).View()
		if fa != fb {
			t.Errorf("pane %s: loaded\n%s\nwant the saver's\n%s", pane, fb, fa)
		}
	}
	ra, rb := a.CrowdPane().Data().B, b.CrowdPane().Data().B
	if len(ra.Crowds) != 3 || !reflect.DeepEqual(ra.Crowds, rb.Crowds) || !reflect.DeepEqual(ra.Spread, rb.Spread) {
		t.Errorf("the crowds' figures differ: saver %d crowds, loaded %d", len(ra.Crowds), len(rb.Crowds))
	}
	b = deliverAll(t, b, keys("s", "ctrl+u", "again.toml", "enter")...)
	if fsys["again.toml"] != saved {
		t.Errorf("saved again:\n%s\nwant the same file:\n%s", fsys["again.toml"], saved)
	}
	// The crowd command line it shows runs the same three crowds, the plan's.
	pl, err := plan.Decode("saved.toml", []byte(saved))
	if err != nil {
		t.Fatal(err)
	}
	fromLine := mustParse(t, fsys, strings.Fields(plan.CommandLine(pl))[1:]...)
	fromPlan := mustParse(t, fsys, "--plan", "saved.toml", "crowd")
	if !reflect.DeepEqual(fromLine.report.policies, fromPlan.report.policies) || len(fromLine.report.policies) != 3 ||
		fromLine.report.settings != fromPlan.report.settings || fromLine.report.seeds != fromPlan.report.seeds {
		t.Errorf("the command line shown runs %v at %+v, want the plan's three at %+v", fromLine.report.policies, fromLine.report.settings, fromPlan.report.settings)
	}
}

// The disk's files for the s key: a new file only where nothing is; an
// overwrite agreed to replaces the file whole and keeps its mode; a folder
// is no file to ask about; a missing folder says so.
func TestPlanFilesOnDisk(t *testing.T) {
	dir := t.TempDir()
	var f model.Files = newPlanFiles()
	name := filepath.Join(dir, "p.toml")
	if err := f.Write(name, []byte("one"), false); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(name, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := f.Write(name, []byte("two"), false); !errors.Is(err, fs.ErrExist) {
		t.Errorf("a file there, no overwrite: got %v, want an error that is fs.ErrExist", err)
	}
	if got := readFile(t, name); got != "one" {
		t.Errorf("not overwritten: the file holds %q, want one", got)
	}
	if err := f.Write(name, []byte("three"), true); err != nil {
		t.Fatal(err)
	}
	if got := readFile(t, name); got != "three" {
		t.Errorf("overwritten: the file holds %q, want three", got)
	}
	if fi, err := os.Stat(name); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("overwritten: mode %v (%v), want 0600 kept", fi.Mode().Perm(), err)
	}
	if got := listDir(t, dir); len(got) != 1 {
		t.Errorf("the folder holds %v, want the plan alone (no temporary file left)", got)
	}
	for _, overwrite := range []bool{false, true} {
		err := f.Write(dir, []byte("x"), overwrite)
		if err == nil || errors.Is(err, fs.ErrExist) || !strings.Contains(err.Error(), "is a directory") {
			t.Errorf("a folder (overwrite %v): got %v, want is a directory", overwrite, err)
		}
	}
	if err := f.Write(filepath.Join(dir, "none", "p.toml"), []byte("x"), false); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("a missing folder: got %v, want fs.ErrNotExist", err)
	}
}

// The program the command line opens saves to the disk.
func TestFullScreenProgramSavesToDisk(t *testing.T) {
	name := filepath.Join(t.TempDir(), "disk plan.toml")
	m := inlineApp(t, mustParse(t, newFuzzFiles(), "--clients", "20"), nil, 100, 30)
	m = deliverAll(t, m, keys("s", "ctrl+u", name, "enter")...)
	text := readFile(t, name)
	p, err := plan.Decode(name, []byte(text))
	if err != nil {
		t.Fatal(err)
	}
	if !p.Equal(m.SavedPlan()) || p.Settings.Clients != 20 {
		t.Errorf("the file decodes to %+v, want %+v", p, m.SavedPlan())
	}
	if want := "retry-planner --plan " + words.ShellWord(name); !strings.Contains(m.SaveBox().Shown(), want) {
		t.Errorf("the box shows %q, want it to hold %q", m.SaveBox().Shown(), want)
	}
}
