package pane

import (
	"github.com/charmbracelet/bubbles/help"
	"github.com/charmbracelet/huh"
	"github.com/charmbracelet/lipgloss"
)

// palette is the few colours the full-screen program uses. Each is one of
// the 16 ANSI colours, so a 16-colour terminal shows them as they are meant,
// and each has a light and a dark variant that lipgloss picks from the
// terminal's background.
type palette struct {
	text, muted, accent, onAccent, bar, after, good, warn, bad lipgloss.TerminalColor
	waste                                                      lipgloss.TerminalColor // a queue's wasted work
	short                                                      lipgloss.TerminalColor // attempts a breaker failed at once
}

func colours() palette {
	return palette{
		text:     lipgloss.NoColor{},
		muted:    lipgloss.AdaptiveColor{Light: "8", Dark: "7"},
		accent:   lipgloss.AdaptiveColor{Light: "5", Dark: "13"},
		onAccent: lipgloss.AdaptiveColor{Light: "15", Dark: "0"},
		bar:      lipgloss.AdaptiveColor{Light: "4", Dark: "12"},
		after:    lipgloss.AdaptiveColor{Light: "2", Dark: "10"},
		good:     lipgloss.AdaptiveColor{Light: "2", Dark: "10"},
		warn:     lipgloss.AdaptiveColor{Light: "3", Dark: "11"},
		bad:      lipgloss.AdaptiveColor{Light: "1", Dark: "9"},
		waste:    lipgloss.AdaptiveColor{Light: "6", Dark: "14"},
		short:    lipgloss.AdaptiveColor{Light: "130", Dark: "208"},
	}
}

// noColours is the palette for NO_COLOR: every colour unset, so only bold,
// faint and reverse video remain.
func noColours() palette {
	n := lipgloss.NoColor{}
	return palette{text: n, muted: n, accent: n, onAccent: n, bar: n, after: n, good: n, warn: n, bad: n, waste: n, short: n}
}

// Styles are every style of the full-screen program, built once and passed
// to the views. Meaning never rests on colour alone: what a colour picks out
// is also marked with a character ([selected], best*, ✓, ✗), so the screen
// reads the same with NO_COLOR or in a test's ASCII profile.
type Styles struct {
	App       lipgloss.Style // the program's name in the header
	Tab       lipgloss.Style
	ActiveTab lipgloss.Style
	Title     lipgloss.Style // a pane's first line
	Text      lipgloss.Style
	Answer    lipgloss.Style // the policy to choose, first in pane 2
	Muted     lipgloss.Style // labels, units, hints

	Policy         lipgloss.Style // a policy that is not chosen
	PolicySelected lipgloss.Style // the chosen policy

	Header lipgloss.Style // a table's header cells
	Cell   lipgloss.Style // a table's cells
	Best   lipgloss.Style // the best value of a crowd column
	Worst  lipgloss.Style // the worst value of a column that marks it
	// Overloaded marks a service still overloaded when the load ends, as
	// plainly as the best: in reverse video, which shows without colour
	// too, beside OverloadedMark.
	Overloaded lipgloss.Style
	Rule       lipgloss.Style // table rules and the timeline strip's line

	Down    lipgloss.Style // an attempt while the service is down
	Through lipgloss.Style // the attempt that gets through
	Later   lipgloss.Style // attempts planned after getting through
	Back    lipgloss.Style // the moment the service is back

	Bar      lipgloss.Style // retries per second before the service is back
	BarAfter lipgloss.Style // retries per second once it is back
	Count    lipgloss.Style // the count beside a bar

	// Pane 3's stacked bars, each part also its own character.
	Served   lipgloss.Style // attempts the service served
	Rejected lipgloss.Style // attempts it rejected: its slot was full
	FailDown lipgloss.Style // attempts that failed while it was down
	Wasted   lipgloss.Style // a queue's expired requests the service worked on for nothing
	Dropped  lipgloss.Style // a queue's expired requests it dropped
	Queue    lipgloss.Style // the queue's length beside a row
	Short    lipgloss.Style // attempts a breaker failed at once, short-circuited
	Opened   lipgloss.Style // the breakers opened in a row, beside it
	Capacity lipgloss.Style // the slot's capacity drawn across the bars

	Stale lipgloss.Style // results shown while newer ones are computed, or under an error

	Good  lipgloss.Style // a job done, the ledger's self-check
	Warn  lipgloss.Style // a job that gave up
	Bad   lipgloss.Style // a job that cannot be retried
	Error lipgloss.Style // a message about what was typed
	Note  lipgloss.Style // Cancelled. and other notes

	InputPrompt      lipgloss.Style
	InputText        lipgloss.Style
	InputPlaceholder lipgloss.Style
	InputCursor      lipgloss.Style

	Help help.Styles

	p      palette
	paints []knownPaint // every style above, worked out once: see paintOf
}

// knownPaint is a style and its paint.
type knownPaint struct {
	s lipgloss.Style
	p paint
}

