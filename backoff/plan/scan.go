package plan

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/BurntSushi/toml"
	"github.com/retryplanner/retry-planner/backoff"
)

// The bounds of a plan's text, checked before it is decoded. A plan is a
// handful of keys: 20 keys and 5 tables, two deep (crowd.clients), and one
// list, of at most 13 policies. The TOML parser's cost is not linear in
// what it is given: a key of 10,000 dotted parts in 20 KB made it build
// 10,000 nested tables at every level, 8 s and 4.6 GB; so a text is
// refused, in one line naming its file, line and bound, at the first place
// it passes one, by a scan that looks at each byte once. The bounds are
// far above any plan's and far below any cost that shows.
const (
	// MaxNesting is how deep a plan's keys and lists may nest: a key's
	// parts, its table's included, plus a level for each list or inline
	// table it is in. A plan's keys are 2 deep, its list of policies 2.
	MaxNesting = 8
	// MaxKeys is how many keys and table headers a plan may hold, counted
	// as written (a key in an inline table too). A plan has 25.
	MaxKeys = 200
	// MaxListValues is how many values a plan's lists may hold, all of
	// them together. A plan's one list, policies, names at most 13.
	MaxListValues = 200
	// MaxKeyBytes is the longest name of one part of a key, in bytes as
	// written. A plan's longest is capacity_per_second, 19.
	MaxKeyBytes = 100
)

// planScan is one pass over a plan's text: it counts what the bounds
// bound, and records the line of every key. It reads TOML as the parser
// does, closely enough to know keys from values and strings from the rest;
// on text it cannot read it stops, and the parser, which reads it after,
// says what is wrong (a scan never refuses text as not TOML).
type planScan struct {
	text   string
	i      int
	line   int
	keys   int // keys and headers so far
	values int // values in lists so far
	lines  keyLines
	table  []string // the table of the last header

	stopped  bool   // a bound passed, or text the scan cannot read
	bound    string // the bound passed, for the message; "" for text it cannot read
	boundAt  int    // the line where it passed
	unreadAt int    // where the scan stopped on text it cannot read, 0 if it did not
}

// scanPlan scans text as the TOML parser reads it, after a byte-order mark
// it drops: the line of every key, and a message for the first bound it
// passes, at that line, or "". read is false when it stopped on text it
// cannot read, which the parser refuses.
func scanPlan(text string) (lines keyLines, line int, bound string, read bool) {
	s := &planScan{text: planStripBOM(text), line: 1, lines: keyLines{}}
	s.top()
	return s.lines, s.boundAt, s.bound, s.unreadAt == 0
}

// pass stops the scan at a bound passed.
func (s *planScan) pass(format string, a ...any) {
	if !s.stopped {
		s.stopped, s.bound, s.boundAt = true, fmt.Sprintf(format, a...), s.line
	}
}

// unreadable stops the scan at text it cannot read.
func (s *planScan) unreadable() {
	if !s.stopped {
		s.stopped, s.unreadAt = true, s.i+1
	}
}

func (s *planScan) peek() byte {
	if s.i < len(s.text) {
		return s.text[s.i]
	}
	return 0
}

func (s *planScan) at(prefix string) bool { return strings.HasPrefix(s.text[s.i:], prefix) }

// skipSpace skips spaces and tabs.
func (s *planScan) skipSpace() {
	for s.i < len(s.text) && (s.text[s.i] == ' ' || s.text[s.i] == '\t') {
		s.i++
	}
}

// skipBlank skips spaces, tabs, line ends and comments: what may come
// between the values of a list or an inline table.
func (s *planScan) skipBlank() {
	for s.i < len(s.text) {
		switch s.text[s.i] {
		case ' ', '\t', '\r':
			s.i++
		case '\n':
			s.i++
			s.line++
		case '#':
			s.skipComment()
		default:
			return
		}
	}
}

// skipComment skips from # to the line's end, not past it.
func (s *planScan) skipComment() {
	if n := strings.IndexByte(s.text[s.i:], '\n'); n >= 0 {
		s.i += n
	} else {
		s.i = len(s.text)
	}
}

// top reads the text: headers, keys with their values, comments.
func (s *planScan) top() {
	for s.i < len(s.text) && !s.stopped {
		s.skipSpace()
		switch s.peek() {
		case 0:
			if s.i < len(s.text) {
				s.unreadable() // a NUL the parser refuses
			}
		case '\n':
			s.i++
			s.line++
		case '\r':
			s.i++
		case '#':
			s.skipComment()
		case '[':
			s.header()
			s.lineEnd()
		default:
			s.keyValue(s.table, len(s.table))
			s.lineEnd()
		}
	}
}

