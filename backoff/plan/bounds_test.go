package plan

import (
	"fmt"
	"runtime"
	"strings"
	"testing"
)

// headers is n table headers, [t0] to [tn-1], a line each.
func headers(n int) string {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, "[t%d]\n", i)
	}
	return b.String()
}

// dottedKeys is n keys crowd.k0 = 1 to crowd.kn-1 = 1, a line each.
func dottedKeys(n int) string {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, "crowd.k%d = 1\n", i)
	}
	return b.String()
}

// worstPlans are texts that cost the TOML parser, or the line finder, far
// more than their size before a plan's shape was bounded: each is refused
// at the bound it passes, naming the line.
var worstPlans = []struct {
	name, text, want string
}{
	// 20 KB: 8.4 s and 4.6 GB in the parser's implicit tables (90 s here).
	{"a key of 10,000 parts", "[" + strings.Repeat("a.", 9999) + "a]\n",
		"plan.toml:1: keys and lists nested 9 deep: want at most 8 (a plan's keys are 2 deep, as crowd.clients)"},
	// 40 KB: more than 10 GB.
	{"a key of 20,000 parts", "x = 1\n" + strings.Repeat("a.", 19999) + "a = 1\n",
		"plan.toml:2: keys and lists nested 9 deep: want at most 8 (a plan's keys are 2 deep, as crowd.clients)"},
	// 889 KB: 25 to 65 s in the line finder, which decoded the text again
	// into a struct of 100,000 fields.
	{"100,000 headers", headers(100000),
		"plan.toml:201: more than 200 keys and tables: want at most 200 (a plan has 45)"},
	{"a list 100,000 deep", "policies = " + strings.Repeat("[", 100000) + strings.Repeat("]", 100000) + "\n",
		"plan.toml:1: keys and lists nested 9 deep: want at most 8 (a plan's keys are 2 deep, as crowd.clients)"},
	{"inline tables 50,000 deep", "crowd = " + strings.Repeat("{a = ", 50000) + "1" + strings.Repeat("}", 50000) + "\n",
		"plan.toml:1: keys and lists nested 9 deep: want at most 8 (a plan's keys are 2 deep, as crowd.clients)"},
	{"a list of 400,000 values", "policies = [" + strings.Repeat("1,", 400000) + "1]\n",
		"plan.toml:1: more than 200 values in lists: want at most 200 (a plan's one list, policies, names at most 13)"},
	{"lists over lines", "policies = [\n" + strings.Repeat("\"fixed\",\n", 300) + "]\n",
		"plan.toml:202: more than 200 values in lists: want at most 200 (a plan's one list, policies, names at most 13)"},
	{"a key's name of a million bytes", "[" + strings.Repeat("a", 1000000) + "]\n",
		"plan.toml:1: a key's name of 1000000 bytes: want at most 100 (a plan's longest is capacity_per_second)"},
	{"a quoted name past a note", "note = \"\"\"\n\n\"\"\"\n\"" + strings.Repeat("b", 99) + "\" = 1\n",
		"plan.toml:4: a key's name of 101 bytes: want at most 100 (a plan's longest is capacity_per_second)"},
	{"50,000 dotted keys", dottedKeys(50000),
		"plan.toml:201: more than 200 keys and tables: want at most 200 (a plan has 45)"},
	{"100,000 arrays of tables", strings.Repeat("[[a]]\n", 100000),
		"plan.toml:201: more than 200 keys and tables: want at most 200 (a plan has 45)"},
	{"keys in an inline table", "crowd = {" + strings.Repeat("a = 1, ", 300) + "}\n",
		"plan.toml:1: more than 200 keys and tables: want at most 200 (a plan has 45)"},
}

