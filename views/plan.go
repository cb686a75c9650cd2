package views

import (
	"errors"
	"fmt"
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/BurntSushi/toml"

	"github.com/retryplanner/retry-planner/backoff"
)

// A plan is every input of a run in a TOML file a person can read and edit:
// the settings, the policies compared, the service they meet and the seeds.
// EncodePlan writes one with a comment above every key (what it is, its unit,
// its range, its default); DecodePlan reads one strictly, refusing with one
// line that names the file, the line and the rule.
//
// The file's layout, the tables in this order (every key may be left out):
//
//	note, policies               top level: a note of one's own; the policies compared
//	[policy]                     first_wait_ms, longest_wait_ms, attempts, max_elapsed_ms
//	[custom]                     multiplier, jitter: the policy of one's own
//	[crowd]                      clients, outage_ms, seed, slot_ms, draws
//	[service]                    capacity_per_second, load_per_second, load_until_ms, budget, processes
//	[spread]                     seeds, draws: the crowd over many seeds

// Plan is everything a run needs.
type Plan struct {
	// Settings are every setting: the shared waits, the custom policy's
	// multiplier, jitter and limit, the crowd, its draws and seed, the
	// service and its budget.
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
}

// DefaultPlan is the plan of a file that sets nothing: the reference's
// settings and five policies, no crowd over many seeds (independent draws
// when there is one).
func DefaultPlan() Plan {
	return Plan{Settings: backoff.Defaults(), SeedDraws: backoff.Independent}
}

// Equal reports whether p and q are the same plan; no policies and an empty
// list of them are the same.
func (p Plan) Equal(q Plan) bool {
	return p.Settings == q.Settings && slices.Equal(p.Policies, q.Policies) && p.Seeds == q.Seeds &&
		p.SeedDraws == q.SeedDraws && p.Note == q.Note
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

// MaxPlanBytes is the largest plan DecodePlan reads: a plan is a page of
// settings, and the full-screen program reads one while a person waits.
const MaxPlanBytes = 1 << 20

// PlanError is a plan that cannot be used: the file, the line (from 1) and
// what is wrong, in one line. The command line prints it and exits 2.
type PlanError struct {
	File string
	Line int
	Msg  string // "policy.attempts = 500: want a whole number from 2 to 100"
}

func (e *PlanError) Error() string { return fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.Msg) }

// planKey is one key of a plan file.
type planKey struct {
	table, name string
	doc         string // what the key is, above it; the range and default follow
	// value is the key's value in p as EncodePlan writes it; "" leaves the
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
	{"policy", "The waits of the five policies and of the custom one; the presets (grpc, aws,\n" +
		"cenkalti, retryablehttp, client-go, envoy, polly) keep their own."},
	{"custom", "The policy of your own, \"custom\" in policies: the waits of [policy], each\n" +
		"drawn with this multiplier and jitter."},
	{"crowd", "The crowd: clients that all fail at 0 ms, when the outage starts, and retry."},
	{"service", "The service once it is back, and the fresh load on it."},
	{"spread", "The crowd over many seeds: each figure's median, 95th percentile and worst\n" +
		"over the seeds from [crowd] seed on."},
}

