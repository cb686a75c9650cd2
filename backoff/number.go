package backoff

// ParseDigits reads a whole number written with 1 to most ASCII digits and
// nothing else: no sign, no spaces, no separators. Leading zeros are fine.
// It reports false for anything else, so a caller can tell "0" from junk.
func ParseDigits(s string, most int) (int, bool) {
	if len(s) == 0 || len(s) > most {
		return 0, false
	}
	n := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int(c-'0')
	}
	return n, true
}
