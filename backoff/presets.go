package backoff

import (
	"fmt"
	"strings"
)

// Shape is one of the reference's five policies: each is a multiplier and a
// jitter over the settings' first wait, longest wait, attempts and limit on
// total time (FirstWait, LongestWait, Attempts, MaxElapsed; never custom's
// own). The zero value is Fixed.
type Shape int

// The five, in the order the reference lists them.
const (
	Fixed        Shape = iota // m 1000, no jitter: the first wait every time
	Exponential               // m 2000, no jitter
	FullJitter                // m 2000, full jitter
	EqualJitter               // m 2000, equal jitter
	Decorrelated              // decorrelated jitter (ignores m)
)

// NumShapes is how many shapes there are.
const NumShapes = 5

var shapeNames = [NumShapes]string{"fixed", "exponential", "full jitter", "equal jitter", "decorrelated"}

// Shapes returns the five in the reference's order.
func Shapes() []Shape {
	return []Shape{Fixed, Exponential, FullJitter, EqualJitter, Decorrelated}
}

// String is the shape's name as the reference writes it, such as "full
// jitter".
func (s Shape) String() string {
	if s < 0 || s >= NumShapes {
		return fmt.Sprintf("Shape(%d)", int(s))
	}
	return shapeNames[s]
}

// ParseShape returns the shape with exactly that name, as the reference's
// menu takes it.
func ParseShape(name string) (Shape, error) {
	for s, n := range shapeNames {
		if n == name {
			return Shape(s), nil
		}
	}
	return 0, fmt.Errorf("unknown policy %q: want %s", name, ShapeList())
}

// ShapeList is the five names for a message: "fixed, exponential, full
// jitter, equal jitter or decorrelated".
func ShapeList() string {
	return strings.Join(shapeNames[:NumShapes-1], ", ") + " or " + shapeNames[NumShapes-1]
}

// multiplier and jitter of each shape.
func (s Shape) multiplier() int {
	if s == Fixed {
		return 1000
	}
	return 2000
}

func (s Shape) jitter() Jitter {
	return Jitter{Kind: [NumShapes]JitterKind{JitterNone, JitterNone, JitterFull, JitterEqual, JitterDecorrelated}[s]}
}

// Preset is a policy with the defaults of a library people run, as our
// model can say it.
type Preset struct {
	Name    string // what a user types: "grpc"
	Library string // which library and which of its settings
	Source  string // the source file the defaults come from
	Differs string // where our model and the library part, in one line ("" where they do not)
	Policy  Policy
}

// NoCap is the longest wait of a policy whose library sets none: the
// longest wait the planner takes, an hour.
const NoCap = 3600000

