package plan

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/BurntSushi/toml"
	"github.com/retryplanner/retry-planner/backoff"
)

// Decode reads a plan from data, the text of file (named in errors).
// It starts from Default, so a plan may leave out any key. It refuses,
// with a *Error naming the file, the line and the rule: text of more than
// MaxBytes, or that passes a bound of a plan's shape (MaxNesting, MaxKeys,
// MaxListValues, MaxKeyBytes), before any of it is decoded; text that is
// not TOML; a key a plan does not have (keys are case-sensitive); a value of
// the wrong type (a string where a number goes, a decimal where a whole number
// goes); a value out of its range under backoff.WideLimits, or one the
// jitter's, growth's, budget's, draws' or policies' rules refuse. The first
// problem in the file's order is the one reported; ranges that depend on
// other keys (the longest wait on the first, the fresh requests on the load,
// its end and the outage) are checked once every key is read.
func Decode(file string, data []byte) (plan Plan, err error) {
	fail := func(line int, format string, a ...any) (Plan, error) {
		return Plan{}, &Error{File: file, Line: line, Msg: planShowable(fmt.Sprintf(format, a...))}
	}
	if len(data) > MaxBytes {
		return fail(1, "a plan of %d bytes: want at most %d (a plan is a page of settings)", len(data), MaxBytes)
	}
	// The parser drops a byte-order mark too: a second one, after ours.
	text := planStripBOM(string(data))
	lines, boundLine, bound, _ := scanPlan(text)
	if bound != "" {
		return fail(boundLine, "%s", bound)
	}
	var raw map[string]any
	md, err := decodeTOML(text, &raw)
	if err != nil {
		var pe toml.ParseError
		if errors.As(err, &pe) {
			return fail(lineAt(planStripBOM(text), pe.Position), "not TOML: %s", planOneLine(pe.Message))
		}
		return fail(1, "not TOML: %s", planOneLine(err.Error()))
	}

	keys := planKeys()
	byPath := map[string]planKey{}
	for _, k := range keys {
		byPath[k.path()] = k
	}
	plan = Default()
	inFile := map[string]toml.Key{}
	var first *Error // the first problem in the file's order
	problem := func(at toml.Key, msg string) {
		if first == nil {
			first = &Error{File: file, Line: lines.of(at), Msg: planShowable(msg)}
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
			return fail(lines.of(key), "%s = %s: %s", key, shown, msg)
		}
		if key, ok := inFile[k.blame]; ok && k.table == "custom" {
			v, _ := tomlLookup(raw, key)
			return fail(lines.of(key), "%s = %s: more than the longest wait it follows, policy.longest_wait_ms = %d: set %s too",
				key, tomlShow(v), plan.Settings.LongestWait, k.path())
		}
		if key, ok := inFile[k.blame]; ok {
			v, _ := tomlLookup(raw, key)
			return fail(lines.of(key), "%s = %s: more than the longest wait, %d ms by default: set %s too",
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

// Validate returns an error naming the first value of p that Decode
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

// planShowable is a message with every character that does not show as
// itself (a control or format character, such as U+200B, which shows as
// nothing, or U+202E, which turns the text after it around) written as a
// \u escape, and bytes that are not UTF-8 as U+FFFD: a key's name is
// quoted as the file holds it.
func planShowable(s string) string {
	var b strings.Builder
	for _, r := range strings.ToValidUTF8(s, "\uFFFD") {
		switch {
		case r == ' ' || unicode.IsGraphic(r) && !unicode.Is(unicode.Cf, r):
			b.WriteRune(r)
		case r > 0xffff:
			fmt.Fprintf(&b, `\U%08X`, r)
		default:
			fmt.Fprintf(&b, `\u%04X`, r)
		}
	}
	return b.String()
}

func planOneLine(s string) string {
	return strings.Join(strings.Fields(s), " ")
}
