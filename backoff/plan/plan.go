package plan

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/retryplanner/retry-planner/backoff"
	"github.com/retryplanner/retry-planner/backoff/advice"
)

// A plan is every input of a run in a TOML file a person can read and edit:
// the settings, the policies compared, the service they meet and the seeds.
// Encode writes one with a comment above every key (what it is, its unit,
// its range, its default); Decode reads one strictly, refusing with one
// line that names the file, the line and the rule.
//
// The file's layout, the tables in this order (every key may be left out):
//
//	note, policies               top level: a note of one's own; the policies compared
//	[policy]                     first_wait_ms, longest_wait_ms, attempts, max_elapsed_ms: the five's
//	[custom]                     first_wait_ms, longest_wait_ms, attempts, max_elapsed_ms (each
//	                             left out: [policy]'s), growth, multiplier, jitter: the policy of one's own
//	[crowd]                      clients, outage_ms, seed, slot_ms, draws
//	[service]                    capacity_per_second, load_per_second, load_until_ms, budget, processes,
//	                             queue, timeout_ms, drop_expired, queue_order
//	[guards]                     outage_hang_ms, breaker, retry_after_ms: the client's guards
//	[spread]                     seeds, draws: the crowd over many seeds
//	[goals]                      what advise searches for, written only when there is one

// Plan is everything a run needs.
type Plan struct {
	// Settings are every setting: the five's waits, the custom policy's
	// own (those it has), growth, multiplier and jitter, the crowd, its
	// draws and seed, the service and its budget.
	Settings backoff.Settings
	// Policies are the names of the policies compared, as
	// backoff.LookupPolicy takes them ("full jitter", "grpc", "custom"), in
	// order; none: the reference's five.
	Policies []string
	// Seeds is how many seeds the crowd over many seeds runs, from
	// Settings.Seed on: 0 for none, else 1 to backoff.MaxSeeds.
	Seeds int
	// SeedDraws are the draws of the crowd over many seeds: Independent
	// unless a person chooses Reference, whose draws fall on a lattice and
	// make seeds look more alike than they are.
	SeedDraws backoff.Draws
	// Note is a person's own words about the plan, kept with it.
	Note string
	// Goals are what advise searches for; none by default.
	Goals advice.Goals
}

// Default is the plan of a file that sets nothing, and of every face but
// --plain: the reference's settings and five policies with independent
// draws, no crowd over many seeds (independent draws when there is one).
// The reference's draws understate the busiest slot and cut long waits
// short, so a planner does not start from them; --draws reference, a
// plan's draws = "reference" or d in the full-screen program choose them,
// and --plain always has them (issue 19 item 7).
func Default() Plan {
	return Plan{Settings: DefaultSettings(), SeedDraws: backoff.Independent}
}

// DefaultSettings are the settings every face but --plain starts from:
// backoff.Defaults, the reference's, with independent draws.
func DefaultSettings() backoff.Settings {
	s := backoff.Defaults()
	s.Draws = backoff.Independent
	return s
}

// Equal reports whether p and q are the same plan; no policies and an empty
// list of them are the same.
func (p Plan) Equal(q Plan) bool {
	return p.Settings == q.Settings && slices.Equal(p.Policies, q.Policies) && p.Seeds == q.Seeds &&
		p.SeedDraws == q.SeedDraws && p.Note == q.Note && p.Goals.Same(q.Goals)
}

// PolicyList is the policies the plan compares, in its order: the five when
// it names none.
func (p Plan) PolicyList() ([]backoff.Policy, error) {
	if len(p.Policies) == 0 {
		return p.Settings.Five(), nil
	}
	out := make([]backoff.Policy, 0, len(p.Policies))
	for _, name := range p.Policies {
		pol, err := backoff.LookupPolicy(p.Settings, name)
		if err != nil {
			return nil, err
		}
		out = append(out, pol)
	}
	return out, nil
}

// MaxBytes is the largest plan Decode reads: a plan is a page of
// settings, and the full-screen program reads one while a person waits.
const MaxBytes = 1 << 20

// Error is a plan that cannot be used: the file, the line (from 1) and
// what is wrong, in one line. The command line prints it and exits 2.
type Error struct {
	File string
	Line int
	Msg  string // "policy.attempts = 500: want a whole number from 2 to 100"
}