// planKeys are every key of a plan, in the order EncodePlan writes them.
func planKeys() []planKey {
	wide := backoff.WideLimits
	longest := planTimeKey("policy", "longest_wait_ms", backoff.LongestWait, "No base wait is longer (spread and up jitter may draw past it).", "")
	longest.blame = "policy.first_wait_ms"
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
	return []planKey{
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
		{table: "custom", name: "multiplier", doc: "Each base wait is the one before it times this, up to the longest wait.\n" +
			"From 1.0 to 10.0, with at most three decimals; default 2.0 (doubling).",
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
			"on a lattice), or \"independent\", math/rand/v2's PCG. Default \"reference\".",
			func(p *Plan) *backoff.Draws { return &p.Settings.Draws }),
		planCountKey("service", "capacity_per_second", backoff.Capacity, "Requests a second it serves from the outage's end on; each slot serves its\n"+
			"share and rejects the rest.", "no limit"),
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
		planCountKey("service", "processes", backoff.Processes, "How many processes the clients are spread over, each with its own budget\n"+
			"(client n is in process (n-1) mod processes).", ""),
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
	}
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

// EncodePlan writes p as a TOML file a person can follow: what the file is
// and how to use it, then each table and each key with a comment above it
// saying what it is, its unit, its range and its default. Times are whole
// milliseconds in keys ending _ms; decimals (the multiplier, a jitter's
// factor) are written as decimals. A key at a default that is no value of its
// own (no note, the five policies, the load's end at the outage + 60 s) is
// written as a comment. DecodePlan reads the text back to p when p is valid.
func EncodePlan(p Plan) string {
	var b strings.Builder
	b.WriteString(planHeader)
	keys := planKeys()
	writeKeys := func(table string) {
		for _, k := range keys {
			if k.table != table {
				continue
			}
			b.WriteString("\n")
			planComment(&b, k.doc)
			if v := k.value(p); v != "" {
				fmt.Fprintf(&b, "%s = %s\n", k.name, v)
			} else {
				fmt.Fprintf(&b, "# %s = %s\n", k.name, planCommentedDefault(k.name, p))
			}
		}
	}
	writeKeys("")
	for _, t := range planTables {
		b.WriteString("\n")
		planComment(&b, t.doc)
		fmt.Fprintf(&b, "[%s]\n", t.name)
		writeKeys(t.name)
	}
	return b.String()
}

const planHeader = `# A Retry Planner plan: every setting of a run, the policies it compares, the
# service they meet and the seeds. Use it with
#
#     retry-planner --plan FILE crowd        (or timeline, schedule, ...)
#     retry-planner --plan FILE              (the full-screen program)
#
# Flags after --plan override the plan: --plan FILE --clients 5000. --plain
# takes no plan: it keeps the original program's settings.
#
# Every key may be left out, and then takes its default, named above it.
# Times are whole milliseconds, in keys ending _ms (1000 is a second); a time
# may also be a string holding a duration of whole milliseconds, such as "1.5s"
# or "2m". Counts are whole numbers; 1_000_000 is a million.
`

// planCommentedDefault is what a key left at its default would hold.
func planCommentedDefault(name string, p Plan) string {
	switch name {
	case "note":
		return `""`
	case "policies":
		five := make([]string, 0, backoff.NumShapes)
		for _, sh := range backoff.Shapes() {
			five = append(five, tomlString(sh.String()))
		}
		return "[" + strings.Join(five, ", ") + "]"
	case "load_until_ms":
		return strconv.Itoa(p.Settings.LoadEnd())
	}
	return ""
}

func planComment(b *strings.Builder, doc string) {
	for line := range strings.SplitSeq(doc, "\n") {
		b.WriteString("# " + line + "\n")
	}
}

// planDecimal writes thousandths as a TOML float: 2000 is "2.0", 1600 "1.6".
func planDecimal(n int) string {
	s := backoff.FormatThousandths(n)
	if !strings.Contains(s, ".") {
		s += ".0"
	}
	return s
}

// tomlString is s as a TOML basic string. Control characters, and format
// characters (which show as nothing or turn the text around), are written
// as \u escapes, so that the file shows what it holds; bytes that are not
// UTF-8 become U+FFFD, since a TOML file is UTF-8.
func tomlString(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"':
			b.WriteString(`\"`)
		case r == '\\':
			b.WriteString(`\\`)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\t':
			b.WriteString(`\t`)
		case r == '\r':
			b.WriteString(`\r`)
		case r < 0x20 || r == 0x7f || r >= 0x80 && r < 0xa0 || unicode.Is(unicode.Cf, r):
			if r > 0xffff {
				fmt.Fprintf(&b, `\U%08X`, r)
			} else {
				fmt.Fprintf(&b, `\u%04X`, r)
			}
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// DecodePlan reads a plan from data, the text of file (named in errors).
// It starts from DefaultPlan, so a plan may leave out any key. It refuses,
// with a *PlanError naming the file, the line and the rule: text that is not
// TOML; a key a plan does not have (keys are case-sensitive); a value of the
// wrong type (a string where a number goes, a decimal where a whole number
// goes); a value out of its range under backoff.WideLimits, or one the
// jitter's, budget's, draws' or policies' rules refuse. The first problem in
// the file's order is the one reported; ranges that depend on other keys
// (the longest wait on the first, the fresh requests on the load, its end
// and the outage) are checked once every key is read.
func DecodePlan(file string, data []byte) (plan Plan, err error) {
	fail := func(line int, format string, a ...any) (Plan, error) {
		return Plan{}, &PlanError{File: file, Line: line, Msg: fmt.Sprintf(format, a...)}
	}
	if len(data) > MaxPlanBytes {
		return fail(1, "a plan of %d bytes: want at most %d (a plan is a page of settings)", len(data), MaxPlanBytes)
	}
	text := planStripBOM(string(data))
	var raw map[string]any
	md, err := decodeTOML(text, &raw)
	if err != nil {
		var pe toml.ParseError
		if errors.As(err, &pe) {
			return fail(lineAt(text, pe.Position), "not TOML: %s", planOneLine(pe.Message))
		}
		return fail(1, "not TOML: %s", planOneLine(err.Error()))
	}

	keys := planKeys()
	byPath := map[string]planKey{}
	for _, k := range keys {
		byPath[k.path()] = k
	}
	plan = DefaultPlan()
	inFile := map[string]toml.Key{}
	var first *PlanError // the first problem in the file's order
	problem := func(at toml.Key, msg string) {
		if first == nil {
			first = &PlanError{File: file, Line: planKeyLine(text, md.Keys(), at), Msg: msg}
		}
	}
	// Every key in the file's order, against the plan's own, in exact case.
	// (MetaData.Undecoded would not do: decoding into a struct matches a
	// key to a field in any case, and into a map it decodes every key.)
	for _, key := range md.Keys() {
		v, parentIsTable := tomlLookup(raw, key)
		switch {
		case !parentIsTable:
			// Inside a value that is not a table: already refused.
		case len(key) == 1 && isPlanTable(key[0]):
			if _, ok := v.(map[string]any); !ok {
				problem(key, fmt.Sprintf("%s = %s: want the table [%s], not %s", key, tomlShow(v), key[0], tomlTypeName(v)))
			}
		case len(key) == 2 && !isPlanTable(key[0]) && byPath[key[0]].name == "":
			problem(key[:1], planUnknownKey(key[:1]))
		default:
			k, known := byPath[key.String()]
			if !known {
				problem(key, planUnknownKey(key))
				continue
			}
			inFile[k.path()] = key
			wrong, ok := k.read(&plan, v)
			switch {
			case ok:
			case wrong == "" && k.custom != nil:
				problem(key, fmt.Sprintf("%s = %s: %s", key, tomlShow(v), k.custom(plan, v)))
			case wrong == "":
				problem(key, fmt.Sprintf("%s = %s: want %s", key, tomlShow(v), k.rule(plan)))
			default:
				problem(key, fmt.Sprintf("%s = %s: want %s, not %s", key, tomlShow(v), k.rule(plan), wrong))
			}
		}
	}
	if first != nil {
		return Plan{}, first
	}

	// The ranges, with every key read.
	if k, msg := planRangeProblem(plan); msg != "" {
		if key, ok := inFile[k.path()]; ok {
			v, _ := tomlLookup(raw, key)
			shown := tomlShow(v)
			if s, isString := v.(string); isString && strings.HasSuffix(k.name, "_ms") {
				ms, _ := backoff.ParseTime(s)
				shown += fmt.Sprintf(" (%d ms)", ms)
			}
			return fail(planKeyLine(text, md.Keys(), key), "%s = %s: %s", key, shown, msg)
		}
		if key, ok := inFile[k.blame]; ok {
			v, _ := tomlLookup(raw, key)
			return fail(planKeyLine(text, md.Keys(), key), "%s = %s: more than the longest wait, %d ms by default: set %s too",
				key, tomlShow(v), plan.Settings.LongestWait, k.path())
		}
		return fail(1, "%s: %s", k.path(), msg) // a default out of range: cannot happen
	}
	if err := plan.Settings.ValidateIn(backoff.WideLimits); err != nil {
		return fail(1, "%s", planOneLine(err.Error())) // the checks above should have said it
	}
	return plan, nil
}

// planRangeProblem is the first key, in the plan's order, whose value is out of
// its range, and what it wants; msg is "" when every value is in range.
func planRangeProblem(p Plan) (k planKey, msg string) {
	for _, k := range planKeys() {
		if k.check != nil {
			if msg := k.check(p); msg != "" {
				return k, msg
			}
		}
	}
	return planKey{}, ""
}

// Validate returns an error naming the first value of p that DecodePlan
// would refuse, such as "policy.attempts = 500: want a whole number from 2
// to 100", or nil. A plan that passes encodes to a file that decodes to it.
func (p Plan) Validate() error {
	if k, msg := planRangeProblem(p); msg != "" {
		return fmt.Errorf("%s = %s: %s", k.path(), k.value(p), msg)
	}
	list := make([]any, len(p.Policies))
	for i, n := range p.Policies {
		list[i] = n
	}
	if j := p.Settings.Jitter; !j.Draws() && j.Factor != 0 || j.Kind > backoff.JitterUp {
		return fmt.Errorf("custom.jitter: kind %v with factor %d: want %s", j.Kind, j.Factor, backoff.JitterList)
	}
	if msg := policiesProblem(p.Settings, list); msg != "" {
		return fmt.Errorf("policies: %s", msg)
	}
	if p.SeedDraws != backoff.Reference && p.SeedDraws != backoff.Independent {
		return fmt.Errorf("spread.draws: %v: want \"reference\" or \"independent\"", p.SeedDraws)
	}
	if !utf8.ValidString(p.Note) {
		return errors.New("note: not UTF-8 text")
	}
	return p.Settings.ValidateIn(backoff.WideLimits)
}

// decodeTOML is toml.Decode, with any panic of the parser made an error:
// a plan's text comes from a person, and no text may crash the program.
func decodeTOML(text string, v any) (md toml.MetaData, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("the TOML parser failed: %v", r)
		}
	}()
	return toml.Decode(text, v)
}

