package plan

import (
	"errors"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/BurntSushi/toml"
)

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