func (e *Error) Error() string { return fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.Msg) }

// planKey is one key of a plan file.
type planKey struct {
	table, name string
	doc         string // what the key is, above it; the range and default follow
	// value is the key's value in p as Encode writes it; "" leaves the
	// key commented out, at its default.
	value func(p Plan) string
	// read sets the key in p from v, a value as the TOML decoder gives it;
	// it reports the type v has when that is not one the key takes, and
	// whether v is a value the key takes.
	read func(p *Plan, v any) (wrongType string, ok bool)
	// rule is what the key takes, after "want": "a whole number from 2 to
	// 100". A key whose read fails on its own gives custom instead.
	rule func(p Plan) string
	// check is a problem with the key's value once the whole plan is read,
	// or "".
	check func(p Plan) string
	// blame is the key an out-of-range value is laid on when this key is not
	// in the file: the one that moved its range.
	blame string
	// custom, set by read, is a message of its own for a value read refused.
	custom func(p Plan, v any) string
}

func (k planKey) path() string {
	if k.table == "" {
		return k.name
	}
	return k.table + "." + k.name
}

// planTables are the tables in the order a plan writes them, each with the
// comment above it.
var planTables = []struct{ name, doc string }{
	{"policy", "The waits of the five policies, and of the custom one where [custom] has none\n" +
		"of its own; the presets (grpc, aws, cenkalti, retryablehttp, client-go, envoy,\n" +
		"polly) keep their own."},
	{"custom", "The policy of your own, \"custom\" in policies: its own first wait, longest\n" +
		"wait, attempts and limit (each left out: [policy]'s), and how its waits grow\n" +
		"and are drawn. --preset fills them all."},
	{"crowd", "The crowd: clients that all fail at 0 ms, when the outage starts, and retry."},
	{"service", "The service once it is back, the fresh load on it, and its queue."},
	{"guards", "The client's guards, and outages that hang: each off by default, and off it\n" +
		"changes nothing."},
	{"spread", "The crowd over many seeds: each figure's median, 95th percentile and worst\n" +
		"over the seeds from [crowd] seed on."},
	goalsTable,
}

