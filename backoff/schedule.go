package backoff

// Outcome is what a retry of one client's schedule meets, against a service
// that is down until the outage's end and takes every attempt from then on.
type Outcome int

const (
	Down      Outcome = iota // before the outage's end: it fails
	Through                  // the first at or after it: it gets through
	NotNeeded                // after the one that got through: never made
	PastLimit                // more than the limit on total time after the start: never made
)

func (o Outcome) String() string {
	switch o {
	case Down:
		return "down"
	case Through:
		return "through"
	case NotNeeded:
		return "not needed"
	case PastLimit:
		return "past the limit"
	}
	return "Outcome(?)"
}

// Retry is one retry of a client's schedule.
type Retry struct {
	Attempt int  // the attempt this retry is: 2, 3, ..., Attempts
	Wait    int  // ms waited before it, as drawn
	At      int  // ms since the first attempt, which is at 0 ms
	Low     int  // the lowest wait its band holds
	High    int  // the highest
	Cut     bool // Reference draws cannot reach the band's top: it is more than 65,536 ms wide
	Outcome Outcome
}

// End is how a client's schedule ends.
type End int

const (
	EndThrough   End = iota // an attempt got through
	EndGaveUp               // every attempt met the service down
	EndOutOfTime            // the next retry would have passed the limit on total time
)

func (e End) String() string {
	switch e {
	case EndThrough:
		return "through"
	case EndGaveUp:
		return "gave up"
	case EndOutOfTime:
		return "out of time"
	}
	return "End(?)"
}

// Schedule is one crowd client's retries under a policy, drawn as the crowd
// draws them, against the outage alone.
type Schedule struct {
	Policy  Policy
	Client  int
	Retries []Retry // every retry the policy draws, those never made marked so
	End     End
	Made    int // attempts made, the first included
	Total   int // ms from the first attempt to the last one made
}

// ThroughAt returns the retry that got through, if one did.
func (sc Schedule) ThroughAt() (Retry, bool) {
	for _, r := range sc.Retries {
		if r.Outcome == Through {
			return r, true
		}
	}
	return Retry{}, false
}

// DrawnTotal is the time of the last retry drawn, made or not: what the
// reference's one client calls "in all before the last attempt".
func (sc Schedule) DrawnTotal() int {
	if len(sc.Retries) == 0 {
		return 0
	}
	return sc.Retries[len(sc.Retries)-1].At
}

// Waits returns one crowd client's waits under policy p with the settings'
// draws and seed: Attempts-1 of them, the wait before attempt 2 first.
// An invalid policy gives none.
func Waits(p Policy, s Settings, client int) []int {
	sc := ScheduleOf(p, s, client)
	out := make([]int, len(sc.Retries))
	for i, r := range sc.Retries {
		out[i] = r.Wait
	}
	return out
}

// ScheduleOf returns crowd client's schedule under policy p, its draws
// those the crowd makes with the settings' draws and seed. Every retry is
// drawn, and the retries the client never makes are marked NotNeeded or
// PastLimit. An invalid policy gives an empty schedule.
func ScheduleOf(p Policy, s Settings, client int) Schedule {
	sc := Schedule{Policy: p, Client: client, End: EndGaveUp, Made: 1}
	if p.Validate() != nil {
		return sc
	}
	pl := newPlan(p, s.Draws)
	src := newSource(s.Draws, s.Seed, client)
	at, prev := 0, p.FirstWait
	ended := false
	for k := 1; k <= pl.retries; k++ {
		w := pl.wait(k, &src, prev)
		lo, hi := p.band(pl.base[k], prev)
		r := Retry{Attempt: k + 1, Wait: w, At: at + w, Low: lo, High: hi,
			Cut: s.Draws == Reference && p.Jitter.Draws() && hi-lo+1 > ReferenceReach}
		prev = w
		at += w
		switch {
		case ended && sc.End == EndThrough:
			r.Outcome = NotNeeded
		case ended:
			r.Outcome = PastLimit
		case p.MaxElapsed > 0 && r.At > p.MaxElapsed:
			r.Outcome, sc.End, ended = PastLimit, EndOutOfTime, true
		case r.At >= s.Outage:
			r.Outcome, sc.End, ended = Through, EndThrough, true
			sc.Made, sc.Total = k+1, r.At
		default:
			r.Outcome = Down
			sc.Made, sc.Total = k+1, r.At
		}
		sc.Retries = append(sc.Retries, r)
	}
	return sc
}