// Presets returns the presets in the order --help lists them. Each one's
// defaults, with the source file they come from:
//
//   - grpc: google.golang.org/grpc backoff/backoff.go DefaultConfig (1 s, x1.6,
//     120 s, jitter 0.2), jittered on every wait as the gRFC A6 retry policy
//     does (grpc-go stream.go shouldRetry), at most 5 attempts (A6's cap,
//     dialoptions.go defaultMaxCallAttempts).
//   - aws: github.com/aws/aws-sdk-go-v2 aws/retry/standard.go (3 attempts, 20 s)
//     and jitter_backoff.go (a random share of 2^attempt seconds).
//   - cenkalti: github.com/cenkalti/backoff v4 and v5 exponential.go
//     (500 ms, x1.5, 60 s, randomization 0.5, 15 min elapsed).
//   - retryablehttp: github.com/hashicorp/go-retryablehttp client.go
//     DefaultBackoff and NewClient (1 s, x2, 30 s, 4 retries).
//   - client-go: k8s.io/client-go util/retry/util.go DefaultBackoff
//     (10 ms, factor 5, jitter 0.1, 4 steps, no cap), with
//     k8s.io/apimachinery pkg/util/wait/backoff.go for how it steps.
//   - envoy: envoyproxy/envoy source/common/router/retry_state_impl.cc
//     (25 ms base, 10x the base as the cap, 1 retry) and
//     source/common/common/backoff_strategy.cc (full jitter).
//   - polly: App-vNext/Polly src/Polly.Core/Retry/RetryConstants.cs and
//     RetryStrategyOptions.TResult.cs (constant 2 s, 3 retries, no jitter).
func Presets() []Preset {
	ps := []Preset{
		{
			Name: "grpc", Library: "grpc-go backoff.DefaultConfig, jittered as the A6 retry policy jitters every wait",
			Source:  "google.golang.org/grpc backoff/backoff.go; stream.go (shouldRetry); dialoptions.go (defaultMaxCallAttempts)",
			Differs: "gRPC's connection backoff does not jitter its first wait and never stops; here every wait is jittered (as A6 retries are), 5 attempts is A6's cap, and the band is rounded to whole ms.",
			Policy:  Policy{FirstWait: 1000, Multiplier: 1600, LongestWait: 120000, Jitter: Jitter{Kind: JitterSpread, Factor: 200}, Attempts: 5},
		},
		{
			Name: "aws", Library: "aws-sdk-go-v2 aws/retry standard mode",
			Source:  "github.com/aws/aws-sdk-go-v2 aws/retry/standard.go, aws/retry/jitter_backoff.go",
			Differs: "this is the SDK's classic standard mode (NewExponentialJitterBackoff), which waits a flat 20 s from the fifth retry; here every wait is drawn up to the cap. From v1.48.0 NewStandard defaults to Retry Behavior 2.1, a 50 ms base (1 s after throttling) and a quota cost of 14.",
			Policy:  Policy{FirstWait: 2000, Multiplier: 2000, LongestWait: 20000, Jitter: Jitter{Kind: JitterFull}, Attempts: 3},
		},
		{
			Name: "cenkalti", Library: "cenkalti/backoff v4 and v5 ExponentialBackOff",
			Source:  "github.com/cenkalti/backoff/v4 exponential.go; github.com/cenkalti/backoff/v5 exponential.go, retry.go",
			Differs: "the library draws in nanoseconds from the unrounded interval (retry 4: 843.75 to 2531.25 ms), here whole milliseconds around the rounded one (844 to 2530 ms); 100 attempts stand in for its none.",
			Policy:  Policy{FirstWait: 500, Multiplier: 1500, LongestWait: 60000, Jitter: Jitter{Kind: JitterSpread, Factor: 500}, Attempts: 100, MaxElapsed: 900000},
		},
		{
			Name: "retryablehttp", Library: "hashicorp/go-retryablehttp DefaultBackoff",
			Source:  "github.com/hashicorp/go-retryablehttp client.go (DefaultBackoff, NewClient)",
			Differs: "the client also honours a server's Retry-After, which no model here sends.",
			Policy:  Policy{FirstWait: 1000, Multiplier: 2000, LongestWait: 30000, Jitter: Jitter{Kind: JitterNone}, Attempts: 5},
		},
		{
			Name: "client-go", Library: "k8s.io/client-go retry.DefaultBackoff",
			Source:  "k8s.io/client-go util/retry/util.go; k8s.io/apimachinery pkg/util/wait/backoff.go",
			Differs: "the library has no cap; here the longest wait is an hour, far above the 275 ms its three retries can reach; it draws below d+δ, here up to it.",
			Policy:  Policy{FirstWait: 10, Multiplier: 5000, LongestWait: NoCap, Jitter: Jitter{Kind: JitterUp, Factor: 100}, Attempts: 4},
		},
		{
			Name: "envoy", Library: "Envoy's router retry back-off",
			Source:  "envoyproxy/envoy source/common/router/retry_state_impl.cc; source/common/common/backoff_strategy.cc",
			Differs: "Envoy draws below the cap (random % interval), never up to it; here the draw may reach it.",
			Policy:  Policy{FirstWait: 25, Multiplier: 2000, LongestWait: 250, Jitter: Jitter{Kind: JitterFull}, Attempts: 2},
		},
		{
			Name: "polly", Library: "Polly v8 RetryStrategyOptions defaults",
			Source:  "App-vNext/Polly src/Polly.Core/Retry/RetryConstants.cs, RetryStrategyOptions.TResult.cs",
			Differs: "Polly's jittered exponential back-off (DecorrelatedJitterBackoffV2) is a formula of its own; its defaults, used here, have no jitter.",
			Policy:  Policy{FirstWait: 2000, Multiplier: 1000, LongestWait: 2000, Jitter: Jitter{Kind: JitterNone}, Attempts: 4},
		},
	}
	for i := range ps {
		ps[i].Policy.Name = ps[i].Name
	}
	return ps
}

// FindPreset returns the preset of that name, in any case.
func FindPreset(name string) (Preset, bool) {
	for _, p := range Presets() {
		if strings.EqualFold(p.Name, name) {
			return p, true
		}
	}
	return Preset{}, false
}

// PresetNames is the presets' names for a message: "grpc, aws, ... or polly".
func PresetNames() string {
	var names []string
	for _, p := range Presets() {
		names = append(names, p.Name)
	}
	return strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
}

// Policy returns shape sh over these settings: their first wait, longest
// wait, attempts and limit on total time, with the shape's multiplier and
// jitter.
func (s Settings) Policy(sh Shape) Policy {
	return Policy{Name: sh.String(), FirstWait: s.FirstWait, LongestWait: s.LongestWait, Multiplier: sh.multiplier(),
		Jitter: sh.jitter(), Attempts: s.Attempts, MaxElapsed: s.MaxElapsed}
}

