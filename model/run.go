package model

import (
	"runtime"

	"github.com/retryplanner/retry-planner/backoff"
)

// runFive runs the five shapes' crowds under s, with their series when
// asked. Settings the faces hold are valid, so no run fails; one that did
// would show its figures absent.
func runFive(s backoff.Settings, series bool) []backoff.Result {
	results, _ := backoff.RunAll(s.Five(), s, backoff.Options{Series: series}, runtime.GOMAXPROCS(0))
	return results
}

// perSecond is s counting per second, as the reference's retries over time
// do.
func perSecond(s backoff.Settings) backoff.Settings {
	s.Slot = 1000
	return s
}
