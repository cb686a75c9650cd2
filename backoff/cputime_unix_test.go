//go:build unix

package backoff

import (
	"syscall"
	"time"
)

// processCPU is the CPU time this process has used, user and system: with
// a busy machine's cores shared, it shows the work a benchmark did, which
// the wall clock does not.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