// planKeys are every key of a plan, in the order Encode writes them.
func planKeys() []planKey {
	wide := backoff.WideLimits
	longest := planTimeKey("policy", "longest_wait_ms", backoff.LongestWait, "No base wait is longer (spread and up jitter may draw past it).", "")
	longest.blame = "policy.first_wait_ms"
	customLongest := customKey(backoff.CustomLongestWait, "longest_wait_ms", "Your own policy's longest base wait (spread and up jitter may draw past it).")
	customLongest.blame = "custom.first_wait_ms"
	load := planCountKey("service", "load_per_second", backoff.Load, "Fresh requests a second, from 0 ms until load_until_ms; each is a client of\nits own with the same policy.", "none")
	load.check = func(p Plan) string {
		if msg := planFieldCheck(p, backoff.Load); msg != "" {
			return msg
		}
		if n := p.Settings.FreshRequests(); n > backoff.MaxFreshRequests {
			return fmt.Sprintf("a load of %d a second until %d ms is %d fresh requests, more than %d", p.Settings.Load, p.Settings.LoadEnd(), n, backoff.MaxFreshRequests)
		}
		return ""
	}
	until := planTimeKey("service", "load_until_ms", backoff.LoadUntil, "When the fresh load stops.", "")
	untilRead := until.read
	until.read = func(p *Plan, v any) (string, bool) {
		wrong, ok := untilRead(p, v)
		if p.Settings.LoadUntil == backoff.DefaultLoadUntil {
			// Settings take -1 for the outage + 60 s; a file leaves the key
			// out instead, and its range starts at 0.
			p.Settings.LoadUntil = math.MinInt
		}
		return wrong, ok
	}
	until.value = func(p Plan) string {
		if p.Settings.LoadUntil == backoff.DefaultLoadUntil {
			return ""
		}
		return strconv.Itoa(p.Settings.LoadUntil)
	}
	queue := planCountKey("service", "queue", backoff.Queue, "The most requests waiting for the service once it is back: each attempt joins\n"+
		"the queue while it has room, else it is rejected, and the service completes\n"+
		"capacity_per_second of them a second, which it needs. 0 is no queue: each\n"+
		"attempt is served or rejected as it arrives.", "no queue")
	queue.check = func(p Plan) string {
		if msg := planFieldCheck(p, backoff.Queue); msg != "" {
			return msg
		}
		if p.Settings.HasQueue() && p.Settings.Capacity <= 0 {
			return "a queue needs a capacity to serve it: set capacity_per_second, or queue = 0"
		}
		return ""
	}
	timeout := planTimeKey("service", "timeout_ms", backoff.Timeout, "With a queue: how long a client waits for its answer; then it fails and may\n"+
		"retry, while its request stays in the queue, expired.", "waits for ever")
	timeout.check = func(p Plan) string {
		if msg := planFieldCheck(p, backoff.Timeout); msg != "" {
			return msg
		}
		if p.Settings.Timeout > 0 && !p.Settings.HasQueue() {
			return "a timeout needs a queue to wait in: set queue, or timeout_ms = 0"
		}
		return ""
	}
	return append([]planKey{
		{name: "note", doc: "A note of your own: what the plan is for. Any text; none by default.",
			value: func(p Plan) string {
				if p.Note == "" {
					return ""
				}
				return tomlString(p.Note)
			},
			read: func(p *Plan, v any) (string, bool) {
				s, ok := v.(string)
				if !ok {
					return tomlTypeName(v), false
				}
				p.Note = s
				return "", true
			},
			rule: func(Plan) string { return "a string of text" }},
		{name: "policies", doc: "The policies to compare, by name, in this order: fixed, exponential,\n" +
			"full jitter, equal jitter, decorrelated; custom, the policy of [custom]; or a\n" +
			"preset: grpc, aws, cenkalti, retryablehttp, client-go, envoy, polly. Case does\n" +
			"not matter, and - or _ may stand for a space. By default the five, fixed to\n" +
			"decorrelated.",
			value: func(p Plan) string {
				if len(p.Policies) == 0 {
					return ""
				}
				quoted := make([]string, len(p.Policies))
				for i, n := range p.Policies {
					quoted[i] = tomlString(n)
				}
				return "[" + strings.Join(quoted, ", ") + "]"
			},
			read: readPolicies,
			rule: func(Plan) string { return `a list of policy names, such as ["fixed", "full jitter"]` },
			custom: func(p Plan, v any) string {
				return policiesProblem(p.Settings, v)
			}},
		planTimeKey("policy", "first_wait_ms", backoff.FirstWait, "The wait before the first retry.", ""),
		longest,
		planCountKey("policy", "attempts", backoff.Attempts, "Tries per client, the first included.", ""),
		planTimeKey("policy", "max_elapsed_ms", backoff.MaxElapsed, "The longest a client keeps trying, from its first attempt: a retry that would\ncome later is not made, and the client stops, out of time.", "no limit"),
		customKey(backoff.CustomFirstWait, "first_wait_ms", "Your own policy's wait before its first retry."),
		customLongest,
		customKey(backoff.CustomAttempts, "attempts", "Your own policy's tries per client, the first included."),
		customKey(backoff.CustomMaxElapsed, "max_elapsed_ms", "Your own policy's limit on total time; 0 is no limit."),
		{table: "custom", name: "growth", doc: "How each base wait grows from the one before it, up to the longest wait:\n" +
			"\"exponential\" (times the multiplier) or \"linear\" (plus the first wait: the\n" +
			"k-th base wait is k times the first, as Polly's linear delay and\n" +
			"go-retryablehttp's LinearJitterBackoff grow). Default \"exponential\".",
			value: func(p Plan) string { return tomlString(p.Settings.Growth.String()) },
			read: planTextReader(func(p *Plan, s string) bool {
				g, err := backoff.ParseGrowth(s)
				p.Settings.Growth = g
				return err == nil
			}),
			rule: func(Plan) string { return `"exponential" or "linear"` }},
		{table: "custom", name: "multiplier", doc: "Each base wait is the one before it times this, up to the longest wait;\n" +
			"linear growth ignores it. From 1.0 to 10.0, with at most three decimals;\n" +
			"default 2.0 (doubling).",
			value: func(p Plan) string { return planDecimal(p.Settings.Multiplier) },
			read: func(p *Plan, v any) (string, bool) {
				m, wrong, ok := readTOMLThousandths(v)
				p.Settings.Multiplier = m
				return wrong, ok
			},
			rule: func(Plan) string { return "a decimal from 1.0 to 10.0 with at most three decimals" },
			check: func(p Plan) string {
				if p.Settings.CheckIn(wide, backoff.Multiplier, p.Settings.Multiplier) != nil {
					return "want a decimal from 1.0 to 10.0 with at most three decimals"
				}
				return ""
			}},
		{table: "custom", name: "jitter", doc: "How each wait is drawn around its base wait d: \"none\" (d), \"full\" (0 to d),\n" +
			"\"equal\" (d/2 to d), \"decorrelated\" (the first wait to 3 times the wait\n" +
			"before, at most the longest), \"spread:F\" (d - F*d to d + F*d) or \"up:F\"\n" +
			"(d to d + F*d), with F from 0.001 to 1. Default \"none\".",
			value: func(p Plan) string { return tomlString(p.Settings.Jitter.String()) },
			read: planTextReader(func(p *Plan, s string) bool {
				j, err := backoff.ParseJitter(s)
				p.Settings.Jitter = j
				return err == nil
			}),
			rule: func(Plan) string { return backoff.JitterList }},
		planCountKey("crowd", "clients", backoff.Clients, "How many clients fail together at 0 ms.", ""),
		planTimeKey("crowd", "outage_ms", backoff.Outage, "The service is down until then: every attempt before it fails.", ""),
		planCountKey("crowd", "seed", backoff.Seed, "Seeds every client's random draws.", ""),
		planTimeKey("crowd", "slot_ms", backoff.Slot, "The crowd's attempts are counted per slot this wide: the busiest slot, the\n"+
			"peak after the outage, each slot's share of the capacity, a timeline's bars.", ""),
		planDrawsKey("crowd", "Where the random draws come from: \"reference\", the original program's\n"+
			"generator (a draw never passes its low end + 65535, and clients' draws fall\n"+
			"on a lattice), or \"independent\", math/rand/v2's PCG. Default \"independent\".",
			func(p *Plan) *backoff.Draws { return &p.Settings.Draws }),
		planCountKey("service", "capacity_per_second", backoff.Capacity, "Requests a second it serves from the outage's end on; each slot serves its\n"+
			"share and rejects the rest (with a queue, each millisecond its share of the\n"+
			"queue).", "no limit"),
		load,
		until,
		{table: "service", name: "budget", doc: "What limits retries, in each process: \"none\"; \"grpc:MAX:RATIO\", gRPC's\n" +
			"retry throttling (MAX 1 to 1000 tokens, RATIO 0.001 to 1); or\n" +
			"\"aws:QUOTA:COST\", the AWS SDKs' retry quota (1 to 1000000 tokens each;\n" +
			"standard mode is \"aws:500:5\"). Default \"none\".",
			value: func(p Plan) string { return tomlString(p.Settings.Budget.String()) },
			read: planTextReader(func(p *Plan, s string) bool {
				b, err := backoff.ParseBudget(s)
				p.Settings.Budget = b
				return err == nil
			}),
			rule: func(Plan) string { return backoff.BudgetList }},
		processesKey(),
		queue,
		timeout,
		{table: "service", name: "drop_expired", doc: "With a queue: the service drops a request whose client has timed out, using\n" +
			"no capacity, instead of working on it for nothing (wasted). Default false.",
			value: func(p Plan) string { return strconv.FormatBool(p.Settings.DropExpired) },
			read: func(p *Plan, v any) (string, bool) {
				b, ok := v.(bool)
				if !ok {
					return tomlTypeName(v), false
				}
				p.Settings.DropExpired = b
				return "", true
			},
			rule: func(Plan) string { return "true or false" },
			check: func(p Plan) string {
				if p.Settings.DropExpired && !p.Settings.HasQueue() {
					return "only a queue holds expired requests: set queue, or drop_expired = false"
				}
				return ""
			}},
		{table: "service", name: "queue_order", doc: "With a queue: which waiting request the service takes next, \"fifo\" (the\n" +
			"oldest) or \"lifo\" (the newest, as adaptive LIFO does). Default \"fifo\".",
			value: func(p Plan) string { return tomlString(p.Settings.QueueOrder.String()) },
			read: planTextReader(func(p *Plan, s string) bool {
				o, err := backoff.ParseQueueOrder(s)
				p.Settings.QueueOrder = o
				return err == nil
			}),
			rule: func(Plan) string { return `"fifo" or "lifo"` },
			check: func(p Plan) string {
				if p.Settings.QueueOrder == backoff.LIFO && !p.Settings.HasQueue() {
					return `lifo takes the newest request from a queue: set queue, or queue_order = "fifo"`
				}
				return ""
			}},
		planTimeKey("guards", "outage_hang_ms", backoff.OutageHang, "While the service is down, an attempt hangs this long, then fails (a\n"+
			"partition, and the client's connect timeout); the crowd's first attempts\n"+
			"too. 0: the outage refuses each attempt at once.", "fails at once"),
		{table: "guards", name: "breaker", doc: "A circuit breaker in each process: \"F:D\" opens after F failures in a row\n" +
			"(1 to 1000) and fails every attempt at once, short-circuited, for D (a\n" +
			"duration, 1 ms to 1 h), then lets one probe through; or a library's:\n" +
			backoff.BreakerPresetValues() + ". Default \"none\".",
			value: func(p Plan) string { return tomlString(p.Settings.Breaker.String()) },
			read: planTextReader(func(p *Plan, s string) bool {
				b, err := backoff.ParseBreaker(s)
				p.Settings.Breaker = b
				return err == nil
			}),
			rule: func(Plan) string { return backoff.BreakerList + backoff.BreakerPresetNames() }},
		planTimeKey("guards", "retry_after_ms", backoff.RetryAfter, "A rejected attempt's client comes back this long after it instead of its own\n"+
			"wait (HTTP's Retry-After, gRPC's pushback). 0: no pushback.", "no pushback"),
		{table: "spread", name: "seeds", doc: "How many seeds, from the crowd's seed on.\n" +
			"From 0 (none) to " + strconv.Itoa(backoff.MaxSeeds) + "; default 0, none.",
			value: func(p Plan) string { return strconv.Itoa(p.Seeds) },
			read: func(p *Plan, v any) (string, bool) {
				n, wrong, ok := readTOMLInt(v)
				p.Seeds = n
				return wrong, ok
			},
			rule: func(Plan) string { return fmt.Sprintf("a whole number from 0 (none) to %d", backoff.MaxSeeds) },
			check: func(p Plan) string {
				if p.Seeds < 0 || p.Seeds > backoff.MaxSeeds {
					return "want a whole number from 0 (none) to " + strconv.Itoa(backoff.MaxSeeds)
				}
				return ""
			}},
		planDrawsKey("spread", "The draws of the crowd over many seeds: \"independent\", or \"reference\",\n"+
			"whose lattice makes the seeds look more alike than they are. Default\n"+
			"\"independent\".",
			func(p *Plan) *backoff.Draws { return &p.SeedDraws }),
	}, goalKeys()...)
}

