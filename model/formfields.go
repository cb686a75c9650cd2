package model

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/retryplanner/retry-planner/backoff"
	"github.com/retryplanner/retry-planner/views/pane"
	"github.com/retryplanner/retry-planner/views/words"
)

// formText is one text field of the settings form: what it opens with, how
// it reads what is typed (as the flags do: backoff.ParseTimeUnit, ParseCount,
// ParseThousandths, ParseJitter, ParseBudget) and checks it against the
// wide ranges, and the range its title gives.
type formText struct {
	name  string                            // the field's key and the start of its title
	group int                               // the form's page, from 0
	get   func(p Plan) string               // the value it opens with, as the form takes it back
	set   func(p *Plan, typed string) error // reads typed into p, checked against p so far
	rng   func(s backoff.Settings) string   // the range its title gives
	field backoff.Field                     // the setting it is, or -1
	// desc, if set, is what the field says under its title, from the
	// settings the form holds so far.
	desc  func(s backoff.Settings) string
	runes int // the most it holds; 0 for fieldLimit
}

// limit is the most runes the field holds.
func (t formText) limit() int {
	if t.runes > 0 {
		return t.runes
	}
	return fieldLimit
}

// breakerField is the key of the breaker's field.
const breakerField = "breaker"

// policiesField is the key of the field of the policies compared.
const policiesField = "policies compared"

// formTexts are the form's text fields in order: the crowd (the
// reference's six, then the slot) on the first page, the service on the
// second, the policy of one's own (its own first wait, longest wait and
// attempts, its multiplier and jitter, its own limit on total time) and the
// spread on the third (with the selects SettingsPane.build puts between
// them, the growth's before the multiplier). The first page's waits are the
// five's, which custom follows where its own are empty.
func formTexts() []formText {
	var out []formText
	for _, f := range []backoff.Field{backoff.FirstWait, backoff.LongestWait, backoff.Attempts, backoff.Clients, backoff.Outage, backoff.Seed, backoff.Slot} {
		out = append(out, settingText(f, 0))
	}
	for _, f := range []backoff.Field{backoff.Capacity, backoff.Load, backoff.LoadUntil} {
		out = append(out, settingText(f, 1))
	}
	out = append(out, formText{name: "budget", group: 1, field: -1,
		get: func(p Plan) string { return p.Settings.Budget.String() },
		set: func(p *Plan, typed string) error {
			b, err := backoff.ParseBudget(typed)
			if err != nil {
				return errors.New("Type " + backoff.BudgetList + ".")
			}
			p.Settings.Budget = b
			return nil
		},
		rng: func(backoff.Settings) string { return "none, grpc:MAX:RATIO or aws:QUOTA:COST" }, desc: budgetDescription})
	out = append(out, settingText(backoff.Processes, 1), queueText(), timeoutText())
	out = append(out, settingText(backoff.OutageHang, 1), formText{name: breakerField, group: 1, field: -1,
		get: func(p Plan) string { return p.Settings.Breaker.String() },
		set: func(p *Plan, typed string) error {
			if readings := backoff.BreakerReadings(typed); len(readings) > 0 {
				return errors.New("The time it stays open needs a unit: " + words.Or(readings) + "?")
			}
			b, err := backoff.ParseBreaker(typed)
			if err != nil {
				return errors.New("Type none, F:D (F failures in a row, 1 to 1,000; D open, 1 ms to 1 h: 5:30s) or " + backoff.BreakerPresetValues() + ".")
			}
			p.Settings.Breaker = b
			return nil
		},
		rng: func(backoff.Settings) string { return "none, F:D, " + backoff.BreakerPresetNames() }}, settingText(backoff.RetryAfter, 1))
	out = append(out, ownText(backoff.CustomFirstWait), ownText(backoff.CustomLongestWait), ownText(backoff.CustomAttempts))
	out = append(out, multiplierText(), formText{name: "jitter", group: 2, field: -1,
		get: func(p Plan) string { return p.Settings.Jitter.String() },
		set: func(p *Plan, typed string) error {
			j, err := backoff.ParseJitter(typed)
			if err != nil {
				return errors.New("Type " + backoff.JitterList + ".")
			}
			p.Settings.Jitter = j
			return nil
		},
		rng: func(backoff.Settings) string { return "none, full, equal, decorrelated, spread:F or up:F" }})
	out = append(out, ownText(backoff.CustomMaxElapsed), formText{name: policiesField, group: 2, field: -1, runes: policiesLimit,
		get: func(p Plan) string { return strings.Join(p.PolicyNames(), ",") },
		set: func(p *Plan, typed string) error {
			names, err := parsePolicies(p.Settings, typed)
			if err != nil {
				return err
			}
			p.Policies = names
			return nil
		},
		rng: func(backoff.Settings) string {
			return "by name, commas between: the five, custom, " + backoff.PresetNames() + "; empty for the five and custom"
		}})
	out = append(out, formText{name: "the spread's seeds", group: 2, field: -1,
		get: func(p Plan) string { return strconv.Itoa(p.Seeds) },
		set: func(p *Plan, typed string) error {
			n, ok := backoff.ParseCount(typed)
			if !ok || n > backoff.MaxSeeds {
				return fmt.Errorf("Type a whole number from 0 (none) to %s.", words.Count(backoff.MaxSeeds))
			}
			p.Seeds = n
			return nil
		},
		rng: func(backoff.Settings) string { return "0 for none to " + words.Count(backoff.MaxSeeds) }})
	return out
}

