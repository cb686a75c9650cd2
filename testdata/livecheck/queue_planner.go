package livecheck

import "github.com/retryplanner/retry-planner/backoff"

// The simulator's side of the scenarios that queue: backoff has MODEL.md
// section 6 (Settings.Queue, Timeout, DropExpired and QueueOrder; the
// figures TimedOut, Wasted, Dropped and QueuePeak), so Simulate runs the
// queue scenarios too, and the table and TestLiveQueue set them against
// the live server's queue.

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