// planStripBOM drops a byte-order mark as the TOML parser does, so that the
// positions it reports are positions in the text returned.
func planStripBOM(s string) string {
	for _, bom := range []string{"\xef\xbb\xbf", "\xff\xfe", "\xfe\xff"} {
		if strings.HasPrefix(s, bom) {
			return s[len(bom):]
		}
	}
	return s
}

func isPlanTable(name string) bool {
	for _, t := range planTables {
		if t.name == name {
			return true
		}
	}
	return false
}

// planUnknownKey is the message for a key a plan does not have, naming the keys
// its table takes.
func planUnknownKey(key toml.Key) string {
	var names []string
	table := ""
	if len(key) == 2 && isPlanTable(key[0]) {
		table = key[0]
	}
	for _, k := range planKeys() {
		if k.table == table {
			names = append(names, k.name)
		}
	}
	if table == "" {
		for _, t := range planTables {
			names = append(names, "["+t.name+"]")
		}
		return fmt.Sprintf("%s: not a key of a plan, which takes %s", key, planAndList(names))
	}
	return fmt.Sprintf("%s: not a key of [%s], which takes %s", key, table, planAndList(names))
}

func planAndList(names []string) string {
	if len(names) < 2 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
}

// tomlLookup finds key's value in the decoded tables; parentIsTable is false
// when a key on its way holds something other than a table (an array of
// tables, whose keys repeat).
func tomlLookup(raw map[string]any, key toml.Key) (v any, parentIsTable bool) {
	var at any = raw
	for _, part := range key {
		m, ok := at.(map[string]any)
		if !ok {
			return nil, false
		}
		at = m[part]
	}
	return at, true
}

