package report

import (
	"encoding/csv"
	"fmt"
	"strconv"
	"strings"

	"github.com/retryplanner/retry-planner/backoff"
	"github.com/retryplanner/retry-planner/views/plain"
	"github.com/retryplanner/retry-planner/views/words"
)

// Two plans side by side (crowd --compare): each figure of A, the plan in a
// file, and of B, the command line's, the change from A to B and whether it
// is better or worse. A figure's direction is backoff.FigureField's Better:
// fewer retries, a lower peak after back, an earlier stable, fewer who gave
// up, a lower p99 are better; more served and through are better; the
// clients, where a slot lies and a slot's capacity are neither. A figure
// that a side does better on while it leaves more of its clients
// not through is not judged: it does better by losing clients.

// CompareSide is one side of a comparison: its settings as run, and either
// its one seed's crowd or, over many seeds, its spread, whose medians are
// compared.
type CompareSide struct {
	// File is the plan's file for A, "" for the command line's B.
	File string
	// Settings are the settings the side ran at; over many seeds, with the
	// spread's draws.
	Settings backoff.Settings
	// Results are the one seed's crowd, a result per policy; nil when
	// Spread is set.
	Results []backoff.Result
	// Spread is the crowd over many seeds; nil for one seed.
	Spread *backoff.SeedsCrowd
}

// Comparison is A against B, and the settings that differ from A to B
// but change no figure.
type Comparison struct {
	A, B CompareSide
	Idle []Idle
}

// Idle is a setting that differs from A to B but that nothing either side
// runs reads, so that it changes no figure: Flag names it
// ("--custom-first-wait"), Why says why ("read only by custom, which is
// not run here"), Action what would make it count ("run custom
// in B"), and Run the flag that does ("--policies grpc,custom").
type Idle struct{ Flag, Why, Action, Run string }

// sentence is the idle setting in one line: "--custom-first-wait changes
// no figure: read only by custom, which is not run here; run custom in B
// with --policies grpc,custom."
func (i Idle) sentence() string { return idleSentence([]string{i.Flag}, i) }

func idleSentence(flags []string, i Idle) string {
	verb := "changes"
	if len(flags) > 1 {
		verb = "change"
	}
	return fmt.Sprintf("%s %s no figure: %s; %s with %s.", words.And(flags), verb, i.Why, i.Action, i.Run)
}

// idleLines are the idle settings' sentences, one for the settings that
// have the same reason and remedy: "--custom-first-wait and --jitter
// change no figure: ...".
func idleLines(idle []Idle) []string {
	var out []string
	for len(idle) > 0 {
		first := idle[0]
		var flags []string
		var rest []Idle
		for _, i := range idle {
			if i.Why == first.Why && i.Run == first.Run {
				flags = append(flags, i.Flag)
			} else {
				rest = append(rest, i)
			}
		}
		out = append(out, idleSentence(flags, first))
		idle = rest
	}
	return out
}

// The verdicts of a figure's change from A to B.
const (
	VerdictBetter = "better"
	VerdictWorse  = "worse"
	VerdictSame   = "same"
	// VerdictNone is a figure absent in A or in B (no client got through),
	// or one that is neither better nor worse (the clients, where a slot
	// lies, a slot's capacity) and changed.
	VerdictNone = "n/a"
	// VerdictNotJudged is a figure that the side doing better on it does
	// better on by losing clients: that side leaves more of its clients
	// not through (words.Judge).
	VerdictNotJudged = "not judged"
	// VerdictOnlyA and VerdictOnlyB mark a policy that only one side runs.
	VerdictOnlyA = "only in a"
	VerdictOnlyB = "only in b"
)

// policies are the side's policies in order.
func (cs CompareSide) policies() []backoff.Policy {
	var out []backoff.Policy
	if cs.Spread != nil {
		for _, ps := range cs.Spread.Policies {
			out = append(out, ps.Policy)
		}
		return out
	}
	for _, r := range cs.Results {
		out = append(out, r.Policy)
	}
	return out
}

// value is policy i's figure ff: one seed's, or the median over the seeds;
// -1 where the figure does not exist.
func (cs CompareSide) value(i int, ff backoff.FigureField) int {
	var v int
	if cs.Spread != nil {
		v = cs.Spread.Policies[i].Spread(ff.Name).Median
	} else {
		v = ff.Get(cs.Results[i].Figures)
	}
	if ff.Optional && v < 0 {
		return -1
	}
	return v
}

// figureChange is one figure of one policy on both sides.
type figureChange struct {
	field   backoff.FigureField
	a, b    int // -1: absent, or the side does not run the policy
	verdict string
}

// hasChange reports whether the change B - A exists.
func (fc figureChange) hasChange() bool {
	return fc.a >= 0 && fc.b >= 0 && fc.verdict != VerdictOnlyA && fc.verdict != VerdictOnlyB
}

