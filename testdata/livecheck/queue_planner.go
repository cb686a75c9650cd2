//go:build plannerqueue

package livecheck

import "github.com/retryplanner/retry-planner/backoff"

// The simulator's side of the scenarios that queue, for a backoff that has
// MODEL.md section 6: build with -tags plannerqueue once backoff.Settings
// has Queue (int), Timeout (int, ms), DropExpired (bool) and QueueOrder
// (FIFO or LIFO), and backoff.Figures has TimedOut, Wasted, Dropped and
// QueuePeak. Then Simulate runs the queue scenarios too, and the table and
// TestLiveShortQueue set them against the live server's queue.

// PlannerHasQueue reports whether the simulator can run scenarios that
// queue.
const PlannerHasQueue = true

// plannerQueue sets the planner's queue from q.
func plannerQueue(s *backoff.Settings, q Queue) bool {
	s.Queue, s.Timeout, s.DropExpired = q.Size, q.Timeout, q.DropExpired
	s.QueueOrder = backoff.FIFO
	if q.Order == LIFO {
		s.QueueOrder = backoff.LIFO
	}
	return true
}

// addQueueFigures copies the planner's queue figures into f.
func addQueueFigures(f *Figures, b backoff.Figures) {
	f.TimedOut, f.Wasted, f.Dropped, f.QueuePeak = b.TimedOut, b.Wasted, b.Dropped, b.QueuePeak
}
