package backoff

// Crowds runs one crowd after another on one goroutine, each exactly as
// RunSeeds runs one seed's crowd of one policy, keeping its scratch memory
// from one run to the next: a search over many policies and budgets runs
// thousands of crowds, and fresh scratch for each would cost more than the
// runs. A Crowds is not safe for use by several goroutines at once; give
// each worker its own. The zero value is ready to use.
type Crowds struct {
	runner crowdRunner
	plan   plan
}

// Run runs policy p's crowd under settings s (valid under WideLimits, but
// that the seed may lie up to MaxSeeds-1 past its range, as RunSeeds's
// later seeds do) and returns its figures: the figures RunSeeds gives p for
// seed s.Seed under the same settings, and Run's without Options.Series.
// stop is as in Options.
func (c *Crowds) Run(p Policy, s Settings, stop func() bool) (Figures, error) {
	return c.RunWatched(p, s, stop, nil)
}

// SoFar is what a crowd's figures are at least, part way through its run:
// each only grows as the run goes on.
type SoFar struct {
	Attempts      int // attempts so far: Figures.Attempts is at least this
	NotThrough    int // clients that gave up, were throttled or ran out of time so far: Figures.NotThrough is at least this
	PeakAfterBack int // the most attempts at or after the outage's end in a slot closed so far: Figures.PeakAfterBack is at least this
	// StableFrom is the end of the last slot closed so far with a
	// rejection (with a queue, or a timeout, a wasted or a dropped
	// request), the outage's end if none: Figures.StableFrom is at least
	// this.
	StableFrom int
}

// RunWatched is Run, but that where the crowd runs on the engine (the fast
// path's runs are short), watch, if not nil, is asked each time stop is
// (after it, and only while stop says false) what the figures are at least
// so far; when it says true, the run stops with ErrStopped. A search uses
// it to stop a crowd once the figures so far are certain to rule it out.
func (c *Crowds) RunWatched(p Policy, s Settings, stop func() bool, watch func(SoFar) bool) (Figures, error) {
	v := s
	if _, top := s.RangeIn(WideLimits, Seed); v.Seed > top && v.Seed-top < MaxSeeds {
		v.Seed = top
	}
	if err := v.ValidateIn(WideLimits); err != nil {
		return noFigures(), err
	}
	if err := p.Validate(); err != nil {
		return noFigures(), err
	}
	pl := c.plan.renew(p, s.Draws)
	if err := checkQueue(p, pl, s); err != nil {
		return noFigures(), err
	}
	return c.runner.runWatched(pl, s, stop, watch)
}

// soFar is the engine's figures so far, as SoFar says them.
func (e *engine) soFar() SoFar {
	f := SoFar{Attempts: e.f.Attempts, NotThrough: e.f.GaveUp + e.f.Throttled + e.f.OutOfTime, PeakAfterBack: e.f.PeakAfterBack,
		StableFrom: e.s.Outage}
	if e.lastBusy >= 0 {
		f.StableFrom = int(e.lastBusy+1) * e.s.Slot
	}
	return f
}

// crowdRunner is one worker's way of running crowds: on the fast path in
// its tally, else in an engine on its scratch, each engine leaving its
// chunks to the next. RunSeeds's workers and Crowds run alike through it.
type crowdRunner struct {
	ta      *tally
	scratch engineScratch
}

func (r *crowdRunner) run(pl *plan, s Settings, stop func() bool) (Figures, error) {
	return r.runWatched(pl, s, stop, nil)
}

// runWatched is run, watch as Crowds.RunWatched says.
func (r *crowdRunner) runWatched(pl *plan, s Settings, stop func() bool, watch func(SoFar) bool) (Figures, error) {
	if !s.needsClock() && fastSlots(pl, s) <= maxFastSlots {
		if r.ta == nil {
			r.ta = new(tally)
		}
		return r.ta.crowd(pl, s, stop)
	}
	var e *engine
	if watch != nil {
		asked := stop
		stop = func() bool { return asked != nil && asked() || watch(e.soFar()) }
	}
	e = newEngineWith(pl, s, false, stop, &r.scratch)
	f, _, err := e.run()
	e.keep(&r.scratch)
	return f, err
}

// CrowdsWorkers is how many Crowds may run at once, given at most want,
// for runs of these policies, each under its settings (ss[i] for ps[i]):
// no more than SeedsMemory allows. A Crowds keeps the largest scratch of
// the fast path and the largest of the engine that its runs needed, so
// the two largest bound one.
func CrowdsWorkers(ps []Policy, ss []Settings, want int) int {
	var fast, slow int64
	for i, p := range ps {
		if i >= len(ss) || p.Validate() != nil {
			continue
		}
		pl := newPlan(p, ss[i].Draws)
		n := workerScratch(pl, ss[i])
		if !ss[i].needsClock() && fastSlots(pl, ss[i]) <= maxFastSlots {
			fast = max(fast, n)
		} else {
			slow = max(slow, n)
		}
	}
	return int(max(1, min(int64(want), SeedsMemory/(1+fast+slow))))
}

// SameEverySeed reports whether p's crowd gives the same figures for every
// seed: the seed only seeds the draws, and the fresh load, the service and
// the budgets draw nothing. A policy without jitter draws nothing; one of
// decorrelated jitter whose first wait is the longest (a valid policy's
// longest is at least its first) draws each wait from the first wait up
// and caps it at the longest: every wait is the longest, whatever it drew.
func (p Policy) SameEverySeed() bool {
	return !p.Jitter.Draws() || p.Jitter.Kind == JitterDecorrelated && p.FirstWait >= p.LongestWait
}

// SpreadOf sums up policy p's figures over seeds, one seed's each in
// order, as RunSeeds does: each figure's median, 95th percentile and worst
// by nearest rank (see Spread), the seeds still overloaded and those in
// which no client got through. It reorders nothing in perSeed.
func SpreadOf(p Policy, perSeed []Figures) PolicySpread {
	fields := FigureFields()
	sp := PolicySpread{Policy: p, Spreads: make([]Spread, len(fields))}
	if len(perSeed) == 0 {
		for i := range sp.Spreads {
			sp.Spreads[i] = Spread{Median: -1, P95: -1, Worst: -1}
		}
		return sp
	}
	values := make([]int, len(perSeed))
	for fi, field := range fields {
		for i := range perSeed {
			values[i] = field.Get(perSeed[i])
		}
		sp.Spreads[fi] = spreadOf(values, field)
	}
	for i := range perSeed {
		if perSeed[i].StillOverloaded {
			sp.Overloaded++
		}
		if perSeed[i].Through == 0 {
			sp.NoneThrough++
		}
	}
	return sp
}