// paintOf is s worked out as a paint: one of the program's own styles is
// looked up, any other worked out now.
func (s *Styles) paintOf(style lipgloss.Style) paint {
	for _, k := range s.paints {
		if sameStyle(k.s, style) {
			return k.p
		}
	}
	return newPaint(style)
}

// DefaultStyles returns the program's styles in colour. They are shared
// by pointer and never changed after this.
func DefaultStyles() *Styles { return newStyles(colours()) }

// NoColorStyles returns the program's styles without any colour, for
// NO_COLOR: bold, faint and reverse video still set things apart.
func NoColorStyles() *Styles { return newStyles(noColours()) }

func newStyles(p palette) *Styles {
	base := lipgloss.NewStyle()
	fg := func(c lipgloss.TerminalColor) lipgloss.Style { return base.Foreground(c) }
	s := Styles{
		App:       fg(p.accent).Bold(true),
		Tab:       fg(p.muted),
		ActiveTab: base.Foreground(p.onAccent).Background(p.accent).Bold(true),
		Title:     base.Bold(true),
		Text:      fg(p.text),
		Answer:    fg(p.text).Bold(true),
		Muted:     fg(p.muted),

		Policy:         fg(p.muted),
		PolicySelected: base.Foreground(p.onAccent).Background(p.bar).Bold(true),

		Header: base.Bold(true),
		Cell:   base,
		Best:   fg(p.good).Bold(true),
		Worst:  fg(p.bad).Bold(true),

		Overloaded: fg(p.bad).Bold(true).Reverse(true),
		Rule:       fg(p.muted),

		Down:    fg(p.bad),
		Through: fg(p.good).Bold(true),
		Later:   fg(p.muted),
		Back:    fg(p.after).Bold(true),

		Bar:      fg(p.bar),
		BarAfter: fg(p.after),
		Count:    base,

		Served:   fg(p.after),
		Rejected: fg(p.warn),
		FailDown: fg(p.bad),
		Wasted:   fg(p.waste).Bold(true),
		Dropped:  fg(p.muted),
		Queue:    fg(p.waste),
		Short:    fg(p.short).Italic(true),
		Opened:   fg(p.short).Bold(true),
		Capacity: fg(p.accent).Bold(true),

		Stale: base.Faint(true),

		Good:  fg(p.good),
		Warn:  fg(p.warn),
		Bad:   fg(p.bad),
		Error: fg(p.bad).Bold(true),
		Note:  fg(p.warn),

		InputPrompt:      fg(p.accent),
		InputText:        base,
		InputPlaceholder: fg(p.muted),
		InputCursor:      base.Reverse(true),
		p:                p,
	}
	s.Help = help.Styles{
		Ellipsis:       fg(p.muted),
		ShortKey:       fg(p.accent),
		ShortDesc:      fg(p.muted),
		ShortSeparator: fg(p.muted),
		FullKey:        fg(p.accent),
		FullDesc:       fg(p.muted),
		FullSeparator:  fg(p.muted),
	}
	for _, style := range []lipgloss.Style{s.Cell, s.Header, s.Best, s.Worst, s.Overloaded, s.Muted, s.Down, s.Through, s.Later, s.Good, s.Warn, s.Bad,
		s.Text, s.Rule, s.PolicySelected, s.Title, s.Note, s.Error, s.Stale} {
		s.paints = append(s.paints, knownPaint{style, newPaint(style)})
	}
	return &s
}

// FormTheme is the settings form's huh theme in the program's colours.
// Fields sit one a line, each title beside its value like the --plain
// prompts.
func (s *Styles) FormTheme() *huh.Theme {
	t := huh.ThemeBase()
	p := s.p
	t.FieldSeparator = lipgloss.NewStyle().SetString("\n")
	t.Focused.Base = t.Focused.Base.BorderForeground(p.accent)
	t.Focused.Title = lipgloss.NewStyle().Foreground(p.accent).Bold(true)
	t.Focused.Description = lipgloss.NewStyle().Foreground(p.muted)
	t.Focused.ErrorIndicator = lipgloss.NewStyle().Foreground(p.bad).SetString(" *")
	t.Focused.ErrorMessage = lipgloss.NewStyle().Foreground(p.bad).Bold(true)
	t.Focused.TextInput.Prompt = lipgloss.NewStyle().Foreground(p.accent)
	t.Focused.TextInput.Text = lipgloss.NewStyle()
	t.Focused.TextInput.Placeholder = lipgloss.NewStyle().Foreground(p.muted)
	t.Focused.TextInput.Cursor = lipgloss.NewStyle().Reverse(true)
	t.Blurred = t.Focused
	t.Blurred.Base = t.Blurred.Base.BorderStyle(lipgloss.HiddenBorder())
	t.Blurred.Title = lipgloss.NewStyle().Foreground(p.muted)
	t.Blurred.TextInput.Prompt = lipgloss.NewStyle().Foreground(p.muted)
	t.Help = s.Help
	return t
}