// customKey is a key of the custom policy's own field f: a time or a
// count as [policy]'s, which it takes when left out (backoff.Follow). A
// file cannot write Follow: -1 is refused as out of range.
func customKey(f backoff.Field, name, doc string) planKey {
	shared, _ := f.Follows()
	k := planCountKey("custom", name, f, doc, "")
	if shared.IsTime() {
		k = planTimeKey("custom", name, f, doc, "")
	}
	k.doc = doc + "\n" + customRangeDoc(f, name)
	read := k.read
	k.read = func(p *Plan, v any) (string, bool) {
		wrong, ok := read(p, v)
		if p.Settings.Get(f) == backoff.Follow {
			p.Settings.Set(f, math.MinInt)
		}
		return wrong, ok
	}
	k.value = func(p Plan) string {
		if v := p.Settings.Get(f); v != backoff.Follow {
			return strconv.Itoa(v)
		}
		return ""
	}
	return k
}

// customRangeDoc is a custom key's range and default, [policy]'s key of
// that name.
func customRangeDoc(f backoff.Field, name string) string {
	low, high := backoff.Defaults().RangeIn(backoff.WideLimits, f)
	unit := ""
	if f.IsTime() {
		unit = " ms"
	}
	from := strconv.Itoa(low)
	switch f {
	case backoff.CustomLongestWait:
		from = "its first wait"
	case backoff.CustomMaxElapsed:
		from = "0 (no limit)"
	}
	return fmt.Sprintf("From %s to %d%s; left out, [policy] %s.", from, high, unit, name)
}

