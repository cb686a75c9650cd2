//go:build unix

package cli

import "syscall"

// addressLimit is the least of the process's limits on its address space
// and its data (ulimit -v and -d), and which it is for a message; 0 for
// none.
func addressLimit() (int64, string) {
	least, what := int64(0), ""
	for _, l := range []struct {
		resource int
		name     string
	}{{syscall.RLIMIT_AS, "ulimit -v"}, {syscall.RLIMIT_DATA, "ulimit -d"}} {
		var r syscall.Rlimit
		if syscall.Getrlimit(l.resource, &r) != nil || r.Cur >= 1<<62 {
			continue
		}
		if n := int64(r.Cur); least == 0 || n < least {
			least, what = n, l.name+" "+bytesText(n)
		}
	}
	return least, what
}
