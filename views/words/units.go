package words

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// The full-screen program writes times and counts as people read them; the
// reports and --plain keep whole milliseconds (Millis).

// Human writes a time of ms milliseconds as people read it:
//
//	below a second:  whole ms              "600 ms"
//	below a minute:  seconds to a tenth    "24.6 s", "10 s"
//	below an hour:   minutes and seconds   "2 min 5 s", "10 min"
//	from an hour:    hours and minutes     "1 h 5 min", "2 h"
//
// Each is rounded to its last unit, halves up (24,550 ms is 24.6 s;
// 125,400 ms is 2 min 5 s), and a time that rounds up to the next unit is
// written in it (59,960 ms is 1 min). A negative time, one that does not
// exist, is "-".
func Human(ms int) string {
	switch {
	case ms < 0:
		return "-"
	case ms < 1000:
		return strconv.Itoa(ms) + " ms"
	}
	if tenths := (int64(ms) + 50) / 100; tenths < 600 {
		s := strconv.FormatInt(tenths/10, 10)
		if tenths%10 != 0 {
			s += "." + strconv.FormatInt(tenths%10, 10)
		}
		return s + " s"
	}
	if secs := (int64(ms) + 500) / 1000; secs < 3600 {
		return twoUnits(secs/60, "min", secs%60, "s")
	}
	mins := (int64(ms) + 30000) / 60000
	return twoUnits(mins/60, "h", mins%60, "min")
}

// Seconds is a time in seconds, such as an estimate, as people read it,
// to the whole second, halves up: "under a second", "12 s", "1 min 13 s".
func Seconds(s float64) string {
	if !(s >= 1) { // NaN too
		return "under a second"
	}
	return Human(int(min(math.Round(s), 1e6)) * 1000) // at most 11 days: the ms fit any int
}

// twoUnits is "a ua b ub", or "a ua" when b is 0.
func twoUnits(a int64, ua string, b int64, ub string) string {
	s := strconv.FormatInt(a, 10) + " " + ua
	if b != 0 {
		s += " " + strconv.FormatInt(b, 10) + " " + ub
	}
	return s
}

// Count writes a count with a comma between each three digits:
// "1,000,000".
func Count(n int) string {
	s := strconv.Itoa(n)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	var b strings.Builder
	if neg {
		b.WriteByte('-')
	}
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	return b.String()
}

// Count64 is Count of a count that may pass an int of 32 bits: the
// clients a search runs in all.
func Count64(n int64) string {
	if n < 0 {
		return "-" + Count64(-n)
	}
	if n < 1000 {
		return strconv.FormatInt(n, 10)
	}
	return Count64(n/1000) + "," + fmt.Sprintf("%03d", n%1000)
}

// One rounding per figure (issue 24, item 12): a figure that is a ratio,
// the retries a client and a count a slot as a rate a second, is rounded
// here, once, and every face writes these digits: the program, the text,
// the CSV, the JSON and the pictures.

// rateTenths is n in a slot of slot ms as tenths of a rate a second, the
// rate's one rounding: below 10 a second to a tenth, from 10 to a whole
// request, halves up each.
func rateTenths(n, slot int) int64 {
	tenths := (int64(n)*10000 + int64(slot)/2) / int64(slot)
	if tenths >= 100 {
		tenths = (tenths + 5) / 10 * 10
	}
	return tenths
}

// Rate writes n in a slot of slot ms as a rate a second: "280/s". Below 10
// a second it keeps a tenth ("2.5/s"); from 10 up it is rounded to whole
// requests, halves up.
func Rate(n, slot int) string {
	if slot <= 0 {
		return "-"
	}
	return tenthsOf(rateTenths(n, slot)) + "/s"
}

// PerSecond is Rate's number in plain digits, for a table of plain numbers
// or a document: "280", "2.5", "1215000"; "-" for no slot.
func PerSecond(n, slot int) string {
	if slot <= 0 {
		return "-"
	}
	t := rateTenths(n, slot)
	return plainTenths(t)
}

// PerClient is the retries a client, n over clients, to a hundredth, halves
// up, in plain digits: 962 retries over 200 clients is "4.81", 241,000
// over 435,000 "0.55" (0.554...); over none, "0".
func PerClient(n, clients int) string {
	if clients <= 0 {
		return "0"
	}
	h := (int64(n)*200 + int64(clients)) / (2 * int64(clients))
	return fmt.Sprintf("%d.%02d", h/100, h%100)
}

// plainTenths is t tenths in plain digits, without a trailing ".0".
func plainTenths(t int64) string {
	s := strconv.FormatInt(t/10, 10)
	if t%10 != 0 {
		s += "." + strconv.FormatInt(t%10, 10)
	}
	return s
}

// Each writes n shared over by, to a tenth, halves up: 962 retries over
// 200 clients is "4.8". Over none it is "-".
func Each(n, by int) string {
	if by <= 0 {
		return "-"
	}
	return tenthsOf((int64(n)*10 + int64(by)/2) / int64(by))
}

func tenthsOf(t int64) string {
	s := Count(int(t / 10))
	if t%10 != 0 {
		s += "." + strconv.FormatInt(t%10, 10)
	}
	return s
}
