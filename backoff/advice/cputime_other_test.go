//go:build !unix

package advice

import "time"

// processCPU is not measured here: the deadlines take the clock's time.
func processCPU() time.Duration { return 0 }