// tomlTypeName is a TOML value's type, after "not".
func tomlTypeName(v any) string {
	switch v.(type) {
	case int64:
		return "a whole number"
	case float64:
		return "a decimal"
	case string:
		return "a string"
	case bool:
		return "true or false"
	case time.Time:
		return "a date or time"
	case []any:
		return "a list"
	case []map[string]any:
		return "an array of tables"
	case map[string]any:
		return "a table"
	}
	return fmt.Sprintf("%T", v)
}

// tomlShow is a TOML value as a message shows it, on one line and short.
func tomlShow(v any) string {
	switch x := v.(type) {
	case int64:
		return strconv.FormatInt(x, 10)
	case float64:
		switch {
		case math.IsNaN(x):
			return "nan"
		case math.IsInf(x, 1):
			return "inf"
		case math.IsInf(x, -1):
			return "-inf"
		}
		return strconv.FormatFloat(x, 'g', -1, 64)
	case string:
		return tomlString(planCut(x))
	case bool:
		return strconv.FormatBool(x)
	case time.Time:
		switch x.Location().String() {
		case "date-local":
			return x.Format("2006-01-02")
		case "time-local":
			return x.Format("15:04:05.999999999")
		case "datetime-local":
			return x.Format("2006-01-02T15:04:05.999999999")
		}
		return x.Format(time.RFC3339Nano)
	case []any:
		parts := make([]string, len(x))
		for i, e := range x {
			parts[i] = tomlShow(e)
		}
		if s := "[" + strings.Join(parts, ", ") + "]"; utf8.RuneCountInString(s) <= 80 {
			return s
		}
		return "[...]"
	case []map[string]any:
		return "[{...}]"
	case map[string]any:
		return "{...}"
	}
	return "?"
}

