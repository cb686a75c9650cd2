package cli

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/retryplanner/retry-planner/backoff"
	"github.com/retryplanner/retry-planner/model"
	"github.com/retryplanner/retry-planner/views/words"
)

// A run's memory and time are worked out before it starts
// (backoff.RunAllCost, RunSeedsCost): one past the memory ceiling or the
// time ceiling is refused in one line, naming the flag that allows it,
// rather than started; Go's runtime ends a process that runs out of memory
// with a trace and exit status 2, the command line's, which no code can
// catch. The memory ceiling is half the memory the process may have (the
// machine's, or less where a cgroup says so) unless --max-memory says
// otherwise; a limit on the address space (ulimit -v or -d) is one no flag
// lifts.

// runLimits are the ceilings a run must stay under.
type runLimits struct {
	memory   int64  // bytes; 0: no ceiling
	memoryBy string // where it comes from, for a message: "--max-memory 2GB", "half this machine's memory, 16 GB"
	seconds  int64  // 0: no ceiling
	timeBy   string
	// hard is a limit of the process's address space, which Go's heap must
	// stay well under whatever the flags say: 0 for none.
	hard   int64
	hardBy string
}

// defaultMaxSeconds is --max-time unless told: an hour.
const defaultMaxSeconds = 3600

// largeBytes and largeSeconds make a run large: it says what it will take
// before it starts.
const (
	largeBytes   = 1 << 30
	largeSeconds = 10
)

// newRunLimits are the default ceilings, on this machine.
func newRunLimits() runLimits {
	l := runLimits{seconds: defaultMaxSeconds, timeBy: "--max-time's default"}
	if total, what := machineMemory(); total > 0 {
		l.memory = total / 2
		l.memoryBy = fmt.Sprintf("half %s, %s", what, bytesText(total))
	}
	if hard, what := addressLimit(); hard > 0 {
		// Go reserves address space beyond its heap (its arenas, stacks,
		// the binary) and a slice that grows is copied while both live:
		// under ulimit -v 4 GB it ran out with 2.1 GB in use. Half the
		// limit leaves that room.
		l.hard, l.hardBy = hard/2, what
	}
	return l
}

// take reads --max-memory or --max-time.
func (l *runLimits) take(u flagUse) error {
	switch u.name {
	case "max-memory":
		n, ok := parseBytes(u.value)
		if !ok {
			return usagef("--max-memory %s: want %s", quoteOdd(u.value), allowedValue(u.name, backoff.WideLimits))
		}
		l.memory, l.memoryBy = n, "--max-memory "+u.value
	case "max-time":
		v := strings.TrimSpace(u.value)
		if strings.EqualFold(v, "none") {
			l.seconds, l.timeBy = 0, "--max-time "+u.value
			return nil
		}
		ms, err := readTime(flagUse{name: u.name, value: v})
		if err != nil {
			return err
		}
		l.seconds, l.timeBy = int64(math.Ceil(float64(ms)/1000)), "--max-time "+u.value
	}
	return nil
}

// isLimitFlag reports whether name is one of the ceilings' flags, which
// are no setting.
func isLimitFlag(name string) bool { return name == "max-memory" || name == "max-time" }

// parseBytes reads a size: a number (decimals allowed) and a unit, B, KB,
// MB, GB or TB (powers of 1000) or KiB, MiB, GiB or TiB (of 1024), in any
// case, the B optional (8G); "0" or "none" for no ceiling.
func parseBytes(v string) (int64, bool) {
	v = strings.ToLower(strings.TrimSpace(v))
	if v == "none" || v == "0" {
		return 0, true
	}
	i := 0
	for i < len(v) && (v[i] >= '0' && v[i] <= '9' || v[i] == '.') {
		i++
	}
	num, unit := v[:i], strings.TrimSpace(v[i:])
	x, err := strconv.ParseFloat(num, 64)
	if err != nil || num == "" || x <= 0 {
		return 0, false
	}
	scale := map[string]float64{"": 1, "b": 1, "k": 1e3, "kb": 1e3, "m": 1e6, "mb": 1e6, "g": 1e9, "gb": 1e9, "t": 1e12, "tb": 1e12,
		"kib": 1 << 10, "mib": 1 << 20, "gib": 1 << 30, "tib": 1 << 40}
	f, ok := scale[unit]
	if !ok || x*f >= 1<<62 || x*f < 1 {
		return 0, false
	}
	return int64(x * f), true
}

