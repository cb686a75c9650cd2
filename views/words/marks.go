package words

import "github.com/retryplanner/retry-planner/backoff"

// The marks of best and worst, and the better or worse of one plan against
// another, by one rule: a policy never does better on a figure by losing
// clients. A policy whose clients never got through sends no retries once
// they stop, loads the service less and leaves no latency to measure; a
// low figure there is no merit.

// A Mark is how a policy's value stands in a column of the policies shown.
type Mark int

const (
	Unmarked Mark = iota
	Best
	Worst
)

// A Value is one policy's figure in a column; OK is false for a figure that
// does not exist (a time when no client got through), which ranks after
// every value. Disaster is a value that is no merit whatever the others
// are (issue 24, item 3): its policy is no good for the service (Failure),
// or the value itself is far above the service's capacity
// (FarAboveCapacity); it takes no best mark.
type Value struct {
	V        int
	OK       bool
	Disaster bool
}

// Marks marks one column of the policies shown, given each policy's
// clients not through (a run's policies share their clients, so counts
// compare as shares do):
//   - a column whose values are all alike, or whose figure is neither
//     better higher nor lower (backoff.Neither), has no marks;
//   - the worst mark goes to every policy with the column's worst value, an
//     absent value being worse than any;
//   - the best mark goes only to the policies with the fewest clients not
//     through: to those of them with the best value among them, unless
//     that value is also the column's worst, and never to a disaster's
//     value.
func Marks(values []Value, notThrough []int, better backoff.Better) []Mark {
	out := make([]Mark, len(values))
	if better == backoff.Neither || len(values) == 0 {
		return out
	}
	// rank is lower for a better value; an absent value ranks last.
	const absent = int64(1) << 62
	rank := func(v Value) int64 {
		switch {
		case !v.OK:
			return absent
		case better == backoff.Higher:
			return -int64(v.V)
		}
		return int64(v.V)
	}
	lo, hi := rank(values[0]), rank(values[0])
	fewest := notThrough[0]
	for i, v := range values {
		lo, hi = min(lo, rank(v)), max(hi, rank(v))
		fewest = min(fewest, notThrough[i])
	}
	if lo == hi {
		return out
	}
	best, found := absent, false
	for i, v := range values {
		if notThrough[i] == fewest && v.OK {
			best, found = min(best, rank(v)), true
		}
	}
	for i, v := range values {
		switch r := rank(v); {
		case r == hi:
			out[i] = Worst
		case found && r == best && notThrough[i] == fewest && !v.Disaster:
			out[i] = Best
		}
	}
	return out
}

// A Judgement is B's value of a figure against A's.
type Judgement int

const (
	Same     Judgement = iota // the same value, or absent on both sides
	Better                    // B is better
	Worse                     // B is worse
	Neither                   // a figure that is neither better higher nor lower; or clients not through whose counts differ at the same share
	ByLosing                  // the side that does better leaves more of its clients not through
)

// Lost is a side's clients not through, of all its clients and of the
// clients the outage touched (clients_touched).
type Lost struct{ NotThrough, Clients, Touched int }

// LostOf is a run's clients not through, of its clients and of those
// touched.
func LostOf(f backoff.Figures) Lost {
	return Lost{NotThrough: f.NotThrough, Clients: f.Clients, Touched: Touched(f)}
}

// more reports whether l leaves more of its clients not through than m.
// Two sides with as many clients (the same crowd and fresh load) meet the
// same clients, so their counts compare them exactly; a share of the
// clients touched would credit a side for trouble that lasts longer, which
// touches more clients, most of them late ones that get through. Sides
// with different clients compare as shares of the clients the outage
// touched, which a longer load window cannot dilute: A 10 of 100 touched
// leaves fewer than B 50 of 200, 10% against 25%.
func (l Lost) more(m Lost) bool {
	if l.Clients == m.Clients {
		return l.NotThrough > m.NotThrough
	}
	return int64(l.NotThrough)*int64(max(m.Touched, 1)) > int64(m.NotThrough)*int64(max(l.Touched, 1))
}

// Judge is B's value b of a figure against A's a (-1 where an Optional
// figure does not exist), by its direction: lower or higher is better.
// The clients not through, and through, are what the rule weighs: they are
// judged by Lost.more, by count where the sides ran as many clients, else
// by share of the clients touched (through is the rest of them), so that
// B's 150 through of 200 is worse than A's 90 of 100. Every other figure
// that the side doing better on it owes to leaving more of its clients not
// through is not judged (ByLosing): that side does better by losing
// clients.
func Judge(ff backoff.FigureField, a, b int, lostA, lostB Lost) Judgement {
	absentA, absentB := ff.Optional && a < 0, ff.Optional && b < 0
	var j Judgement
	switch {
	case absentA && absentB, !absentA && !absentB && a == b:
		return Same
	case ff.Better == backoff.Neither:
		return Neither
	case ff.Name == "not_through" || ff.Name == "through":
		switch {
		case lostA.more(lostB):
			return Better
		case lostB.more(lostA):
			return Worse
		}
		return Neither
	case absentA:
		j = Better // some got through in B, none in A: every time of B's is earlier
	case absentB:
		j = Worse
	case (b < a) == (ff.Better == backoff.Lower):
		j = Better
	default:
		j = Worse
	}
	if WonByLosing(j == Better, lostA, lostB) {
		return ByLosing
	}
	return j
}

// WonByLosing reports whether the side that does better on a figure, B if
// bBetter else A, leaves more of its clients not through than the other
// (Lost.more).
func WonByLosing(bBetter bool, lostA, lostB Lost) bool {
	if bBetter {
		return lostB.more(lostA)
	}
	return lostA.more(lostB)
}