// Verdict is the change of a figure from a to b (-1: absent), each side
// losing its clients as lostA and lostB: "better", "worse", "same", "n/a"
// or "not judged", as words.Judge decides; a figure absent on either side
// is "n/a" here.
func Verdict(ff backoff.FigureField, a, b int, lostA, lostB words.Lost) string {
	if ff.Optional && (a < 0 || b < 0) {
		return VerdictNone
	}
	switch words.Judge(ff, a, b, lostA, lostB) {
	case words.Same:
		return VerdictSame
	case words.Better:
		return VerdictBetter
	case words.Worse:
		return VerdictWorse
	case words.ByLosing:
		return VerdictNotJudged
	}
	return VerdictNone
}

// policyChanges is a policy's figures on both sides.
type policyChanges struct {
	name    string
	in      string // "both", "a" or "b"
	figures []figureChange
}

// changes are the policies of A in A's order, then those only B runs, each
// with every figure in the crowd report's order, matched by name.
func (c Comparison) changes() []policyChanges {
	pa, pb := c.A.policies(), c.B.policies()
	index := func(ps []backoff.Policy, name string) int {
		for i, p := range ps {
			if p.Name == name {
				return i
			}
		}
		return -1
	}
	var out []policyChanges
	add := func(name string, ia, ib int) {
		pc := policyChanges{name: name, in: "both"}
		switch {
		case ib < 0:
			pc.in = "a"
		case ia < 0:
			pc.in = "b"
		}
		for _, ff := range orderedFields() {
			fc := figureChange{field: ff, a: -1, b: -1}
			if ia >= 0 {
				fc.a = c.A.value(ia, ff)
			}
			if ib >= 0 {
				fc.b = c.B.value(ib, ff)
			}
			switch pc.in {
			case "a":
				fc.verdict = VerdictOnlyA
			case "b":
				fc.verdict = VerdictOnlyB
			default:
				fc.verdict = Verdict(ff, fc.a, fc.b, c.lost(c.A, ia), c.lost(c.B, ib))
			}
			pc.figures = append(pc.figures, fc)
		}
		out = append(out, pc)
	}
	for i, p := range pa {
		add(p.Name, i, index(pb, p.Name))
	}
	for i, p := range pb {
		if index(pa, p.Name) < 0 {
			add(p.Name, -1, i)
		}
	}
	return out
}

// lost is policy i's clients not through, of its clients and of those
// the outage touched, on a side.
func (c Comparison) lost(cs CompareSide, i int) words.Lost {
	get := func(name string) int {
		ff, _ := backoff.FindField(name)
		return cs.value(i, ff)
	}
	return words.Lost{NotThrough: get("not_through"), Clients: get("clients"), Touched: get("clients_touched")}
}

// verdictMark is a change's mark in the text: its direction, ▲ up or ▼
// down, then its verdict, "better", "worse" or "not judged"; "=" for the
// same.
func verdictMark(fc figureChange) string {
	if fc.verdict == VerdictSame {
		return "="
	}
	arrow := ""
	switch {
	case !fc.hasChange():
	case fc.b > fc.a:
		arrow = "▲"
	case fc.b < fc.a:
		arrow = "▼"
	}
	word := ""
	switch fc.verdict {
	case VerdictBetter, VerdictWorse, VerdictNotJudged:
		word = fc.verdict
	}
	return strings.TrimSpace(arrow + " " + word)
}

// sideWords says how a side's figures were found: "seed 7, reference draws"
// or "the median over 100 seeds, 7 to 106, independent draws".
func sideWords(cs CompareSide) string {
	if cs.Spread != nil {
		return fmt.Sprintf("the median over %s, %s draws", seedRange(*cs.Spread), cs.Settings.Draws)
	}
	return fmt.Sprintf("seed %d, %s draws", cs.Settings.Seed, cs.Settings.Draws)
}

func sideName(cs CompareSide, letter string) string {
	if cs.File == "" {
		return letter + ", the command line's"
	}
	return letter + ", the plan in " + cs.File
}

