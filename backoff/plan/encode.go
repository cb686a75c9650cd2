package plan

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"

	"github.com/retryplanner/retry-planner/backoff"
)

// Encode writes p as a TOML file a person can follow: what the file is
// and how to use it, then each table and each key with a comment above it
// saying what it is, its unit, its range and its default. Times are whole
// milliseconds in keys ending _ms; decimals (the multiplier, a jitter's
// factor) are written as decimals. A key at a default that is no value of its
// own (no note, the five policies, the load's end at the outage + 60 s) is
// written as a comment. Decode reads the text back to p when p is valid.
func Encode(p Plan) string {
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
				fmt.Fprintf(&b, "# %s = %s\n", k.name, planCommentedDefault(k, p))
			}
		}
	}
	writeKeys("")
	for _, t := range planTables {
		if t.name == goalsTable.name && p.Goals.Len() == 0 {
			continue // a plan without goals is written as it was before goals
		}
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

// planCommentedDefault is what a key left at its default would hold: for
// one of the custom policy's own, the [policy] value it follows.
func planCommentedDefault(k planKey, p Plan) string {
	if k.table == "custom" {
		for _, pk := range planKeys() {
			if pk.table == "policy" && pk.name == k.name {
				return pk.value(p)
			}
		}
	}
	switch k.name {
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
	if example, ok := goalExample(k.name); ok {
		return example
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