// bytesText is n bytes in the largest unit that keeps a whole number in
// front, with a decimal below ten: 850 MB, 2.8 GB, 12 GB.
func bytesText(n int64) string {
	units := []struct {
		name string
		size float64
	}{{"TB", 1e12}, {"GB", 1e9}, {"MB", 1e6}, {"KB", 1e3}}
	for _, u := range units {
		if x := float64(n) / u.size; x >= 1 {
			if x < 9.95 {
				return strconv.FormatFloat(x, 'f', 1, 64) + " " + u.name
			}
			return strconv.FormatFloat(math.Round(x), 'f', 0, 64) + " " + u.name
		}
	}
	return words.Count(int(n)) + " bytes"
}

// flagBytes is n bytes as --max-memory takes them, rounded up to a whole
// number of the unit: 3GB, 900MB.
func flagBytes(n int64) string {
	switch {
	case n >= 1e9:
		return fmt.Sprintf("%dGB", (n+1e9-1)/1e9)
	case n >= 1e6:
		return fmt.Sprintf("%dMB", (n+1e6-1)/1e6)
	}
	return "1MB"
}

// secondsText is about s seconds: 40 s, 12 min, 2 h 10 min.
func secondsText(s float64) string {
	switch {
	case s < 1:
		return "under a second"
	case s < 100:
		return fmt.Sprintf("%.0f s", s)
	case s < 6000:
		return fmt.Sprintf("%.0f min", s/60)
	}
	h := int64(s) / 3600
	return fmt.Sprintf("%d h %d min", h, (int64(s)-h*3600)/60)
}

// flagSeconds is s seconds as --max-time takes them, rounded up: 90s, 40m,
// 3h.
func flagSeconds(s float64) string {
	switch n := int64(math.Ceil(s)); {
	case n < 120:
		return fmt.Sprintf("%ds", n)
	case n < 7200:
		return fmt.Sprintf("%dm", (n+59)/60)
	default:
		return fmt.Sprintf("%dh", (n+3599)/3600)
	}
}

// check refuses a run of cost c on workers cores, what says what the run
// is ("crowd", "the full-screen program's first crowd"): a usage error
// naming the flag that allows it, or nil.
func (l runLimits) check(what string, c backoff.Cost, workers int) error {
	secs := c.Seconds(workers)
	switch {
	case l.hard > 0 && c.Bytes > l.hard:
		return usagef("%s would hold about %s of memory, past what this process may have (%s): raise that limit, or make the run smaller",
			what, bytesText(c.Bytes), l.hardBy)
	case l.memory > 0 && c.Bytes > l.memory:
		return usagef("%s would hold about %s of memory, past the ceiling of %s (%s): allow it with --max-memory %s, or make the run smaller",
			what, bytesText(c.Bytes), bytesText(l.memory), l.memoryBy, flagBytes(c.Bytes))
	case l.seconds > 0 && secs > float64(l.seconds):
		return usagef("%s would take about %s on %s, past the ceiling of %s (%s): allow it with --max-time %s, or make the run smaller",
			what, secondsText(secs), coresText(workers), secondsText(float64(l.seconds)), l.timeBy, flagSeconds(secs*1.25))
	}
	return nil
}

// coresText is "1 core" or "4 cores".
func coresText(n int) string {
	if n == 1 {
		return "1 core"
	}
	return fmt.Sprintf("%d cores", n)
}

// large is the line a large run says before it starts, or "".
func large(what string, c backoff.Cost, workers int) string {
	secs := c.Seconds(workers)
	if c.Bytes < largeBytes && secs < largeSeconds {
		return ""
	}
	return fmt.Sprintf("retry-planner: %s is a large run: about %s of memory and %s on %s (estimated; --max-memory and --max-time bound what may run)",
		what, bytesText(c.Bytes), secondsText(secs), coresText(workers))
}

// heapLimit is the soft limit for Go's heap under l: the ceiling, so that
// the collector works harder near it rather than let garbage push the
// process past it; 0 for none.
func (l runLimits) heapLimit() int64 {
	switch {
	case l.hard > 0 && (l.memory == 0 || l.hard < l.memory):
		return l.hard
	}
	return l.memory
}

// ceilingOption gives the full-screen program the memory ceiling: a plan
// whose run would pass it is not run, and its panes say why and what
// allows it.
func (l runLimits) ceilingOption() model.Option {
	limit := l.heapLimit()
	return model.WithMemoryCeiling(limit, func(need int64) string {
		if l.hard > 0 && limit == l.hard {
			return fmt.Sprintf("its run would hold about %s of memory, past what this process may have (%s): raise that limit, or make the crowd smaller",
				bytesText(need), l.hardBy)
		}
		return fmt.Sprintf("its run would hold about %s of memory, past the ceiling of %s (%s): start the program with --max-memory %s to allow it, or make the crowd smaller",
			bytesText(need), bytesText(l.memory), l.memoryBy, flagBytes(need))
	})
}

// countOf is "1 policy" or "5 policies".
func countOf(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return words.Count(n) + " " + many
}
