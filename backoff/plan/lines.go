package plan

import (
	"strings"

	"github.com/BurntSushi/toml"
)

// The line of a key. The TOML parser records where each key's value starts
// but MetaData does not expose it, so the scan that checks a plan's bounds
// before it is decoded (scanPlan) records where each key is first named, in
// one pass over the text: finding a line costs a look-up, whatever the
// number of keys.

// keyLines are the line (from 1) of every key and table a text names,
// where it is first named: a key's own line; a table's header; a table made
// only by dotted keys or by a header below it ([a.b] makes a) takes the
// line that first names it. Keys are toml.Key.String()'s.
type keyLines map[string]int

// of is key's line: its own, else its nearest table's, else 1.
func (l keyLines) of(key toml.Key) int {
	for k := key; len(k) > 0; k = k[:len(k)-1] {
		if line, ok := l[k.String()]; ok {
			return line
		}
	}
	return 1
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
