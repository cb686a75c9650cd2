//go:build !unix

package backoff

import "time"

// processCPU is not measured here; the benchmarks leave out cpu-ns/op.
func processCPU() time.Duration { return 0 }
