package backoff

// Flag is the command-line flag of a whole-number setting, without its
// dashes: "first-wait". The command line, plans and comparisons all name
// the settings by it.
func (f Field) Flag() string {
	switch f {
	case FirstWait:
		return "first-wait"
	case LongestWait:
		return "longest"
	case Attempts:
		return "attempts"
	case Clients:
		return "clients"
	case Outage:
		return "outage"
	case Seed:
		return "seed"
	case Slot:
		return "slot"
	case Multiplier:
		return "multiplier"
	case MaxElapsed:
		return "max-elapsed"
	case CustomFirstWait:
		return "custom-first-wait"
	case CustomLongestWait:
		return "custom-longest"
	case CustomAttempts:
		return "custom-attempts"
	case CustomMaxElapsed:
		return "custom-max-elapsed"
	case Capacity:
		return "capacity"
	case Load:
		return "load"
	case LoadUntil:
		return "load-until"
	case Processes:
		return "processes"
	case Queue:
		return "queue"
	case Timeout:
		return "timeout"
	case OutageHang:
		return "outage-hang"
	case RetryAfter:
		return "retry-after"
	}
	return f.String()
}