// processesKey is [service] processes: a whole number, or "clients" for a
// process per client (backoff.PerClient), which no number writes: -1 is
// refused as out of range.
func processesKey() planKey {
	k := planCountKey("service", "processes", backoff.Processes, "How many processes the clients are spread over, each with its own budget\n"+
		"(client n is in process (n-1) mod processes), or \"clients\": a process for each\n"+
		"client, the fresh requests included, each with its own budget.", "")
	k.value = func(p Plan) string {
		if p.Settings.Processes == backoff.PerClient {
			return tomlString(backoff.FormatProcesses(backoff.PerClient))
		}
		return strconv.Itoa(p.Settings.Processes)
	}
	k.read = func(p *Plan, v any) (string, bool) {
		if s, isString := v.(string); isString {
			n, ok := backoff.ParseProcesses(s)
			p.Settings.Processes = n
			return "", ok && n == backoff.PerClient
		}
		n, wrong, ok := readTOMLInt(v)
		if n == backoff.PerClient {
			n = math.MinInt
		}
		p.Settings.Processes = n
		return wrong, ok
	}
	k.rule = func(p Plan) string { return planFieldRule(p.Settings, backoff.Processes) + `, or "clients"` }
	k.check = func(p Plan) string {
		if planFieldCheck(p, backoff.Processes) != "" {
			return "want " + k.rule(p)
		}
		return ""
	}
	return k
}