// allocated is the bytes f allocates.
func allocated(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// Each worst text is refused at its bound, having allocated a few times its
// size at most: the work of one pass, where the parser took gigabytes.
func TestDecodePlanWorstTexts(t *testing.T) {
	for _, tt := range worstPlans {
		t.Run(tt.name, func(t *testing.T) {
			var err error
			bytes := allocated(func() { _, err = Decode("plan.toml", []byte(tt.text)) })
			if err == nil || err.Error() != tt.want {
				t.Errorf("got  %v\nwant %s", err, tt.want)
			}
			// The text as a string, the scan's map of lines and the message:
			// 3 times the text and 1 MiB leave a wide margin.
			if most := 3*uint64(len(tt.text)) + 1<<20; bytes > most {
				t.Errorf("allocated %d bytes for a text of %d, want at most %d", bytes, len(tt.text), most)
			}
		})
	}
}

// Each bound, exactly at it and one past it: at the bound the text is
// decoded (and refused for its keys, which a plan does not have, at their
// line), one past it refused before.
func TestDecodePlanBoundsExactly(t *testing.T) {
	deep := func(parts int) string { return "x = 1\n[" + strings.Repeat("a.", parts-1) + "a]\n" }
	nestedList := func(depth int) string { // policies is 1 deep, each [ one more
		return "policies = " + strings.Repeat("[", depth-1) + strings.Repeat("]", depth-1) + "\n"
	}
	list := func(values int) string {
		return "policies = [" + strings.TrimSuffix(strings.Repeat("1,", values), ",") + "]\n"
	}
	named := func(n int) string { return "[crowd]\n" + strings.Repeat("k", n) + " = 1\n" }
	for _, tt := range []struct {
		name, text, want string
	}{
		{"8 parts", deep(MaxNesting), "plan.toml:1: x: not a key of a plan, which takes note, policies, [policy], [custom], [crowd], [service], [guards], [spread] and [goals]"},
		{"9 parts", deep(MaxNesting + 1), "plan.toml:2: keys and lists nested 9 deep: want at most 8 (a plan's keys are 2 deep, as crowd.clients)"},
		// 1 for the key and 7 for its lists is 8; 8 lists is 9.
		{"lists 8 deep", nestedList(MaxNesting), "plan.toml:1: policies = [[[[[[[]]]]]]]: [[[[[[]]]]]] is not a name: want the policies' names as strings, such as [\"fixed\", \"full jitter\"]"},
		{"lists 9 deep", nestedList(MaxNesting + 1), "plan.toml:1: keys and lists nested 9 deep: want at most 8 (a plan's keys are 2 deep, as crowd.clients)"},
		// An inline table in a list: policies (1), the list (2), the
		// table's key, a (3), and its inline tables' keys, b to f (4 to 8).
		{"an inline table 8 deep", "policies = [{a = {b = {c = {d = {e = {f = 1}}}}}}]\n", "plan.toml:1: policies = [{...}]: {...} is not a name: want the policies' names as strings, such as [\"fixed\", \"full jitter\"]"},
		{"an inline table 9 deep", "policies = [{a = {b = {c = {d = {e = {f = {g = 1}}}}}}}]\n", "plan.toml:1: keys and lists nested 9 deep: want at most 8 (a plan's keys are 2 deep, as crowd.clients)"},
		{"200 keys and tables", headers(MaxKeys), "plan.toml:1: t0: not a key of a plan, which takes note, policies, [policy], [custom], [crowd], [service], [guards], [spread] and [goals]"},
		{"201 keys and tables", headers(MaxKeys + 1), "plan.toml:201: more than 200 keys and tables: want at most 200 (a plan has 45)"},
		{"200 values", list(MaxListValues), "plan.toml:1: policies = [...]: 1 is not a name: want the policies' names as strings, such as [\"fixed\", \"full jitter\"]"},
		{"201 values", list(MaxListValues + 1), "plan.toml:1: more than 200 values in lists: want at most 200 (a plan's one list, policies, names at most 13)"},
		{"a name of 100 bytes", named(MaxKeyBytes), "plan.toml:2: crowd." + strings.Repeat("k", 100) + ": not a key of [crowd], which takes clients, outage_ms, seed, slot_ms and draws"},
		{"a name of 101 bytes", named(MaxKeyBytes + 1), "plan.toml:2: a key's name of 101 bytes: want at most 100 (a plan's longest is capacity_per_second)"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Decode("plan.toml", []byte(tt.text))
			if err == nil || err.Error() != tt.want {
				t.Errorf("got  %v\nwant %s", err, tt.want)
			}
		})
	}
}