// planCut shortens a long string for a message.
func planCut(s string) string {
	const most = 40
	if utf8.RuneCountInString(s) <= most {
		return s
	}
	return string([]rune(s)[:most]) + "..."
}

func planOneLine(s string) string {
	return strings.Join(strings.Fields(s), " ")
}

// The line of a key. The TOML parser records where each key's value starts
// but MetaData does not expose it; it does put it in the ParseError of a
// toml.Unmarshaler that fails. So planKeyLine decodes the text once more into a
// struct made for the one key, whose field for it fails, and reads the
// position from the error: the parser's own, not a guess from scanning the
// text. A table made only by dotted keys or a [a.b] header has no position
// of its own; it takes the line of its first key in the file. A key whose
// name no struct tag can hold ("", "-", or one with a comma) takes its
// table's line: the one guess, and on the right table.

type lineProbe struct{}

// probeFailed is the probe's error, told from the decoder's own by its text.
const probeFailed = "retry-planner: line probe"

func (lineProbe) UnmarshalTOML(any) error { return errors.New(probeFailed) }

var (
	tomlPrimitiveType = reflect.TypeFor[toml.Primitive]()
	lineProbeType     = reflect.TypeFor[lineProbe]()
)

// planKeyLine is the line of key in text (from 1), of the keys md.Keys gives.
func planKeyLine(text string, keys []toml.Key, key toml.Key) int {
	if line := probeLine(text, keys, key); line > 0 {
		return line
	}
	for _, k := range keys {
		if len(k) > len(key) && slices.Equal(k[:len(key)], key) {
			if line := probeLine(text, keys, k); line > 0 {
				return line
			}
		}
	}
	if len(key) > 1 {
		return planKeyLine(text, keys, key[:len(key)-1])
	}
	return 1
}

func probeLine(text string, keys []toml.Key, key toml.Key) (line int) {
	if len(key) == 0 {
		return 0
	}
	t, ok := probeStruct(keys, key, 0)
	if !ok {
		return 0
	}
	_, err := decodeTOML(text, reflect.New(t).Interface())
	var pe toml.ParseError
	if !errors.As(err, &pe) || pe.Message != probeFailed || pe.Position.Line == 0 {
		return 0 // no position recorded: a table made by its keys
	}
	return lineAt(text, pe.Position)
}

// lineAt is the line of a position the parser gave. Start, a byte offset,
// is where a value or a mistake begins; the parser's Line is where its lexer
// had got to, past the end of a string that spans lines and past the newline
// that ended a line too soon. At the end of the text, Line is all there is.
func lineAt(text string, pos toml.Position) int {
	if pos.Start >= 0 && pos.Start < len(text) && (pos.Start > 0 || pos.Line <= 1) {
		return strings.Count(text[:pos.Start], "\n") + 1
	}
	return max(pos.Line, 1)
}