// planCountKey is a key that holds a whole-number setting.
func planCountKey(table, name string, f backoff.Field, doc, zero string) planKey {
	return planKey{table: table, name: name, doc: doc + "\n" + planRangeDoc(f, zero),
		value: func(p Plan) string { return strconv.Itoa(p.Settings.Get(f)) },
		read: func(p *Plan, v any) (string, bool) {
			n, wrong, ok := readTOMLInt(v)
			p.Settings.Set(f, n)
			return wrong, ok
		},
		rule:  func(p Plan) string { return planFieldRule(p.Settings, f) },
		check: func(p Plan) string { return planFieldCheck(p, f) },
	}
}

// planTimeKey is a key that holds a time setting: whole milliseconds, or a
// duration string as backoff.ParseTime reads one.
func planTimeKey(table, name string, f backoff.Field, doc, zero string) planKey {
	k := planCountKey(table, name, f, doc, zero)
	k.read = func(p *Plan, v any) (string, bool) {
		if s, ok := v.(string); ok {
			ms, ok := backoff.ParseTime(s)
			p.Settings.Set(f, ms)
			return "", ok
		}
		n, wrong, ok := readTOMLInt(v)
		p.Settings.Set(f, n)
		return wrong, ok
	}
	k.rule = func(p Plan) string {
		return planFieldRule(p.Settings, f) + `: whole milliseconds, or a duration string such as "1.5s"`
	}
	return k
}

// planDrawsKey is a key that holds draws.
func planDrawsKey(table, doc string, at func(*Plan) *backoff.Draws) planKey {
	return planKey{table: table, name: "draws", doc: doc,
		value: func(p Plan) string { return tomlString(at(&p).String()) },
		read: planTextReader(func(p *Plan, s string) bool {
			d, err := backoff.ParseDraws(s)
			*at(p) = d
			return err == nil
		}),
		rule: func(Plan) string { return `"reference" or "independent"` },
	}
}

// planTextReader reads a string with parse.
func planTextReader(parse func(p *Plan, s string) bool) func(*Plan, any) (string, bool) {
	return func(p *Plan, v any) (string, bool) {
		s, ok := v.(string)
		if !ok {
			return tomlTypeName(v), false
		}
		return "", parse(p, s)
	}
}

