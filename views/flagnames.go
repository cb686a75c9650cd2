package views

import "github.com/retryplanner/retry-planner/backoff"

// FieldFlag is the command-line flag of a whole-number setting, without its
// dashes: "first-wait". The command line, plans and comparisons all name
// the settings by it.
func FieldFlag(f backoff.Field) string {
	switch f {
	case backoff.FirstWait:
		return "first-wait"
	case backoff.LongestWait:
		return "longest"
	case backoff.Attempts:
		return "attempts"
	case backoff.Clients:
		return "clients"
	case backoff.Outage:
		return "outage"
	case backoff.Seed:
		return "seed"
	case backoff.Slot:
		return "slot"
	case backoff.Multiplier:
		return "multiplier"
	case backoff.MaxElapsed:
		return "max-elapsed"
	case backoff.Capacity:
		return "capacity"
	case backoff.Load:
		return "load"
	case backoff.LoadUntil:
		return "load-until"
	case backoff.Processes:
		return "processes"
	}
	return f.String()
}