// settingText is the text field of a whole-number setting.
func settingText(f backoff.Field, group int) formText {
	return formText{name: pane.FieldName(f), group: group, field: f,
		get: func(p Plan) string { return typedValue(p.Settings, f) },
		set: func(p *Plan, typed string) error {
			v, ok := readSetting(f, typed)
			if readings := backoff.TimeReadings(typed); !ok && f.IsTime() && len(readings) > 0 {
				return errors.New("A time needs a unit: " + words.Or(readings) + "?")
			}
			if !ok || p.Settings.CheckIn(backoff.WideLimits, f, v) != nil {
				return errors.New(rangeError(p.Settings, f))
			}
			p.Settings.Set(f, v)
			return nil
		},
		rng: func(s backoff.Settings) string { return rangeText(s, f) }}
}

// multiplierText is the multiplier's field: a setting as the others, whose
// title says it is ignored while the growth chosen above it is linear.
func multiplierText() formText {
	t := settingText(backoff.Multiplier, 2)
	t.rng = func(s backoff.Settings) string {
		r := rangeText(s, backoff.Multiplier)
		if s.Growth == backoff.GrowthLinear {
			r += "; ignored: the growth is linear"
		}
		return r
	}
	return t
}

// ownText is the field of one of the custom policy's own waits: a setting
// as the others, or empty to follow the five's (backoff.Follow).
func ownText(f backoff.Field) formText {
	t := settingText(f, 2)
	t.rng = func(s backoff.Settings) string { return rangeText(s, f) + followsNote }
	t.get = func(p Plan) string {
		if p.Settings.Get(f) == backoff.Follow {
			return ""
		}
		return typedValue(p.Settings, f)
	}
	set := t.set
	t.set = func(p *Plan, typed string) error {
		if strings.TrimSpace(typed) != "" {
			return set(p, typed)
		}
		q := p.Settings
		q.Set(f, backoff.Follow)
		if q.CheckIn(backoff.WideLimits, f, backoff.Follow) != nil {
			// Custom's longest wait would follow the five's, below its own first.
			return fmt.Errorf("The five's longest wait, %s, is shorter than your own first wait: type your own longest wait, from %s.",
				words.Human(q.LongestWait), rangeText(q, f))
		}
		p.Settings = q
		return nil
	}
	return t
}

// queueText is the queue's field: a whole number as the others, and a
// queue needs the capacity above it.
func queueText() formText {
	t := settingText(backoff.Queue, 1)
	set := t.set
	t.set = func(p *Plan, typed string) error {
		q := *p // a field that refuses leaves the plan as it was
		if err := set(&q, typed); err != nil {
			return err
		}
		if q.Settings.Queue > 0 && q.Settings.Capacity <= 0 {
			return errors.New("A queue needs a capacity to serve it: set the capacity above, or 0 for no queue.")
		}
		*p = q
		return nil
	}
	return t
}

