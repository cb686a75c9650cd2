package backoff_test

import (
	"fmt"

	"github.com/retryplanner/retry-planner/backoff"
)

// Client 1's waits at the reference's defaults.
func ExampleWaits() {
	s := backoff.Defaults()
	for _, p := range []backoff.Policy{backoff.Exponential, backoff.FullJitter, backoff.Decorrelated} {
		fmt.Println(p, backoff.Waits(p, s, 1))
	}
	fmt.Println("client 2,", backoff.FullJitter, backoff.Waits(backoff.FullJitter, s, 2))
	// Output:
	// exponential [1000 2000 4000 8000 16000]
	// full jitter [152 1365 2280 5697 4600]
	// decorrelated [1183 2524 4995 12745 16000]
	// client 2, full jitter [178 1306 1622 122 274]
}

// The crowd at the reference's defaults: 200 clients, back at 10000 ms.
func ExampleRunCrowds() {
	for _, c := range backoff.RunCrowds(backoff.Defaults()) {
		most, slot := c.Busiest()
		fmt.Printf("%-12s retries %4d, busiest slot %3d from %4d ms, all through by %5d ms, %3d gave up\n",
			c.Policy, c.Retries, most, slot*c.Slot, c.LastThrough, c.GaveUp)
	}
	// Output:
	// fixed        retries 1000, busiest slot 200 from 1000 ms, all through by    -1 ms, 200 gave up
	// exponential  retries  800, busiest slot 200 from 1000 ms, all through by 15000 ms,   0 gave up
	// full jitter  retries  962, busiest slot  28 from  400 ms, all through by 24563 ms,  36 gave up
	// equal jitter retries  848, busiest slot  44 from  600 ms, all through by 25666 ms,   0 gave up
	// decorrelated retries  770, busiest slot  15 from 2400 ms, all through by 25330 ms,  19 gave up
}

// With a first wait of 100 ms, a jittered crowd's busiest slot is no lower
// than exponential's: the waits are short against the 100 ms slot.
func ExampleRunCrowd() {
	s := backoff.Defaults()
	s.FirstWait = 100
	for _, p := range []backoff.Policy{backoff.Exponential, backoff.FullJitter, backoff.EqualJitter, backoff.Decorrelated} {
		most, _ := backoff.RunCrowd(p, s).Busiest()
		fmt.Println(p, most)
	}
	// Output:
	// exponential 200
	// full jitter 250
	// equal jitter 195
	// decorrelated 119
}