// lineEnd reads what may follow a header or a key's value on its line.
func (s *planScan) lineEnd() {
	if s.stopped {
		return
	}
	s.skipSpace()
	switch s.peek() {
	case '#':
		s.skipComment()
	case '\n', '\r':
	default:
		if s.i < len(s.text) {
			s.unreadable()
		}
	}
}

// header reads [a.b] or [[a.b]], from its first bracket.
func (s *planScan) header() {
	s.i++
	array := s.at("[")
	if array {
		s.i++
	}
	s.count()
	path := s.key(nil, 0)
	if s.stopped {
		return
	}
	if s.peek() != ']' {
		s.unreadable()
		return
	}
	s.i++
	if array {
		if s.peek() != ']' {
			s.unreadable()
			return
		}
		s.i++
	}
	s.table = path
}

// count counts a key or a header against MaxKeys.
func (s *planScan) count() {
	if s.keys++; s.keys > MaxKeys {
		s.pass("more than %d keys and tables: want at most %d (a plan has %d)", MaxKeys, MaxKeys, planKeyCount())
	}
}

// keyValue reads key = value, the key's parts after those of table;
// nesting is how deep table is.
func (s *planScan) keyValue(table []string, nesting int) {
	s.count()
	path := s.key(table, nesting)
	if s.stopped {
		return
	}
	if s.peek() != '=' {
		s.unreadable()
		return
	}
	s.i++
	s.skipSpace()
	s.value(path, nesting+len(path)-len(table))
}

// key reads a dotted key and the spaces around its parts, records the line
// of it and of each table on its way, and returns its whole path: the
// parts of table, then its own. nesting is how deep table is.
func (s *planScan) key(table []string, nesting int) []string {
	path := append([]string(nil), table...)
	for !s.stopped {
		s.skipSpace()
		part, ok := s.keyPart()
		if !ok {
			s.unreadable()
		}
		if s.stopped {
			return nil
		}
		path = append(path, part)
		if n := nesting + len(path) - len(table); n > MaxNesting {
			s.pass("keys and lists nested %d deep: want at most %d (a plan's keys are 2 deep, as crowd.clients)", n, MaxNesting)
			return nil
		}
		if k := toml.Key(path).String(); s.lines[k] == 0 {
			s.lines[k] = s.line
		}
		s.skipSpace()
		if s.peek() != '.' {
			return path
		}
		s.i++
	}
	return nil
}

// keyPart reads one part of a key: bare, "basic" or 'literal'.
func (s *planScan) keyPart() (string, bool) {
	start := s.i
	var part string
	switch s.peek() {
	case '"':
		end, ok := s.basicString()
		if !ok {
			return "", false
		}
		part = unescapeTOML(s.text[start+1 : end-1])
	case '\'':
		end := strings.IndexAny(s.text[s.i+1:], "'\n")
		if end < 0 || s.text[s.i+1+end] != '\'' {
			return "", false
		}
		s.i += end + 2
		part = s.text[start+1 : s.i-1]
	default:
		for s.i < len(s.text) && isBareKeyByte(s.text[s.i]) {
			s.i++
		}
		if s.i == start {
			return "", false
		}
		part = s.text[start:s.i]
	}
	if n := s.i - start; n > MaxKeyBytes {
		s.pass("a key's name of %d bytes: want at most %d (a plan's longest is capacity_per_second)", n, MaxKeyBytes)
	}
	return part, true
}

func isBareKeyByte(c byte) bool {
	return c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '_' || c == '-'
}

// basicString reads a "basic string" on one line, from its quote; end is
// just past its closing quote.
func (s *planScan) basicString() (end int, ok bool) {
	for i := s.i + 1; i < len(s.text); i++ {
		switch s.text[i] {
		case '\\':
			i++
		case '"':
			s.i = i + 1
			return s.i, true
		case '\n':
			return 0, false
		}
	}
	return 0, false
}