// timeoutText is the client's timeout: a time as the others, and a
// timeout needs the queue above it.
func timeoutText() formText {
	t := settingText(backoff.Timeout, 1)
	set := t.set
	t.set = func(p *Plan, typed string) error {
		q := *p
		if err := set(&q, typed); err != nil {
			return err
		}
		if q.Settings.Timeout > 0 && !q.Settings.HasQueue() {
			return errors.New("A timeout needs a queue to wait in: set the queue above, or 0 for none.")
		}
		*p = q
		return nil
	}
	return t
}

// readSetting reads a setting as the flags do: a time as backoff.ParseTimeUnit,
// a number as ParseCount, the multiplier as ParseThousandths ("1.6", or
// "x1.6"), and the load's end also as "default".
func readSetting(f backoff.Field, typed string) (int, bool) {
	switch {
	case f == backoff.LoadUntil && (typed == "" || strings.EqualFold(typed, "default")):
		return backoff.DefaultLoadUntil, true
	case f == backoff.Multiplier:
		return backoff.ParseThousandths(strings.TrimPrefix(typed, "x"))
	case f.IsTime():
		return backoff.ParseTimeUnit(typed)
	case f == backoff.Processes:
		return backoff.ParseProcesses(typed)
	}
	return backoff.ParseCount(typed)
}

// typedValue is a setting as the form takes it back: as the flags write
// it (backoff.FormatValue: "1.5s", "1.6", "clients"), the load's default
// end as "default".
func typedValue(s backoff.Settings, f backoff.Field) string {
	v := s.Get(f)
	if f == backoff.LoadUntil && v == backoff.DefaultLoadUntil {
		return "default"
	}
	return backoff.FormatValue(f, v)
}

// rangeText is a setting's wide range in the units people read.
func rangeText(s backoff.Settings, f backoff.Field) string {
	low, high := s.RangeIn(backoff.WideLimits, f)
	show := words.Count
	if f.IsTime() {
		show = words.Human
	}
	if f == backoff.Multiplier {
		show = func(v int) string { return backoff.FormatThousandths(v) }
	}
	out := show(low) + " to " + show(high)
	switch f {
	case backoff.Capacity:
		out = "0 for no limit to " + show(high) + " a second"
	case backoff.Load:
		out += " a second"
	case backoff.MaxElapsed, backoff.CustomMaxElapsed:
		out = "0 for none to " + show(high)
	case backoff.LoadUntil:
		out += ", or default"
	case backoff.Queue:
		out = "0 for none to " + show(high) + " requests; needs a capacity"
	case backoff.Timeout:
		out = "0 for none to " + show(high) + "; needs a queue"
	case backoff.OutageHang:
		out = "0 for none to " + show(high) + "; while down"
	case backoff.RetryAfter:
		out = "0 for none to " + show(high) + "; after a rejection"
	case backoff.Processes:
		out += ", or clients for one each"
	}
	return out
}

// followsNote follows the range of one of custom's own waits, which an
// empty field leaves to the five's.
const followsNote = "; empty: the five's"

// rangeError is what a field says of a value it cannot take.
func rangeError(s backoff.Settings, f backoff.Field) string {
	r := rangeText(s, f)
	or := ""
	if _, own := f.Follows(); own {
		or = ", or nothing for the five's"
	}
	switch {
	case f == backoff.Multiplier:
		return "Type a multiplier from " + r + ", with at most three decimals, such as 1.6."
	case f.IsTime():
		return "Type a time from " + r + ", such as 1s, 1.5s or 1m30s" + or + "."
	}
	return "Type a whole number from " + r + or + "."
}

// fieldTitle is a text field's title: its name and its range.
func fieldTitle(t formText, s backoff.Settings) string {
	return t.name + " (" + t.rng(s) + ")"
}

// budgetDescription says, beside the budget, whose tokens a bucket holds
// here and what an outage does to it, with the libraries' typical values.
func budgetDescription(s backoff.Settings) string {
	clients := s.Clients + s.FreshRequests()
	return "A bucket's tokens are shared by the clients of one process (processes, below), the fresh requests included: here " +
		words.SharedBucket(s, clients) + ". A total outage empties a bucket: every attempt fails, so retries soon stop " +
		"(grpc:10:0.1 refuses from the 5th failure, aws:500:5 after 100 retries). Typical: grpc:10:0.1, gRPC's example; aws:500:5, the AWS SDKs' standard."
}