// Custom is the policy of one's own: its own first wait, longest wait,
// attempts and limit on total time (each the settings' five's where it has
// none, Follow), and the settings' multiplier, growth and jitter. It is
// named after the preset it equals, if any, else "custom".
func (s Settings) Custom() Policy {
	p := Policy{Name: "custom", FirstWait: s.Value(CustomFirstWait), LongestWait: s.Value(CustomLongestWait), Multiplier: s.Multiplier,
		Growth: s.Growth, Jitter: s.Jitter, Attempts: s.Value(CustomAttempts), MaxElapsed: s.Value(CustomMaxElapsed)}
	for _, pr := range Presets() {
		if pr.Policy.Same(p) {
			p.Name = pr.Name
		}
	}
	return p
}

// WithPreset returns the settings with the preset's policy as the custom
// one: its first wait, longest wait, attempts and limit become custom's
// own, and its multiplier, growth and jitter custom's. The five's waits
// are left as they are.
func (s Settings) WithPreset(pr Preset) Settings {
	p := pr.Policy
	s.CustomFirstWait, s.CustomLongestWait, s.CustomAttempts, s.CustomMaxElapsed = p.FirstWait, p.LongestWait, p.Attempts, p.MaxElapsed
	s.Multiplier, s.Growth, s.Jitter = p.Multiplier, p.Growth, p.Jitter
	return s
}

// Five returns the five shapes over these settings, in the reference's
// order.
func (s Settings) Five() []Policy {
	out := make([]Policy, NumShapes)
	for i, sh := range Shapes() {
		out[i] = s.Policy(sh)
	}
	return out
}

// BreakerPreset is a circuit breaker with the defaults of a library people
// run, where the library opens after a number of consecutive failures.
type BreakerPreset struct {
	Name    string // what a user types: "gobreaker"
	Library string // which library and which of its settings
	Source  string // the source files the defaults come from
	Differs string // where our model and the library part, in one line
	Breaker Breaker
}

// BreakerPresets returns the breaker presets in the order --help lists
// them. Each number, with the source it comes from:
//
//   - gobreaker: github.com/sony/gobreaker gobreaker.go (v1.0.0, and
//     v2.4.0's gobreaker.go alike): defaultReadyToTrip trips on
//     counts.ConsecutiveFailures > 5, so the 6th failure in a row opens it
//     (F = 6); defaultTimeout is 60 s open (D = 60,000 ms); MaxRequests 0
//     means 1, one request half-open: the probe.
//   - failsafe-go: github.com/failsafe-go/failsafe-go (v0.9.8)
//     circuitbreaker/circuitbreakerbuilder.go NewBuilder: failureThreshold
//     1 of failureThresholdingCapacity 1, so one failure opens it (F = 1),
//     and a Delay of time.Minute (D = 60,000 ms); circuitstates.go
//     newHalfOpenState permits that capacity, one execution, half-open.
func BreakerPresets() []BreakerPreset {
	return []BreakerPreset{
		{
			Name: "gobreaker", Library: "sony/gobreaker NewCircuitBreaker defaults (ReadyToTrip, Timeout, MaxRequests)",
			Source:  "github.com/sony/gobreaker gobreaker.go (defaultReadyToTrip, defaultTimeout, NewCircuitBreaker)",
			Differs: "gobreaker ignores every outcome of a request sent before its state last changed (a generation); here, once closed again, a late outcome counts.",
			Breaker: Breaker{Failures: 6, Open: 60000},
		},
		{
			Name: "failsafe-go", Library: "failsafe-go circuitbreaker.NewBuilder defaults (failure threshold, delay)",
			Source:  "github.com/failsafe-go/failsafe-go circuitbreaker/circuitbreakerbuilder.go (NewBuilder), circuitbreaker/circuitstates.go (newHalfOpenState)",
			Differs: "failsafe-go counts its threshold over the last executions (here 1 of 1, the same as one failure in a row) and may jitter its delay; here the delay is exact.",
			Breaker: Breaker{Failures: 1, Open: 60000},
		},
	}
}

// FindBreakerPreset returns the breaker preset of that name, in any case,
// with _ or a space for its hyphen.
func FindBreakerPreset(name string) (BreakerPreset, bool) {
	key := strings.NewReplacer("_", "-", " ", "-").Replace(strings.TrimSpace(name))
	for _, p := range BreakerPresets() {
		if strings.EqualFold(p.Name, key) {
			return p, true
		}
	}
	return BreakerPreset{}, false
}

// BreakerPresetValues names each breaker preset with its F:D, for help:
// "gobreaker (6:60s), failsafe-go (1:60s)".
func BreakerPresetValues() string {
	var names []string
	for _, p := range BreakerPresets() {
		names = append(names, p.Name+" ("+p.Breaker.String()+")")
	}
	return strings.Join(names, ", ")
}

// BreakerPresetNames is the breaker presets' names for a message:
// "gobreaker or failsafe-go".
func BreakerPresetNames() string {
	var names []string
	for _, p := range BreakerPresets() {
		names = append(names, p.Name)
	}
	return strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
}
