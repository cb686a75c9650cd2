//go:build !plannerqueue

package livecheck

import "github.com/retryplanner/retry-planner/backoff"

// The planner has no queue on this branch: backoff.Settings has no Queue,
// Timeout, DropExpired or QueueOrder, and backoff.Figures no TimedOut,
// Wasted, Dropped or QueuePeak. So a scenario that queues runs live only,
// and its simulator side says ErrNoPlannerQueue. Once backoff has them,
// queue_planner.go, built with -tags plannerqueue (or with its build line
// dropped and this file deleted), sets them from the scenario and reads
// them back: nothing else in this package changes.

// PlannerHasQueue reports whether the simulator can run scenarios that
// queue.
const PlannerHasQueue = false

// plannerQueue would set the planner's queue from q; without one it says
// the planner cannot run the scenario.
func plannerQueue(*backoff.Settings, Queue) bool { return false }

// addQueueFigures would copy the planner's queue figures into f.
func addQueueFigures(*Figures, backoff.Figures) {}