// multiLine reads a multi-line string from its first quote: quote is the
// delimiter's character, " for a basic one and ' for a literal one; a
// backslash escapes what follows it only in a basic one. It reads the end
// as the parser does: three quotes followed by a fourth are a quote of
// the text, unless the text would then end with five of them (six in a
// row are not TOML), so that three, four or five quotes end it.
func (s *planScan) multiLine(quote byte) bool {
	delim := strings.Repeat(string(quote), 3)
	five := strings.Repeat(string(quote), 5)
	start := s.i + 3
	for i := start; i < len(s.text); i++ {
		switch c := s.text[i]; {
		case c == '\\' && quote == '"':
			if i+1 < len(s.text) && s.text[i+1] == '\n' {
				s.line++
			}
			i++
		case c == '\n':
			s.line++
		case c == quote && strings.HasPrefix(s.text[i:], delim):
			if i+3 < len(s.text) && s.text[i+3] == quote {
				// The parser's own test: five quotes, unless after a
				// backslash (which it takes for an escaped quote even
				// when the backslash is itself escaped), are too many.
				if text := s.text[start : i+3]; strings.HasSuffix(text, five) && (quote == '\'' || !strings.HasSuffix(text, `\`+five)) {
					return false
				}
				continue
			}
			s.i = i + 3
			return true
		}
	}
	return false
}

// value reads a value at nesting levels deep: a string, a list, an inline
// table, or a number, date or word.
func (s *planScan) value(path []string, nesting int) {
	switch s.peek() {
	case '"':
		if s.at(`"""`) {
			if !s.multiLine('"') {
				s.unreadable()
			}
			return
		}
		if _, ok := s.basicString(); !ok {
			s.unreadable()
		}
	case '\'':
		if s.at("'''") {
			if !s.multiLine('\'') {
				s.unreadable()
			}
			return
		}
		end := strings.IndexAny(s.text[s.i+1:], "'\n")
		if end < 0 || s.text[s.i+1+end] != '\'' {
			s.unreadable()
			return
		}
		s.i += end + 2
	case '[':
		s.list(path, nesting)
	case '{':
		s.inlineTable(path, nesting)
	default:
		// A number, a date (which may hold a space), true, false, inf or
		// nan: up to what ends a value.
		start := s.i
		for s.i < len(s.text) && !strings.ContainsRune(",]}#\r\n", rune(s.text[s.i])) {
			s.i++
		}
		if strings.TrimSpace(s.text[start:s.i]) == "" {
			s.unreadable()
		}
	}
}

// list reads [v, v, ...], from its bracket, its values a level deeper.
func (s *planScan) list(path []string, nesting int) {
	if nesting+1 > MaxNesting {
		s.pass("keys and lists nested %d deep: want at most %d (a plan's keys are 2 deep, as crowd.clients)", nesting+1, MaxNesting)
		return
	}
	s.i++
	for !s.stopped {
		s.skipBlank()
		if s.peek() == ']' {
			s.i++
			return
		}
		if s.values++; s.values > MaxListValues {
			s.pass("more than %d values in lists: want at most %d (a plan's one list, policies, names at most %d)",
				MaxListValues, MaxListValues, len(backoff.Names()))
			return
		}
		s.value(path, nesting+1)
		s.skipBlank()
		switch s.peek() {
		case ',':
			s.i++
		case ']':
		default:
			s.unreadable()
		}
	}
}

// inlineTable reads {k = v, ...}, from its brace: its keys are path's.
func (s *planScan) inlineTable(path []string, nesting int) {
	s.i++
	for !s.stopped {
		s.skipBlank()
		if s.peek() == '}' {
			s.i++
			return
		}
		s.keyValue(path, nesting)
		s.skipBlank()
		switch s.peek() {
		case ',':
			s.i++
		case '}':
		default:
			s.unreadable()
		}
	}
}

// tomlEscapes are the escapes of one character a basic string may hold.
var tomlEscapes = map[byte]string{'b': "\b", 't': "\t", 'n': "\n", 'f': "\f", 'r': "\r", 'e': "\x1b", '"': `"`, '\\': `\`}

// unescapeTOML is a basic string's text with its escapes read, as the
// parser reads them; an escape it cannot read stays as written (the parser
// refuses it).
func unescapeTOML(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '\\' || i+1 == len(s) {
			b.WriteByte(s[i])
			continue
		}
		i++
		if out, ok := tomlEscapes[s[i]]; ok {
			b.WriteString(out)
			continue
		}
		digits := 0
		switch s[i] {
		case 'x':
			digits = 2
		case 'u':
			digits = 4
		case 'U':
			digits = 8
		}
		if digits > 0 && i+digits < len(s) {
			if n, err := strconv.ParseUint(s[i+1:i+1+digits], 16, 32); err == nil && utf8.ValidRune(rune(n)) {
				b.WriteRune(rune(n))
				i += digits
				continue
			}
		}
		b.WriteByte('\\')
		b.WriteByte(s[i])
	}
	return b.String()
}

// planKeyCount is how many keys and tables a plan has.
func planKeyCount() int { return len(planKeys()) + len(planTables) }
