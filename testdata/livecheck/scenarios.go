package livecheck

import (
	"fmt"

	"github.com/retryplanner/retry-planner/backoff"
)

// The storms are all at compressed time: a crowd of 500 clients failing
// together at 0 ms, an outage of 2.5 s, 100 ms slots. "Below the storm" is
// a capacity the crowd's retries exceed after the outage (150 or 200 a
// second: 15 or 20 a slot, against peaks of 35 to 500); "above" is 6000 a
// second, 600 a slot, more than any of these storms brings to a slot, so
// that nothing is rejected. The fresh load is 200 requests a second until
// 4.5 s (900 clients of their own), arriving during the outage and for 2 s
// after it.
const (
	crowd     = 500
	outage    = 2500
	slot      = 100
	above     = 6000
	freshLoad = 200
	freshEnd  = 4500
)

func storm(name string, k Kind, capacity, load int) Scenario {
	sc := Scenario{Name: name, Kind: k, Clients: crowd, Outage: outage, Slot: slot, Capacity: capacity}
	if load > 0 {
		sc.Load, sc.LoadUntil = load, freshEnd
	}
	return sc
}

// FullTable is the full table's scenarios: every kind of client, with the
// capacity below and above the storm, with and without the fresh load,
// and cenkalti v5 with a limit on total time that binds.
func FullTable() []Scenario {
	var out []Scenario
	for _, k := range Kinds() {
		below := 200
		if k == RetryableDefault {
			below = 300
		}
		out = append(out,
			storm(fmt.Sprintf("%s, C%d", k, below), k, below, 0),
			storm(fmt.Sprintf("%s, C150, load", k), k, 150, freshLoad),
			storm(fmt.Sprintf("%s, C%d", k, above), k, above, 0),
			storm(fmt.Sprintf("%s, C%d, load", k, above), k, above, freshLoad),
		)
	}
	limited := storm("cenkalti v5, C200, 3 s limit", CenkaltiV5, 200, 0)
	limited.Custom = CenkaltiV5.Policy()
	limited.Custom.MaxElapsed = 3000
	return append(out, limited)
}

// ShortTable is the short version run by go test: three jittered clients
// with the capacity below the storm and the fresh load, where the model's
// own spread over seeds lies inside the tolerances (so that one live run
// can be held to them), the lockstep herd, whose difference from the
// model goes one way, and the full-jitter clients with a breaker in each
// of 50 processes (BreakerTable's third), the breakers' spread over seeds
// within the tolerances too.
func ShortTable() []Scenario {
	return []Scenario{
		storm("planner full jitter, C150, load", PlannerFullJitter, 150, freshLoad),
		storm("cenkalti v5, C150, load", CenkaltiV5, 150, freshLoad),
		storm("retryablehttp linear, C150, load", RetryableLinear, 150, freshLoad),
		storm("retryablehttp default, C300", RetryableDefault, 300, 0),
		BreakerTable()[2],
	}
}

// QueueTable is MODEL.md section 6's storms, smaller than the others (a
// timed-out attempt closes its connection, and the next one opens
// another, which costs the machine more than an answer): 300 clients, a
// service that queues up to 40 requests, served at 200 a second, clients
// that give up on an attempt after 150 ms, and a fresh load of 100 a
// second, half the capacity, until 5 s after the outage. First in, first
// out, and the service working on expired requests for nothing: a full
// queue takes 200 ms to work off, more than the timeout, so the wasted
// work keeps the queue full long after the crowd is gone, a metastable
// failure, stuck until the load ends. Dropping expired requests, or taking
// the newest first, the service is back within about 3 s of the outage's
// end. The simulator runs them with the planner's queue.
func QueueTable() []Scenario {
	q := func(name string, order QueueOrder, drop bool) Scenario {
		return Scenario{Name: name, Kind: PlannerFullJitter, Clients: 300, Outage: outage, Slot: slot, Capacity: 200,
			Load: 100, LoadUntil: outage + 5000, Queue: Queue{Size: 40, Timeout: 150, DropExpired: drop, Order: order}}
	}
	return []Scenario{
		q("queue fifo, wasted (metastable)", FIFO, false),
		q("queue fifo, drop expired", FIFO, true),
		q("queue lifo, wasted", LIFO, false),
	}
}

// BreakerTable is MODEL.md section 7's circuit breakers on the clients of
// the storms with the capacity below the storm and the fresh load (1,400
// clients): one breaker for them all, opening after 20 failures in a row
// for 500 ms, or 5 for 2 s; 5:200 ms in each of 10 processes of 140
// clients, and of 50 processes of 28; and a breaker of each client's own,
// 2:300 ms. The live clients' breakers short-circuit attempts without
// sending them. A breaker shared by many clients makes a storm hang on a
// few probes: over the simulator's seeds, clients through spread from 3%
// to over 30% from the median with one breaker or 10, wider than the
// tolerance of 3%, and 2% or less with 50, or a breaker a client.
func BreakerTable() []Scenario {
	b := func(k Kind, br backoff.Breaker, procs int) Scenario {
		sc := storm(fmt.Sprintf("%s, C150, load, breaker %v", k, br), k, 150, freshLoad)
		sc.Breaker, sc.Processes = br, procs
		switch {
		case procs == sc.AllClients():
			sc.Name += ", one a client"
		case procs > 1:
			sc.Name += fmt.Sprintf(" in %d processes", procs)
		}
		return sc
	}
	perClient := crowd + freshLoad*freshEnd/1000
	return []Scenario{
		b(PlannerFullJitter, backoff.Breaker{Failures: 20, Open: 500}, 1),
		b(PlannerFullJitter, backoff.Breaker{Failures: 5, Open: 200}, 10),
		b(PlannerFullJitter, backoff.Breaker{Failures: 5, Open: 200}, 50),
		b(PlannerFullJitter, backoff.Breaker{Failures: 2, Open: 300}, perClient),
		b(CenkaltiV5, backoff.Breaker{Failures: 5, Open: 200}, 10),
		b(CenkaltiV5, backoff.Breaker{Failures: 5, Open: 200}, 50),
		b(CenkaltiV5, backoff.Breaker{Failures: 5, Open: 2000}, 1),
		b(CenkaltiV5, backoff.Breaker{Failures: 2, Open: 300}, perClient),
		b(RetryableLinear, backoff.Breaker{Failures: 20, Open: 500}, 1),
	}
}
