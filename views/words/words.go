// Package words writes the planner's times, counts, rates, lists and
// policies as people read them: the vocabulary the panes, the reports and
// the pictures share, so that one figure reads the same on every face.
package words

import "strings"

// And is a list in words: "a", "a and b", "a, b and c".
func And(items []string) string { return join(items, " and ") }

// Or is a list of choices in words: "a, b or c".
func Or(items []string) string { return join(items, " or ") }

func join(items []string, last string) string {
	if len(items) <= 1 {
		return strings.Join(items, "")
	}
	return strings.Join(items[:len(items)-1], ", ") + last + items[len(items)-1]
}
