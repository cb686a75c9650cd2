package report

import "strconv"

// A timeline of millions of slots is hundreds of megabytes of CSV or JSON
// (twelve policies of a day at 1 ms slots, 9 GB): Size tells what a
// format will write before a byte of it is, so that the command line can
// refuse one past its ceiling.

// Size is how many bytes the timeline writes in format ("text", "csv" or
// "json"), beyond its head and notes: exact for CSV and JSON, whose rows it
// counts digit by digit; at most that for the text, whose tables it takes
// at their widest cells.
func (tl Timeline) Size(format string) int64 {
	n := tl.rows()
	switch format {
	case "csv":
		return tl.csvSize(n)
	case "json":
		return tl.jsonSize(n)
	}
	return tl.textSize(n)
}

// digits is how many bytes v takes written in decimal.
func digits(v int) int64 {
	var buf [24]byte
	return int64(len(strconv.AppendInt(buf[:0], int64(v), 10)))
}

// fields are row j's numbers in the CSV's and JSON's order, the capacity
// -1 where there is none.
func (tl Timeline) fields(c slotCounts, j int, out []int) []int {
	out = append(out[:0], tl.rowFrom(j), c.retries, c.attempts, c.served, c.rejected, c.down, tl.capacityAt(j))
	if tl.Settings.HasQueue() {
		out = append(out, c.timedOut, c.wasted, c.dropped, c.queue)
	}
	if tl.Settings.Breaker.On() {
		out = append(out, c.short, c.opened)
	}
	return out
}

func (tl Timeline) csvSize(n int) int64 {
	tail := 1 + digits(tl.slot()) + 1 + digits(tl.rowMs()) + 1 // ,slot_ms,row_ms\n
	var size int64
	var values []int
	for _, r := range tl.Runs {
		head := int64(0)
		if tl.SideBy {
			head = int64(len(safeCell(r.Policy.String()))) + 1
		}
		for j := range n {
			values = tl.fields(tl.countsAt(r.Series, j), j, values)
			size += head + tail + int64(len(values)-1)
			for k, v := range values {
				if k == 6 && v < 0 {
					continue // no capacity: an empty field
				}
				size += digits(v)
			}
		}
	}
	return size
}

func (tl Timeline) jsonSize(n int) int64 {
	d := 1 // the rows' depth: a policy's fields at 1, or at 3 side by side
	if tl.SideBy {
		d = 3
	}
	names := tl.jsonNames()
	var size int64
	var values []int
	for _, r := range tl.Runs {
		for j := range n {
			values = tl.fields(tl.countsAt(r.Series, j), j, values)
			size += int64(2*(d+1)+2) + int64(2*(d+1)+1) + 1 // "{\n" and "}" with their indent, the newline
			if j < n-1 {
				size++ // ,
			}
			for k, v := range values {
				size += int64(2*(d+2)+len(names[k])) + 1 // indent, name, newline
				if k < len(values)-1 {
					size++
				}
				if k == 6 && v < 0 {
					size += 4 // null
				} else {
					size += digits(v)
				}
			}
		}
	}
	return size
}

// textSize bounds the text: one policy's histogram (a row a row with
// retries, at most 40 #) and its table by outcome, or the tables side by
// side, a row a busy row, every cell as wide as the run's attempts.
func (tl Timeline) textSize(n int) int64 {
	widest := int64(1)
	for _, r := range tl.Runs {
		widest = max(widest, digits(r.Figures.Attempts), digits(tl.Settings.Capacity*tl.rowMs()/1000+1))
	}
	busy := int64(len(tl.busyRows(n)))
	from := digits(tl.rowFrom(max(n-1, 0))) + 3
	if !tl.SideBy {
		cells, tables := int64(11), int64(1) // the table by outcome, with a queue and a breaker
		return busy*(2+7+4+5+2+40+1) + tables*busy*(2+from+cells*(3+widest+20)+1)
	}
	tables := int64(7) // retries, rejected, timed out, wasted or dropped, the queue, short-circuited, breakers opened
	return tables * busy * (2 + from + int64(len(tl.Runs))*(3+widest+20) + 1)
}

// Rows is how many rows CSV and JSON list: every row up to the last with
// any attempt.
func (tl Timeline) Rows() int { return tl.rows() }
