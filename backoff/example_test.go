package backoff_test

import (
	"fmt"

	"github.com/retryplanner/retry-planner/backoff"
)

// Client 1's waits at the reference's defaults.
func ExampleWaits() {
	s := backoff.Defaults()
	for _, sh := range []backoff.Shape{backoff.Exponential, backoff.FullJitter, backoff.Decorrelated} {
		fmt.Println(sh, backoff.Waits(s.Policy(sh), s, 1))
	}
	fmt.Println("client 2,", backoff.FullJitter, backoff.Waits(s.Policy(backoff.FullJitter), s, 2))
	// Output:
	// exponential [1000 2000 4000 8000 16000]
	// full jitter [152 1365 2280 5697 4600]
	// decorrelated [1183 2524 4995 12745 16000]
	// client 2, full jitter [178 1306 1622 122 274]
}

// The crowd at the reference's defaults: 200 clients, back at 10000 ms.
func ExampleRunAll() {
	s := backoff.Defaults()
	results, _ := backoff.RunAll(s.Five(), s, backoff.Options{}, 2)
	for _, r := range results {
		f := r.Figures
		fmt.Printf("%-12s retries %4d, busiest slot %3d from %4d ms, all through by %5d ms, %3d gave up\n",
			r.Policy, f.Retries, f.MostInASlot, f.BusiestSlotFrom, f.AllThroughBy, f.GaveUp)
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
func ExampleRun() {
	s := backoff.Defaults()
	s.FirstWait = 100
	for _, sh := range []backoff.Shape{backoff.Exponential, backoff.FullJitter, backoff.EqualJitter, backoff.Decorrelated} {
		r, _ := backoff.Run(s.Policy(sh), s, backoff.Options{})
		fmt.Println(sh, r.Figures.MostInASlot)
	}
	// Output:
	// exponential 200
	// full jitter 250
	// equal jitter 195
	// decorrelated 119
}

// The defaults with independent draws: the busiest slot of full jitter is
// a single draw like any other (see RunSeeds for the spread).
func ExampleDraws() {
	s := backoff.Defaults()
	for _, d := range []backoff.Draws{backoff.Reference, backoff.Independent} {
		s.Draws = d
		r, _ := backoff.Run(s.Policy(backoff.FullJitter), s, backoff.Options{})
		fmt.Println(d, r.Figures.MostInASlot)
	}
	// Output:
	// reference 28
	// independent 29
}