// What the scan must not count: brackets, braces, dots, commas and quotes
// inside strings and comments, and a plan written every way TOML allows.
func TestScanPlanReadsTOML(t *testing.T) {
	for _, text := range []string{
		Encode(Default()),
		Encode(richPlan()),
		"note = \"[a.b.c.d.e.f.g.h.i.j] {{{{{{{{{ [[[[[[[[[[ \\\" # \"\n",
		"note = '''\n[[[[[[[[[[[[ \\ ''\n'''''\n# [[[[[[[[[[[[[[[[[[[[\n",
		"note = \"\"\"\\\n  [[[[[[[[[[ \\\"\"\" \"\"\"\"\"\n",
		"crowd = {\n  clients = 5, # a comment [[[[[[[[[\n  seed = 1,\n}\n",
		"policies = [ # [[[[[[[[[[[\n 'fixed' , \"full jitter\" ,\n]\n",
		"[ crowd ]\nclients = 1_000 # {{{{{{\n\"seed\" = 0x10\n[service]\nload_until_ms = 1979-05-27 07:32:00\n",
	} {
		lines, line, bound, read := scanPlan(text)
		if bound != "" || !read {
			t.Errorf("%q: got bound %q at line %d, read %v; want no bound and the whole text read", text, bound, line, read)
		}
		if len(lines) > planKeyCount() {
			t.Errorf("%q: got %d keys, want those of a plan", text, len(lines))
		}
	}
}

// BenchmarkDecodePlanWorst decodes each worst text: each is refused in
// about the time of reading it once.
//
//	go test ./backoff/plan -run '^$' -bench DecodePlanWorst -benchmem
func BenchmarkDecodePlanWorst(b *testing.B) {
	for _, tt := range worstPlans {
		data := []byte(tt.text)
		b.Run(tt.name, func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			for b.Loop() {
				if _, err := Decode("plan.toml", data); err == nil {
					b.Fatal("got no error, want the bound")
				}
			}
		})
	}
}

// The costliest texts within the bounds: 200 headers of 8 parts of 100
// bytes (162 KB), each part new, so the parser makes 1,600 tables; and a
// note of nearly 1 MiB. Each is decoded (and the first refused for its
// keys) allocating at most 16 MiB: about 8 MB and 4 MB here, where a text
// past the bounds took gigabytes.
func TestDecodePlanAtTheBounds(t *testing.T) {
	var deep strings.Builder
	for i := range MaxKeys {
		parts := make([]string, MaxNesting)
		for j := range parts {
			parts[j] = fmt.Sprintf("%s%03d%d", strings.Repeat("k", MaxKeyBytes-4), i, j)
		}
		fmt.Fprintf(&deep, "[%s]\n", strings.Join(parts, "."))
	}
	for _, tt := range []struct{ name, text, want string }{
		{"200 headers 8 deep", deep.String(), "plan.toml:1: " + strings.Repeat("k", 96) + "0000."},
		{"a note of 1 MiB", "note = \"" + strings.Repeat("x", MaxBytes-20) + "\"\n", ""},
	} {
		var err error
		bytes := allocated(func() { _, err = Decode("plan.toml", []byte(tt.text)) })
		switch {
		case tt.want == "" && err != nil,
			tt.want != "" && (err == nil || !strings.HasPrefix(err.Error(), tt.want) || !strings.Contains(err.Error(), ": not a key of a plan")):
			t.Errorf("%s: got %v, want %q", tt.name, err, tt.want)
		case bytes > 16<<20:
			t.Errorf("%s: allocated %d bytes for a text of %d, want at most 16 MiB", tt.name, bytes, len(tt.text))
		}
	}
}
