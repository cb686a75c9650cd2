package cli

import (
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime/debug"
	"strconv"
	"strings"
	"syscall"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"
	"golang.org/x/term"

	"github.com/retryplanner/retry-planner/backoff"
	"github.com/retryplanner/retry-planner/backoff/advice"
	"github.com/retryplanner/retry-planner/model"
	"github.com/retryplanner/retry-planner/views/pane"
)

// notTerminal is the one line for a full-screen run without a terminal.
const notTerminal = "retry-planner: the full-screen program needs a terminal on standard input and output; use --plain for scripts and pipes"

// runTUI opens the full-screen program. Without a terminal on both standard
// input and output it says to use --plain and returns 2. The terminal is
// restored on every way out: bubbletea restores it after a quit, an error
// or a panic in the model; runProgram after a signal; and a panic anywhere
// else on this goroutine is caught here, the terminal put back as it was,
// and reported.
func runTUI(opts options, stdin io.Reader, stdout, stderr io.Writer) (status int) {
	in, inOK := stdin.(*os.File)
	out, outOK := stdout.(*os.File)
	if !inOK || !outOK || !term.IsTerminal(int(in.Fd())) || !term.IsTerminal(int(out.Fd())) {
		fmt.Fprintln(stderr, notTerminal)
		return 2
	}
	saved, err := term.GetState(int(in.Fd()))
	if err != nil {
		fmt.Fprintf(stderr, "retry-planner: %v\n", err)
		return 1
	}
	defer func() {
		if r := recover(); r != nil {
			restoreTerminal(int(in.Fd()), saved, out)
			fmt.Fprintf(stderr, "retry-planner: panic: %v\n%s", r, debug.Stack())
			status = 1
		}
	}()
	// The program's signals are handled by runProgram, not bubbletea, which
	// knows only SIGINT and SIGTERM and would end each its own way.
	if h := opts.limits.heapLimit(); h > 0 {
		debug.SetMemoryLimit(h)
	}
	files := newPlanFiles() // the last WithFiles counts
	appOpts := append(opts.tui.appOptions(), opts.limits.ceilingOption(), model.WithFiles(files), model.WithClipboard(clipboard(out, os.Getenv)))
	// A save on its way when the program ends, by a key or a signal, is
	// called off: nothing half written stays beside its file.
	defer files.abortAll()
	p := tea.NewProgram(model.NewApp(opts.settings, chooseStyles(out), appOpts...), tea.WithAltScreen(), tea.WithMouseCellMotion(), tea.WithInput(in), tea.WithOutput(out), tea.WithoutSignalHandler())
	return runProgram(p, stderr, func() { restoreTerminal(int(in.Fd()), saved, out) })
}

// clipboard copies text to the terminal's clipboard with OSC 52
// (termenv's Copy, wrapped for screen), or is nil where the terminal is
// known to take no such thing: none named, a dumb one, the Linux console,
// a VT, macOS's Terminal. The program then shows the text to select.
func clipboard(out io.Writer, getenv func(string) string) func(string) error {
	switch term := getenv("TERM"); {
	case term == "", term == "dumb", term == "linux", strings.HasPrefix(term, "vt"), getenv("TERM_PROGRAM") == "Apple_Terminal":
		return nil
	}
	o := termenv.NewOutput(out, termenv.WithEnvironment(environ(getenv)))
	return func(text string) error {
		o.Copy(text)
		return nil
	}
}

// environ is getenv as termenv reads its environment.
type environ func(string) string

func (e environ) Getenv(key string) string { return e(key) }
func (e environ) Environ() []string        { return nil }

// tuiStart is what the full-screen program starts with beside the
// settings: the policies its panes compare (--policies, else the last
// plan's; none: the five and custom), joined by commas; the spread over the
// last plan's seeds (DefaultSeeds without a plan), drawn as the command
// line's spread is (--seed-draws, else the last --draws, else the plan's);
// and the plan's note, kept in the plans it saves.
type tuiStart struct {
	policies  string
	seeds     int
	seedDraws backoff.Draws
	note      string
	goals     advice.Goals // what the advice pane searches for from the start
}

func newTUIStart(d *settingsDraft, policies []string) tuiStart {
	start := tuiStart{policies: strings.Join(policies, ","), seeds: model.DefaultSeeds, seedDraws: d.seedDraws, goals: d.goals}
	if lp := d.plan; lp != nil {
		start.seeds, start.note = lp.plan.Seeds, lp.plan.Note
	}
	return start
}

