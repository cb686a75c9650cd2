package pane

import "strings"

// CapacityMark is drawn across bars where the slot's capacity lies.
const CapacityMark = "│"

// The characters of a stacked bar, so that its parts read without colour:
// attempts served, rejected (the service was back but its slot full), and
// failed while the service was down; with a queue, the expired requests
// the service worked on for nothing (wasted: busy, yet serving nobody) and
// those it dropped; with a breaker, the attempts it failed at once
// (short-circuited: they never reached the service).
const (
	ServedGlyph   = "█"
	RejectedGlyph = "▒"
	DownGlyph     = "░"
	WastedGlyph   = "▓"
	DroppedGlyph  = "×"
	ShortGlyph    = "╌"
)

// segment is one part of a stacked bar: n attempts drawn with glyph.
type segment struct {
	n     int
	glyph string
	p     paint
}

// stackCells is how many cells each part takes of width cells scaled to
// most: the parts' ends are rounded, so that the whole bar is as long as
// its total, and a part above 0 takes at least a cell while there is room.
func stackCells(ns []int, most, width int) []int {
	cells := make([]int, len(ns))
	if most <= 0 || width <= 0 {
		return cells
	}
	sum, prev := int64(0), 0
	for i, n := range ns {
		sum += int64(max(n, 0))
		end := int((sum*int64(width) + int64(most)/2) / int64(most))
		if n > 0 && end <= prev {
			end = prev + 1
		}
		end = min(end, width)
		cells[i] = max(end-prev, 0)
		prev = max(prev, end)
	}
	return cells
}

// capLine is the column of a bar width cells wide scaled to most where
// capacity lies; -1 without a capacity.
func capLine(capacity, most, width int) int {
	if capacity < 0 || most <= 0 || width <= 0 {
		return -1
	}
	return min(int(int64(capacity)*int64(width)/int64(most)), width-1)
}

// drawStack draws the parts in turn, then, when line >= 0, the capacity
// mark at that column (over the bar where the bar reaches it), padding with
// spaces up to it. It returns the drawing and the cells it takes.
func drawStack(segs []segment, most, width, line int, lp paint) (string, int) {
	ns := make([]int, len(segs))
	for i, s := range segs {
		ns[i] = s.n
	}
	cells := stackCells(ns, most, width)
	used := 0
	for _, c := range cells {
		used += c
	}
	total := used
	if line >= 0 && line < width {
		total = max(total, line+1)
	}
	// which part each cell is: -1 empty, len(segs) the line
	kind := make([]int, total)
	at := 0
	for i, c := range cells {
		for range c {
			kind[at] = i
			at++
		}
	}
	for ; at < total; at++ {
		kind[at] = -1
	}
	if line >= 0 && line < total {
		kind[line] = len(segs)
	}
	var b strings.Builder
	for c := 0; c < total; {
		k := kind[c]
		n := 1
		for c+n < total && kind[c+n] == k {
			n++
		}
		switch {
		case k < 0:
			b.WriteString(strings.Repeat(" ", n))
		case k == len(segs):
			b.WriteString(lp.paint(strings.Repeat(CapacityMark, n)))
		default:
			b.WriteString(segs[k].p.paint(strings.Repeat(segs[k].glyph, n)))
		}
		c += n
	}
	return b.String(), total
}
