package words

import (
	"fmt"

	"github.com/retryplanner/retry-planner/backoff"
)

// Formula is what a policy's wait before retry n is, in one line: for
// full jitter "wait = random 0 to min(longest, first x 2^(n-1))". It names
// the settings, not their values, so that it reads the same beside any
// numbers.
func Formula(p backoff.Policy) string {
	base := baseFormula(p)
	switch p.Jitter.Kind {
	case backoff.JitterFull:
		return "wait = random 0 to " + base
	case backoff.JitterEqual:
		return "wait = d/2 + random 0 to d/2, d = " + base
	case backoff.JitterDecorrelated:
		return "wait = min(longest, random first to 3 x the previous wait), the previous starting at first"
	case backoff.JitterSpread:
		return fmt.Sprintf("wait = d - %s to d + %s at random, d = %s (may pass longest)",
			factorOf(p.Jitter.Factor), factorOf(p.Jitter.Factor), base)
	case backoff.JitterUp:
		return fmt.Sprintf("wait = d to d + %s at random, d = %s (may pass longest)", factorOf(p.Jitter.Factor), base)
	}
	return "wait = " + base
}

// baseFormula is the base wait d(n) in words of the settings. Linear
// growth adds the first wait each retry, so d(n) = min(longest, n x first)
// whatever the multiplier, which it ignores and the formula does not name.
func baseFormula(p backoff.Policy) string {
	if p.Growth == backoff.GrowthLinear {
		return "min(longest, n x first)"
	}
	switch p.Multiplier {
	case 1000:
		return "first"
	case 2000:
		return "min(longest, first x 2^(n-1))"
	}
	return "min(longest, first x " + backoff.FormatThousandths(p.Multiplier) + "^(n-1))"
}

// factorOf writes a jitter factor as a share of d: "0.2d".
func factorOf(thousandths int) string {
	return backoff.FormatThousandths(thousandths) + "d"
}