// CompareText is the comparison as text: what each side is, the settings
// that differ, then for each policy both run, each figure of A and B, the
// change from A to B and its mark, and a legend.
func CompareText(c Comparison) string {
	var b strings.Builder
	b.WriteString("Two plans side by side: " + sideName(c.A, "A") + ", against " + sideName(c.B, "B") + ".\n")
	fmt.Fprintf(&b, "A: %s; %s.\n", plain.CrowdIntroOf(c.A.Settings, c.A.policies()), sideWords(c.A))
	fmt.Fprintf(&b, "B: %s; %s.\n", plain.CrowdIntroOf(c.B.Settings, c.B.policies()), sideWords(c.B))
	if diff := settingsDiff(c.A.Settings, c.B.Settings); len(diff) > 0 {
		b.WriteString("The settings that differ, A to B: " + strings.Join(diff, "; ") + ".\n")
	} else {
		b.WriteString("The settings are the same.\n")
	}
	for _, line := range idleLines(c.Idle) {
		b.WriteString(line + "\n")
	}
	var rows [][]string
	var onlyA, onlyB []string
	changes := c.changes()
	lost := false // where a client is lost, all through by is the last success
	for _, pc := range changes {
		for _, fc := range pc.figures {
			lost = lost || fc.field.Name == "not_through" && (fc.a > 0 || fc.b > 0)
		}
	}
	for _, pc := range changes {
		switch pc.in {
		case "a":
			onlyA = append(onlyA, pc.name)
			continue
		case "b":
			onlyB = append(onlyB, pc.name)
			continue
		}
		for i, fc := range pc.figures {
			policy := ""
			if i == 0 {
				policy = pc.name
			}
			change := ""
			if fc.hasChange() {
				change = signed(fc.b - fc.a)
				if fc.field.Time {
					change += " ms"
				}
			}
			rows = append(rows, []string{policy, words.FigureLabel(fc.field, lost), spreadCell(fc.field, fc.a), spreadCell(fc.field, fc.b), change, verdictMark(fc)})
		}
	}
	if len(rows) > 0 {
		if c.A.Spread != nil || c.B.Spread != nil {
			b.WriteString("Each figure is its median over the seeds:\n")
		}
		b.WriteString(compareTable(rows))
		b.WriteString(CompareLegend)
	} else {
		b.WriteString("No policy is in both.\n")
	}
	if len(onlyA) > 0 {
		fmt.Fprintf(&b, "Only in A: %s.\n", words.And(onlyA))
	}
	if len(onlyB) > 0 {
		fmt.Fprintf(&b, "Only in B: %s.\n", words.And(onlyB))
	}
	return b.String()
}

// CompareLegend explains the comparison's marks.
const CompareLegend = "The change is B's figure less A's: ▲ it rose, ▼ it fell, = the same. The word says whether B is better or worse than A: " +
	"fewer attempts, retries, rejected, failed while down, gave up, throttled, out of time, clients not through, timed out, wasted, " +
	"dropped, a lower busiest slot, peak after back and queue peak, an earlier all through by, stable from and recovered after, " +
	"lower latencies, and more served and through are better. Not judged: the side that does better on the figure leaves more " +
	"of its clients not through, so it does better by losing clients (those who stop retry no more, load the service no more " +
	"and have no latency to measure). The clients not through and through are always judged: by count where A and B ran as many " +
	"clients, else by share of the clients the outage touched (a longer load window adds clients who all get through). No word: a figure that is neither " +
	"better nor worse (the clients, where a slot starts, a slot's capacity), or one that does not exist (\"-\", no client got through) " +
	"in A or in B.\n"

// compareTable lays out the rows: the policy and the figure left-aligned,
// A, B and the change right-aligned, the mark last.
func compareTable(rows [][]string) string {
	head := []string{"policy", "figure", "A", "B", "change", ""}
	widths := []int{14, 0, 9, 9, 9}
	for _, r := range append([][]string{head}, rows...) {
		for i := range widths {
			widths[i] = max(widths[i], len(r[i]))
		}
	}
	var b strings.Builder
	for _, r := range append([][]string{head}, rows...) {
		line := fmt.Sprintf("  %-*s  %-*s   %*s   %*s   %*s", widths[0], r[0], widths[1], r[1], widths[2], r[2], widths[3], r[3], widths[4], r[4])
		if r[5] != "" {
			line += "   " + r[5]
		}
		b.WriteString(strings.TrimRight(line, " ") + "\n")
	}
	return b.String()
}

// signed is n with its sign: +3, -3, 0.
func signed(n int) string {
	if n > 0 {
		return "+" + itoa(n)
	}
	return itoa(n)
}

