package plan

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"
)

// FuzzDecodePlan: no text makes Decode panic; what it refuses gets one
// line naming the file and a line of the text; what it accepts is a valid
// plan that Encode writes back to a file that reads as the same plan. The
// scan that bounds a text before it is decoded reads, to its end, every
// text within the bounds that the TOML parser reads, and finds the line of
// every key the parser finds: else a bound could be passed unseen.
//
//	go test -fuzz FuzzDecodePlan -fuzztime 60s ./backoff/plan
func FuzzDecodePlan(f *testing.F) {
	f.Add(Encode(Default()))
	f.Add(Encode(richPlan()))
	for _, name := range []string{"defaults.toml", "rich.toml"} {
		if data, err := os.ReadFile(filepath.Join("testdata", "plans", name)); err == nil {
			f.Add(string(data))
		}
	}
	for _, s := range []string{
		"", "[crowd]\nclients = 0\n", "crowd.client = 3\n", "policies = [\"fixed\", \"Full_Jitter\"]\n",
		"[policy]\nfirst_wait_ms = \"1.5s\"\nlongest_wait_ms = 20000\n", "[custom]\nmultiplier = 1.6\njitter = \"up:0.1\"\n",
		"crowd = {clients = 1_000, seed = 0}\n", "[[spread]]\nseeds = 1\n", "note = \"\"\"\na\n\"\"\"\n", "[service]\nbudget = \"aws:500:5\"\nload_per_second = 10\nload_until_ms = 0\n",
		"\xef\xbb\xbf[crowd]\r\nclients = 5\r\n",
		"[service]\ncapacity_per_second = 100\nqueue = 1000\ntimeout_ms = \"1s\"\ndrop_expired = true\nqueue_order = \"lifo\"\n",
		"[service]\nqueue = 1\n", "[service]\ntimeout_ms = 5\n", "[guards]\noutage_hang_ms = \"5s\"\nbreaker = \"gobreaker\"\nretry_after_ms = 2000\n",
		"[guards]\nbreaker = \"5:30\"\n", "[guards]\nbreaker = 5\n", "[service]\ndrop_expired = 1\n", "[service]\nqueue_order = \"LIFO\"\nqueue = 0\n",
		"[service]\ncapacity_per_second = 1\nqueue = 10_000_000\ntimeout_ms = 86_400_000\n", "a.b.c = 1\n[x.\"y,z\"]\n", "\"a\\u200bb\" = 1\n", "[crowd]\n\"x\\u202ey\" = 2\n",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		if len(text) <= MaxBytes {
			checkScan(t, planStripBOM(text))
		}
		p, err := Decode("fuzz.toml", []byte(text))
		if err != nil {
			var pe *Error
			if !errors.As(err, &pe) {
				t.Fatalf("got %T %v, want a *Error", err, err)
			}
			lines := strings.Count(text, "\n") + 1
			if pe.File != "fuzz.toml" || pe.Line < 1 || pe.Line > lines || strings.ContainsAny(pe.Msg, "\n\r") {
				t.Fatalf("got file %q, line %d of %d, message %q; want fuzz.toml, a line of the text and one line", pe.File, pe.Line, lines, pe.Msg)
			}
			if !utf8.ValidString(pe.Msg) || strings.ContainsFunc(pe.Msg, func(r rune) bool { return r != ' ' && !unicode.IsGraphic(r) || unicode.Is(unicode.Cf, r) }) {
				t.Fatalf("message %q: want text that shows as itself", pe.Msg)
			}
			return
		}
		if err := p.Validate(); err != nil {
			t.Fatalf("Decode took a plan that Validate refuses: %v", err)
		}
		again, err := Decode("again.toml", []byte(Encode(p)))
		if err != nil || !again.Equal(p) {
			t.Fatalf("written and read again: got %+v, %v; want %+v", again, err, p)
		}
	})
}

// checkScan fails when the TOML parser reads a text within the bounds that
// the scan does not read to its end, or finds a key the scan has no line for.
func checkScan(t *testing.T, text string) {
	t.Helper()
	lines, _, bound, read := scanPlan(text)
	if bound != "" {
		return
	}
	var raw map[string]any
	md, err := decodeTOML(text, &raw)
	if err != nil {
		return
	}
	if !read {
		t.Fatalf("%q: the parser reads it, the scan stopped", text)
	}
	for _, k := range md.Keys() {
		if _, ok := lines[k.String()]; !ok {
			t.Fatalf("%q: the parser finds %s, the scan has no line for it (it has %v)", text, k, lines)
		}
	}
}
