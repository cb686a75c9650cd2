package plan

import (
	"strconv"
	"strings"

	"github.com/retryplanner/retry-planner/backoff"
)

// Flags are the command-line flags that make p from the defaults, only
// those whose value differs, in the order the settings are listed; the note
// has none. Times carry their unit, in the shortest form
// (backoff.FormatTime: 45s, 1.5s, 250ms), as the flags take them; policies
// are joined by commas with a hyphen for each space. Each flag is followed
// by its value but --drop-expired, a switch.
func Flags(p Plan) []string {
	var out []string
	flag := func(name, value string) { out = append(out, "--"+name, value) }
	// field is a whole-number setting's flag, with its value as the flag
	// reads it: a time with its unit, the processes a number or clients.
	field := func(f backoff.Field, v int) { flag(f.Flag(), backoff.FormatValue(f, v)) }
	d := Default()
	for _, f := range []backoff.Field{backoff.FirstWait, backoff.LongestWait, backoff.Attempts, backoff.Clients,
		backoff.Outage, backoff.Seed, backoff.Slot} {
		if v := p.Settings.Get(f); v != d.Settings.Get(f) {
			field(f, v)
		}
	}
	s, ds := p.Settings, d.Settings
	// Custom's own waits, those it has (by default it follows the five's).
	for _, f := range []backoff.Field{backoff.CustomFirstWait, backoff.CustomLongestWait, backoff.CustomAttempts} {
		if v := s.Get(f); v != ds.Get(f) {
			field(f, v)
		}
	}
	if s.Growth != ds.Growth {
		flag("growth", s.Growth.String())
	}
	if s.Multiplier != ds.Multiplier {
		field(backoff.Multiplier, s.Multiplier)
	}
	if s.Jitter != ds.Jitter {
		flag("jitter", s.Jitter.String())
	}
	if s.MaxElapsed != ds.MaxElapsed {
		field(backoff.MaxElapsed, s.MaxElapsed)
	}
	if s.CustomMaxElapsed != ds.CustomMaxElapsed {
		field(backoff.CustomMaxElapsed, s.CustomMaxElapsed)
	}
	if s.Draws != ds.Draws {
		flag("draws", s.Draws.String())
	}
	if s.Capacity != ds.Capacity {
		field(backoff.Capacity, s.Capacity)
	}
	if s.Load != ds.Load {
		field(backoff.Load, s.Load)
	}
	if s.LoadUntil != ds.LoadUntil {
		field(backoff.LoadUntil, s.LoadUntil)
	}
	if s.Budget != ds.Budget {
		flag("budget", s.Budget.String())
	}
	if s.Processes != ds.Processes {
		field(backoff.Processes, s.Processes)
	}
	if s.Queue != ds.Queue {
		field(backoff.Queue, s.Queue)
	}
	if s.Timeout != ds.Timeout {
		field(backoff.Timeout, s.Timeout)
	}
	if s.DropExpired != ds.DropExpired {
		out = append(out, "--drop-expired") // a switch: no value
	}
	if s.QueueOrder != ds.QueueOrder {
		flag("queue-order", s.QueueOrder.String())
	}
	if s.OutageHang != ds.OutageHang {
		field(backoff.OutageHang, s.OutageHang)
	}
	if s.Breaker != ds.Breaker {
		flag("breaker", s.Breaker.String())
	}
	if s.RetryAfter != ds.RetryAfter {
		field(backoff.RetryAfter, s.RetryAfter)
	}
	if len(p.Policies) > 0 {
		names := make([]string, len(p.Policies))
		for i, n := range p.Policies {
			names[i] = policyFlagName(n)
		}
		flag("policies", strings.Join(names, ","))
	}
	if p.Seeds != d.Seeds {
		flag("seeds", strconv.Itoa(p.Seeds))
	}
	if p.SeedDraws != d.SeedDraws {
		flag("seed-draws", p.SeedDraws.String())
	}
	for _, g := range p.Goals.List() {
		flag("goal", g.String()) // not-through<=1%: CommandLine quotes it for a shell
	}
	return out
}

// CommandLine is the command line that runs p's crowd: "retry-planner
// crowd" and its Flags (--policies and --seeds belong to the crowd, the
// settings flags to every command). No value holds a space or a shell's
// special character but a goal's, which it quotes ('recovered<=60s').
func CommandLine(p Plan) string {
	words := []string{"retry-planner", "crowd"}
	for _, f := range Flags(p) {
		words = append(words, shellWord(f))
	}
	return strings.Join(words, " ")
}

// shellWord is s as one word of a POSIX shell's command line: as it is
// when it holds only letters, digits and marks no shell gives a meaning
// to, else in single quotes (a quote inside written '\”), as
// views/words.ShellWord writes it.
func shellWord(s string) string {
	if s != "" && !strings.ContainsFunc(s, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("-_./+:,@%=", r))
	}) {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// policyFlagName is a policy's name as a flag writes it, and as
// backoff.LookupPolicy reads it whatever its case and separators: "Full
// jitter" and "full_jitter" are "full-jitter".
func policyFlagName(name string) string {
	return strings.ToLower(strings.NewReplacer(" ", "-", "_", "-").Replace(strings.TrimSpace(name)))
}