// settingsDiff names each setting that differs from a to b, as its flag:
// "--attempts 6 to 8".
func settingsDiff(a, b backoff.Settings) []string {
	var out []string
	for _, f := range backoff.Fields() {
		va, vb := a.Value(f), b.Value(f) // custom's own that follows is the five's
		if _, own := f.Follows(); own && a.Get(f) == backoff.Follow && b.Get(f) == backoff.Follow {
			continue // the five's field says it
		}
		if f == backoff.LoadUntil {
			va, vb = a.LoadEnd(), b.LoadEnd() // -1 is the outage + 60 s
		}
		if va == vb {
			continue
		}
		switch {
		case f == backoff.Multiplier:
			out = append(out, fmt.Sprintf("--multiplier %s to %s", backoff.FormatThousandths(va), backoff.FormatThousandths(vb)))
		case f.IsTime():
			out = append(out, fmt.Sprintf("--%s %d to %d ms", f.Flag(), va, vb))
		default:
			out = append(out, fmt.Sprintf("--%s %d to %d", f.Flag(), va, vb))
		}
	}
	if a.Growth != b.Growth {
		out = append(out, fmt.Sprintf("--growth %s to %s", a.Growth, b.Growth))
	}
	if a.Jitter != b.Jitter {
		out = append(out, fmt.Sprintf("--jitter %s to %s", a.Jitter, b.Jitter))
	}
	if a.Draws != b.Draws {
		out = append(out, fmt.Sprintf("--draws %s to %s", a.Draws, b.Draws))
	}
	if a.Budget != b.Budget {
		out = append(out, fmt.Sprintf("--budget %s to %s", a.Budget, b.Budget))
	}
	if a.DropExpired != b.DropExpired {
		out = append(out, fmt.Sprintf("--drop-expired %t to %t", a.DropExpired, b.DropExpired))
	}
	if a.QueueOrder != b.QueueOrder {
		out = append(out, fmt.Sprintf("--queue-order %s to %s", a.QueueOrder, b.QueueOrder))
	}
	if a.Breaker != b.Breaker {
		out = append(out, fmt.Sprintf("--breaker %s to %s", a.Breaker, b.Breaker))
	}
	return out
}

// compareCell is a figure as a CSV cell: empty where absent.
func compareCell(v int) string {
	if v < 0 {
		return ""
	}
	return itoa(v)
}

// CompareCSV is the comparison, one row per policy and figure:
// policy,figure,a,b,change,verdict. A figure absent on a side is an empty
// cell, and so is its change; the verdict is better, worse, same, n/a,
// not judged (the side that does better loses more clients), or
// "only in a" or "only in b" for a policy that one side does not run. With
// many seeds, a and b are the medians.
func CompareCSV(c Comparison) string {
	var b strings.Builder
	w := csv.NewWriter(&b)
	_ = w.Write([]string{"policy", "figure", "a", "b", "change", "verdict"})
	for _, pc := range c.changes() {
		for _, fc := range pc.figures {
			change := ""
			if fc.hasChange() {
				change = strconv.Itoa(fc.b - fc.a)
			}
			// The policies' names are the program's own; the numbers may
			// be negative, so only the name goes through safeCell.
			_ = w.Write([]string{safeCell(pc.name), fc.field.Name, compareCell(fc.a), compareCell(fc.b), change, fc.verdict})
		}
	}
	w.Flush()
	return b.String()
}

// compareSideDoc is a side for the JSON: its file, settings, slot, seeds
// and policies.
func compareSideDoc(cs CompareSide) object {
	var file any
	if cs.File != "" {
		file = cs.File
	}
	var seeds any
	if cs.Spread != nil {
		seeds = object{{"first", cs.Spread.First}, {"last", cs.Spread.First + cs.Spread.Count - 1}, {"count", cs.Spread.Count}}
	}
	policies := []object{}
	for _, p := range cs.policies() {
		policies = append(policies, object{{"policy", p.String()}, {"policy_settings", policySettings(p)}})
	}
	return object{{"file", file}, {"settings", settingsJSON(cs.Settings)}, {"slot_ms", cs.Settings.Slot}, {"seeds", seeds}, {"policies", policies}}
}

// CompareDoc is the comparison as a JSON document: "a" and "b", each its
// file (null for the command line's), settings, slot, seeds (null for one
// seed) and policies; then "policies", one for each policy either side
// runs, with "in" ("both", "a" or "b") and its "figures", each {"name",
// "a", "b", "change", "verdict"}, null where a figure is absent.
func CompareDoc(c Comparison) string {
	policies := []object{}
	for _, pc := range c.changes() {
		figures := []object{}
		for _, fc := range pc.figures {
			value := func(v int) any {
				if v < 0 {
					return nil
				}
				return v
			}
			var change any
			if fc.hasChange() {
				change = fc.b - fc.a
			}
			figures = append(figures, object{{"name", fc.field.Name}, {"a", value(fc.a)}, {"b", value(fc.b)}, {"change", change}, {"verdict", fc.verdict}})
		}
		policies = append(policies, object{{"policy", pc.name}, {"in", pc.in}, {"figures", figures}})
	}
	doc := object{{"a", compareSideDoc(c.A)}, {"b", compareSideDoc(c.B)}, {"policies", policies}}
	if len(c.Idle) > 0 {
		// Only where there are any: a setting that differs and changes nothing.
		var idle []object
		for _, i := range c.Idle {
			idle = append(idle, object{{"flag", i.Flag}, {"says", i.sentence()}, {"run", i.Run}})
		}
		doc = append(doc, member{"idle_settings", idle})
	}
	return jsonDoc(doc)
}
