package backoff

import (
	"cmp"
	"errors"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
)

// Validate returns an error naming the first of the policy's fields outside
// the wide ranges, or nil.
func (p Policy) Validate() error {
	check := func(name string, v, low, high int) error {
		if v < low || v > high {
			return fmt.Errorf("%s: %s %d is not from %d to %d", p.Name, name, v, low, high)
		}
		return nil
	}
	for _, err := range []error{
		check("first wait", p.FirstWait, 1, MaxWait),
		check("longest wait", p.LongestWait, p.FirstWait, MaxWait),
		check("multiplier", p.Multiplier, 1000, 10000),
		check("attempts", p.Attempts, 2, MaxAttempts),
		check("limit on total time", p.MaxElapsed, 0, MaxTime),
		p.Growth.validate(),
		p.Jitter.validate(),
	} {
		if err != nil {
			return err
		}
	}
	return nil
}

// Options are what a run does beyond its figures.
type Options struct {
	// Series keeps the attempts per slot, for a timeline.
	Series bool
	// Stop, if set, is asked every few hundred microseconds of work, and
	// by RunAll before each policy it starts; when it says true the run
	// stops and returns ErrStopped, and RunAll starts no other.
	Stop func() bool
	// Engine runs the discrete-event engine even where the crowd needs no
	// clock: for tests that hold the two together.
	Engine bool
	// Done, if set, counts the policies RunAll has run, for a progress
	// bar.
	Done *atomic.Int64
}

// Result is one policy's run.
type Result struct {
	Policy  Policy
	Figures Figures
	Series  *Series // nil unless Options.Series
}

// maxFastSlots is the most slots the fast path counts in; more, and the
// engine, whose slots stream, runs instead.
const maxFastSlots = 1 << 24

// Run runs policy p's crowd, with the fresh load, against the service of
// settings s (which must be valid under WideLimits).
func Run(p Policy, s Settings, o Options) (Result, error) {
	if err := s.ValidateIn(WideLimits); err != nil {
		return Result{Policy: p, Figures: noFigures()}, err
	}
	if err := p.Validate(); err != nil {
		return Result{Policy: p, Figures: noFigures()}, err
	}
	if s.HasQueue() {
		if err := checkQueue(p, newPlan(p, s.Draws), s); err != nil {
			return Result{Policy: p, Figures: noFigures()}, err
		}
	}
	if !o.Engine && !s.needsClock() {
		ta := tallyPool.Get().(*tally)
		r, ok, err := ta.run(p, s, o.Series, o.Stop)
		tallyPool.Put(ta)
		if ok || err != nil {
			return r, err
		}
	}
	f, series, err := newEngine(newPlan(p, s.Draws), s, o.Series, o.Stop).run()
	return Result{Policy: p, Figures: f, Series: series}, err
}

// run is Run on the fast path, with ta's plan, if the horizon is short
// enough for it (and its series, if kept).
func (ta *tally) run(p Policy, s Settings, keepSeries bool, stop func() bool) (Result, bool, error) {
	pl := ta.plan.renew(p, s.Draws)
	if fastSlots(pl, s) > maxFastSlots {
		return Result{}, false, nil
	}
	var series *Series
	if keepSeries {
		if series = fastSeries(pl, s); series == nil {
			return Result{}, false, nil
		}
	}
	f, err := ta.crowdSeries(pl, s, series, stop)
	if err != nil {
		return Result{Policy: p, Figures: f}, false, err
	}
	return Result{Policy: p, Figures: f, Series: series}, true, nil
}

// RunAll runs each policy as Run does, on up to workers goroutines at once
// (the policies are independent), and returns the results in the policies'
// order, or the first error; once Options.Stop says stop, it starts no other
// policy and returns ErrStopped when those running have stopped. The longest runs are handed out first, so
// that no worker is left with a long one at the end while the others idle.
func RunAll(ps []Policy, s Settings, o Options, workers int) ([]Result, error) {
	out := make([]Result, len(ps))
	errs := make([]error, len(ps))
	workers = max(1, min(workers, len(ps)))
	order := make([]int, len(ps))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(runCost(ps[b], s), runCost(ps[a], s)) })
	next := make(chan int, len(ps))
	for _, i := range order {
		next <- i
	}
	close(next)
	var stopped atomic.Bool
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for i := range next {
				if stopped.Load() || o.Stop != nil && o.Stop() {
					stopped.Store(true)
					return
				}
				out[i], errs[i] = Run(ps[i], s, o)
				if errors.Is(errs[i], ErrStopped) {
					stopped.Store(true)
					return
				}
				if o.Done != nil {
					o.Done.Add(1)
				}
			}
		})
	}
	wg.Wait()
	if stopped.Load() {
		return out, ErrStopped
	}
	for _, err := range errs {
		if err != nil {
			return out, err
		}
	}
	return out, nil
}

// runCost is a rough measure of a run's work, to order runs by: the
// attempts it can make, far fewer without jitter, where clients that wait
// alike go as one cohort.
func runCost(p Policy, s Settings) int64 {
	n := int64(s.Clients+s.FreshRequests()) * int64(max(p.Attempts, 1))
	if !p.Jitter.Draws() && s.Budget.Kind == BudgetNone && (!s.Breaker.On() || s.ProcessCount() <= 1) {
		n /= 16
	}
	return n
}