// planRangeDoc is a setting's range and default, for the comment above it.
func planRangeDoc(f backoff.Field, zero string) string {
	d := backoff.Defaults()
	low, high := d.RangeIn(backoff.WideLimits, f)
	unit := ""
	if f.IsTime() {
		unit = " ms"
	}
	from := strconv.Itoa(low)
	switch {
	case f == backoff.LongestWait:
		from = "the first wait"
	case low == 0 && zero != "":
		from = "0 (" + zero + ")"
	}
	def := strconv.Itoa(d.Get(f)) + unit
	switch {
	case f == backoff.LoadUntil:
		def = "the outage + 60000 ms"
	case d.Get(f) == 0 && zero != "":
		def = "0, " + zero
	}
	return fmt.Sprintf("From %s to %d%s; default %s.", from, high, unit, def)
}

// planFieldRule is what setting f takes under s: "a whole number from 2 to 100",
// "a time from 1000 ms (the first wait) to 3600000 ms".
func planFieldRule(s backoff.Settings, f backoff.Field) string {
	low, high := s.RangeIn(backoff.WideLimits, f)
	switch {
	case f == backoff.LongestWait:
		return fmt.Sprintf("a time from %d ms (the first wait) to %d ms", low, high)
	case f == backoff.CustomLongestWait:
		return fmt.Sprintf("a time from %d ms (its first wait) to %d ms", low, high)
	case f.IsTime():
		return fmt.Sprintf("a time from %d to %d ms", low, high)
	}
	return fmt.Sprintf("a whole number from %d to %d", low, high)
}

// planFieldCheck is "want <the rule>" when setting f is out of its range.
func planFieldCheck(p Plan, f backoff.Field) string {
	if err := p.Settings.CheckIn(backoff.WideLimits, f, p.Settings.Get(f)); err != nil {
		return "want " + planFieldRule(p.Settings, f)
	}
	return ""
}

// readTOMLInt reads a TOML integer; one beyond int's range comes back clamped,
// so that its range refuses it rather than a wrapped small number passing.
func readTOMLInt(v any) (n int, wrongType string, ok bool) {
	i, isInt := v.(int64)
	if !isInt {
		return 0, tomlTypeName(v), false
	}
	return int(max(min(i, math.MaxInt), math.MinInt)), "", true
}

// readTOMLThousandths reads a decimal with at most three decimals, written as a
// TOML float (1.6) or integer (2), as thousandths. A float is read as Go
// writes it back in its shortest form, so 1.6 is 1600 and 1.0005 is refused.
func readTOMLThousandths(v any) (n int, wrongType string, ok bool) {
	switch x := v.(type) {
	case int64:
		if x < 0 || x > 1e9 {
			return -1, "", false
		}
		return int(x) * 1000, "", true
	case float64:
		n, ok := backoff.ParseThousandths(strconv.FormatFloat(x, 'f', -1, 64))
		return n, "", ok
	}
	return 0, tomlTypeName(v), false
}

// readPolicies reads the list of policy names.
func readPolicies(p *Plan, v any) (string, bool) {
	list, ok := v.([]any)
	if !ok {
		return tomlTypeName(v), false
	}
	names := make([]string, 0, len(list))
	for _, e := range list {
		s, ok := e.(string)
		if !ok {
			return "", false
		}
		names = append(names, s)
	}
	if len(names) == 0 {
		names = nil
	}
	p.Policies = names
	return "", policiesProblem(p.Settings, v) == ""
}

// policiesProblem is what is wrong with a list of policy names, or "".
func policiesProblem(s backoff.Settings, v any) string {
	list, _ := v.([]any)
	seen := map[string]string{}
	for _, e := range list {
		name, ok := e.(string)
		if !ok {
			return fmt.Sprintf("%s is not a name: want the policies' names as strings, such as [\"fixed\", \"full jitter\"]", tomlShow(e))
		}
		if _, err := backoff.LookupPolicy(s, name); err != nil {
			return fmt.Sprintf("%s is not a policy: want %s", tomlString(planCut(name)), backoff.PolicyNames())
		}
		key := policyFlagName(name)
		if first, ok := seen[key]; ok {
			return fmt.Sprintf("%s and %s name the same policy: name each once", tomlString(planCut(first)), tomlString(planCut(name)))
		}
		seen[key] = name
	}
	return ""
}