// appOptions start the program so, saving plans to the disk.
func (t tuiStart) appOptions() []model.Option {
	opts := []model.Option{model.WithSeeds(t.seeds), model.WithSpreadDraws(t.seedDraws), model.WithNote(t.note),
		model.WithFiles(newPlanFiles()), model.WithGoals(t.goals, 0)}
	if t.policies != "" {
		opts = append(opts, model.WithPolicies(strings.Split(t.policies, ",")))
	}
	return opts
}

// runProgram runs p and turns how it ended into an exit status, once
// restore has put the terminal back where bubbletea may not have: 0 after
// a quit (q, ctrl+c); 1 after an error or a panic, said on stderr; after a
// signal that ends the program, 128 plus its number, as a shell reports a
// process the signal ended (SIGHUP 129, SIGINT 130, SIGQUIT 131, SIGTERM
// 143), with nothing said: the signal was asked for. Those signals are a
// person's interrupt (SIGINT; ctrl+c itself is a key in raw mode), a
// hangup when the terminal or the ssh session goes away (SIGHUP), kill's
// default (SIGTERM), and ctrl+\ or kill -QUIT (SIGQUIT), which Go would
// answer with a trace of every goroutine and exit status 2, the terminal
// left raw.
func runProgram(p *tea.Program, stderr io.Writer, restore func()) int {
	signals := make(chan os.Signal, 1)
	signal.Notify(signals, syscall.SIGINT, syscall.SIGHUP, syscall.SIGTERM, syscall.SIGQUIT)
	defer signal.Stop(signals)
	got := make(chan syscall.Signal, 1)
	done := make(chan struct{})
	defer close(done)
	go func() {
		select {
		case s := <-signals:
			got <- s.(syscall.Signal)
			// Quit, not Kill: a quit waits for bubbletea's input loop to end
			// before it closes the input, where a kill races it. A program
			// that does not quit within a second is killed.
			p.Quit()
			select {
			case <-done:
			case <-time.After(time.Second):
				p.Kill()
			}
		case <-done:
		}
	}()
	_, err := p.Run()
	select {
	case s := <-got:
		restore()
		return 128 + int(s)
	default:
	}
	if err != nil {
		restore()
		fmt.Fprintf(stderr, "retry-planner: %v\n", err)
		return 1
	}
	return 0
}

// restoreTerminal leaves the alternate screen, shows the cursor and puts
// the terminal's modes back as they were before the program. Doing it twice
// does no harm.
func restoreTerminal(fd int, saved *term.State, out io.Writer) {
	fmt.Fprint(out, "\x1b[?1049l\x1b[?25h")
	_ = term.Restore(fd, saved)
}

// chooseStyles settles the colours before the program starts, asking the
// terminal nothing: whether the background is dark comes from COLORFGBG
// (dark unless it says otherwise), not from a query, which a terminal that
// does not answer would make wait 5 s for the first frame, and whose reader
// would take the keys typed meanwhile. With NO_COLOR the styles have no
// colour, but bold and reverse video still work where the terminal has
// them.
func chooseStyles(out *os.File) *pane.Styles {
	lipgloss.SetHasDarkBackground(darkBackground(os.Getenv("COLORFGBG")))
	if os.Getenv("NO_COLOR") == "" {
		return pane.DefaultStyles()
	}
	if termenv.NewOutput(out).ColorProfile() != termenv.Ascii {
		lipgloss.SetColorProfile(termenv.ANSI)
	}
	return pane.NoColorStyles()
}

// darkBackground reads COLORFGBG, "foreground;background" (or with a
// middle field, as rxvt writes it) in the 16 ANSI colours: a background of
// 7 (light grey) or from 9 to 15 (the bright ones but 8) is light, any
// other dark. Without it, or where it does not read, the background is
// taken as dark, as most terminals' is.
func darkBackground(colorfgbg string) bool {
	fields := strings.Split(colorfgbg, ";")
	bg, err := strconv.Atoi(strings.TrimSpace(fields[len(fields)-1]))
	if colorfgbg == "" || err != nil || bg < 0 || bg > 15 {
		return true
	}
	return !(bg == 7 || bg >= 9)
}
