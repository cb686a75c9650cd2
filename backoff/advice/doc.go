// Package advice answers the reverse question: given a scenario (the
// crowd, the outage, the service and its load) and a person's goals, which
// retry settings meet them? It searches the reference's five policies, the
// presets, a grid of policies of one's own refined around its best points,
// retry budgets and, when asked, the service's own remedies, and ranks the
// candidates that meet every goal by the load they add.
//
// Goals. A goal is a limit on one figure, NAME<=LIMIT: not-through<=1% (the
// share of clients that never get through), recovered<=60s
// (recovered_after_ms; a service still overloaded never meets it),
// peak<=2x (peak_after_back against its slot's capacity) or peak<=5000/s,
// p99<=30s (latency_p99_ms) and attempts<=3x (attempts per client). A goal
// holds for a candidate when it holds at the 95th percentile over the
// seeds (nearest rank, as backoff.Spread computes it), each seed an
// independent draw unless the settings say otherwise; a value equal to
// the limit holds. Every comparison is in whole numbers (see Verdict).
//
// The search, in phases, every candidate first on one seed: the policies
// alone (the five, the presets, the scenario's own, the grid); the
// neighbours of the best of one's own, twice; every budget with the five,
// the presets and the best of one's own; with Search.AlsoService each of
// the service's remedies with the best so far. Then successive halving:
// the KeepFirst most promising run on ScreenSeeds seeds, the KeepLast most
// promising of those on every seed. A policy whose waits no draw changes
// runs once (backoff.Policy.SameEverySeed: no jitter, or decorrelated
// jitter from a first wait at the longest), and so do candidates that wait
// alike (decorrelated jitter whose longest wait no draw reaches). On the
// first seed, a policy of the grid's crowd stops part way once its figures
// so far (backoff.Crowds.RunWatched) make it certain to lose: certain to
// miss goals, and behind enough candidates, whatever its figures turn out
// to be, to be kept for nothing that follows. The crowds run on a pool of
// workers, each with its own backoff.Crowds, bounded by
// backoff.SeedsMemory; the answer does not depend on how many, nor on
// which crowds stop.
//
// What it guarantees: every figure of a candidate it returns, and whether
// the candidate meets each goal, is over all the seeds, exactly what
// crowd --seeds gives that candidate's command. What it does not: a
// candidate dropped after fewer seeds, or a policy between the grid's
// points, might have met the goals: the search may miss candidates, never
// shows one that misses a goal it says it meets.
//
// Nothing here reads a clock, a terminal or a file: settings in, ranked
// candidates out; progress goes to a counter the caller gives, and a stop
// function ends a search early.
package advice
