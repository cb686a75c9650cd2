package crosscheck

import (
	"time"
	_ "unsafe" // for go:linkname

	// The internal backoff package is linked in only if something the
	// test binary imports uses it; grpc's client does.
	_ "google.golang.org/grpc"
	grpcbackoff "google.golang.org/grpc/backoff"
)

// grpc-go's jittered connection backoff is the method
// Exponential.Backoff(retries int) of google.golang.org/grpc/internal/
// backoff, which a module outside grpc cannot import, and no public type
// hands it out (grpc.WithConnectParams puts it inside a DialOption that
// only the client reads). So the test pulls the method itself in with
// go:linkname, under the symbol the compiler gives a value method,
// "<package path>.<type>.<method>", and calls it with a struct of the
// same layout as its receiver (Exponential is struct{ Config
// backoff.Config }). The code that runs is grpc's own, and its global
// math/rand/v2 source.
//
// No linker flag is needed: since Go 1.23 the linker refuses pulls of
// standard-library symbols not marked for it (-checklinkname=0 lifts
// that), but it does not check symbols of other modules such as grpc's.
// If grpc renames the type, the method or its receiver's fields, the
// link fails with "relocation target ... not defined", or the
// TestNoJitter row for grpc finds other values.

// grpcExponential has the layout of internal/backoff.Exponential.
type grpcExponential struct {
	Config grpcbackoff.Config
}

//go:linkname grpcBackoff google.golang.org/grpc/internal/backoff.Exponential.Backoff
func grpcBackoff(bc grpcExponential, retries int) time.Duration