// probeStruct is a struct type with a field for every key of the table at
// key[:depth], each tagged with the key's exact name so that the decoder's
// match of names in any case cannot pick another: the one on key's way is a
// struct again, or the failing probe at its end; the others are
// toml.Primitive, which takes anything.
func probeStruct(keys []toml.Key, key toml.Key, depth int) (reflect.Type, bool) {
	names := []string{key[depth]}
	for _, k := range keys {
		if len(k) > depth && slices.Equal(k[:depth], key[:depth]) && !slices.Contains(names, k[depth]) {
			names = append(names, k[depth])
		}
	}
	var fields []reflect.StructField
	for i, name := range names {
		if name == "" || name == "-" || strings.ContainsAny(name, ",") {
			if i == 0 {
				return nil, false // a name no struct tag can hold
			}
			continue
		}
		t := tomlPrimitiveType
		if i == 0 {
			t = lineProbeType
			if depth < len(key)-1 {
				var ok bool
				if t, ok = probeStruct(keys, key, depth+1); !ok {
					return nil, false
				}
			}
		}
		fields = append(fields, reflect.StructField{Name: "F" + strconv.Itoa(i), Type: t, Tag: reflect.StructTag("toml:" + strconv.Quote(name))})
	}
	return reflect.StructOf(fields), true
}

// PlanFlags are the command-line flags that make p from the defaults, only
// those whose value differs, in the order the settings are listed; the note
// has none. Times are whole milliseconds, policies are joined by commas with
// a hyphen for each space.
func PlanFlags(p Plan) []string {
	var out []string
	flag := func(name, value string) { out = append(out, "--"+name, value) }
	d := DefaultPlan()
	for _, sf := range []struct {
		name  string
		field backoff.Field
	}{
		{"first-wait", backoff.FirstWait}, {"longest", backoff.LongestWait}, {"attempts", backoff.Attempts},
		{"clients", backoff.Clients}, {"outage", backoff.Outage}, {"seed", backoff.Seed}, {"slot", backoff.Slot},
	} {
		if v := p.Settings.Get(sf.field); v != d.Settings.Get(sf.field) {
			flag(sf.name, strconv.Itoa(v))
		}
	}
	s, ds := p.Settings, d.Settings
	if s.Multiplier != ds.Multiplier {
		flag("multiplier", backoff.FormatThousandths(s.Multiplier))
	}
	if s.Jitter != ds.Jitter {
		flag("jitter", s.Jitter.String())
	}
	if s.MaxElapsed != ds.MaxElapsed {
		flag("max-elapsed", strconv.Itoa(s.MaxElapsed))
	}
	if s.Draws != ds.Draws {
		flag("draws", s.Draws.String())
	}
	if s.Capacity != ds.Capacity {
		flag("capacity", strconv.Itoa(s.Capacity))
	}
	if s.Load != ds.Load {
		flag("load", strconv.Itoa(s.Load))
	}
	if s.LoadUntil != ds.LoadUntil {
		flag("load-until", strconv.Itoa(s.LoadUntil))
	}
	if s.Budget != ds.Budget {
		flag("budget", s.Budget.String())
	}
	if s.Processes != ds.Processes {
		flag("processes", strconv.Itoa(s.Processes))
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
	return out
}

// PlanCommandLine is the command line that runs p: "retry-planner" and its
// PlanFlags. No value holds a space or a shell's special character.
func PlanCommandLine(p Plan) string {
	return strings.Join(append([]string{"retry-planner"}, PlanFlags(p)...), " ")
}

// policyFlagName is a policy's name as a flag writes it, and as
// backoff.LookupPolicy reads it whatever its case and separators: "Full
// jitter" and "full_jitter" are "full-jitter".
func policyFlagName(name string) string {
	return strings.ToLower(strings.NewReplacer(" ", "-", "_", "-").Replace(strings.TrimSpace(name)))
}
