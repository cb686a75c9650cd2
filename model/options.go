package model

import (
	"runtime"

	"github.com/retryplanner/retry-planner/backoff"
	"github.com/retryplanner/retry-planner/backoff/advice"
)

// Options are how the program computes; the defaults run the core off the
// update loop.
type Options struct {
	// Compute runs the core; CoreCompute unless told.
	Compute Compute
	// InlineWork is the most work (attempts at most, over every policy: see
	// run.work) whose crowds run inside Update, so that the frame after the
	// change already shows them. DefaultInlineWork unless told.
	InlineWork int64
	// InlineSpread runs the spread over seeds inside Update too: for tests
	// that golden a frame with it.
	InlineSpread bool
	// Seeds is how many seeds the first plan's spread takes: DefaultSeeds
	// unless told.
	Seeds int
	// SpreadDraws are the first plan's spread's draws: Independent unless
	// told.
	SpreadDraws backoff.Draws
	// Policies are the names of the policies the panes compare, as
	// --policies takes them: the five and custom unless told.
	Policies []string
	// Files are where the s key saves the plan; none saves nothing, and
	// says so.
	Files Files
	// Note is kept in every plan saved: the note of the plan the program
	// was started with.
	Note string
	// Notice is shown under the first frame until the first key: what the
	// program made of the plan it was started with.
	Notice string
	// MaxMemory is the most memory a plan's run may hold by its estimate
	// (backoff.RunAllCost and RunSeedsCost); 0 for no ceiling. A plan past
	// it is not run: panes 2 and 3 say why, in Refusal's words.
	MaxMemory int64
	// Refusal says why a run that would hold need bytes is not run, and
	// what allows it.
	Refusal func(need int64) string
	// Goals, AdviceSeeds and AlsoService are what the advice pane first
	// searches for (--goal, a plan's [goals]): no goals, no search.
	Goals       advice.Goals
	AdviceSeeds int
	AlsoService bool
	// InlineAdvice runs the advice's search inside Update: for tests that
	// golden its table.
	InlineAdvice bool
	// AdviceWorkers is the cores the advice's searches run on, and their
	// estimates are for: GOMAXPROCS unless told.
	AdviceWorkers int
	// Clipboard puts text on the terminal's clipboard (OSC 52), from a
	// command; nil where the terminal takes no such thing, and then the
	// advice's command is shown to select instead.
	Clipboard func(text string) error
}

// DefaultInlineWork is the work below which the crowds run inside Update:
// at most 50,000 attempts over the six policies. The defaults' six crowds,
// 7,200 attempts at most, take about 55 µs with their series (the core's
// fast path keeps them too); 50,000 attempts through the discrete-event
// engine, with a service, take a few milliseconds, well inside a frame.
// Anything more runs off the update loop; see BenchmarkPlanChange.
const DefaultInlineWork = 50_000

// Option changes an Option of the program.
type Option func(*Options)

// WithCompute runs the core with c: a slow or blocking computation, in
// tests.
func WithCompute(c Compute) Option { return func(o *Options) { o.Compute = c } }

// WithInlineWork runs the crowds inside Update while their work is at most
// n.
func WithInlineWork(n int64) Option { return func(o *Options) { o.InlineWork = n } }

// WithInlineSpread runs the spread over seeds inside Update too.
func WithInlineSpread() Option { return func(o *Options) { o.InlineSpread = true } }

// WithSeeds starts with the spread over n seeds (0 for none).
func WithSeeds(n int) Option { return func(o *Options) { o.Seeds = n } }

// WithSpreadDraws starts with the spread over seeds drawn with d.
func WithSpreadDraws(d backoff.Draws) Option { return func(o *Options) { o.SpreadDraws = d } }

// WithPolicies compares the policies named (as --policies names them) in
// every pane; names the settings do not take leave the default six.
func WithPolicies(names []string) Option { return func(o *Options) { o.Policies = names } }

// WithFiles saves plans through f.
func WithFiles(f Files) Option { return func(o *Options) { o.Files = f } }

// WithNote keeps note in every plan saved.
func WithNote(note string) Option { return func(o *Options) { o.Note = note } }

// WithGoals has the advice pane search for gs over seeds (0 for its
// default) from the start.
func WithGoals(gs advice.Goals, seeds int) Option {
	return func(o *Options) { o.Goals, o.AdviceSeeds = gs, seeds }
}

// WithInlineAdvice runs the advice's search inside Update.
func WithInlineAdvice() Option { return func(o *Options) { o.InlineAdvice = true } }

// WithAdviceWorkers runs the advice's searches on n cores.
func WithAdviceWorkers(n int) Option { return func(o *Options) { o.AdviceWorkers = n } }

// WithClipboard copies the advice's commands with copy.
func WithClipboard(copy func(text string) error) Option {
	return func(o *Options) { o.Clipboard = copy }
}

// WithNotice shows text under the first frame until the first key.
func WithNotice(text string) Option { return func(o *Options) { o.Notice = text } }

// WithMemoryCeiling runs no plan whose run would hold more than max bytes,
// saying why in say's words.
func WithMemoryCeiling(max int64, say func(need int64) string) Option {
	return func(o *Options) { o.MaxMemory, o.Refusal = max, say }
}

func newOptions(opts []Option) Options {
	o := Options{Compute: CoreCompute(), InlineWork: DefaultInlineWork, Seeds: DefaultSeeds, SpreadDraws: backoff.Independent, AdviceWorkers: runtime.GOMAXPROCS(0)}
	for _, opt := range opts {
		opt(&o)
	}
	if o.Compute.Crowds == nil || o.Compute.Spread == nil || o.Compute.Advise == nil {
		core := CoreCompute()
		if o.Compute.Advise == nil {
			o.Compute.Advise = core.Advise
		}
		if o.Compute.Crowds == nil {
			o.Compute.Crowds = core.Crowds
		}
		if o.Compute.Spread == nil {
			o.Compute.Spread = core.Spread
		}
	}
	return o
}
