package cli

import (
	"fmt"

	"github.com/retryplanner/retry-planner/backoff"
)

// crowdCommand is "crowd": what a crowd of clients does to the service.
func crowdCommand() reportCommand {
	return reportCommand{
		name: "crowd",
		help: commandHelp{
			use:   "crowd [--policies L] [--seeds N] [--compare FILE] [FLAGS]",
			short: "what a crowd of clients does to the service, policy by policy",
			long: `The crowd: every client fails at 0 ms and retries on its own schedule; a
retry at or after the outage's end gets through while the service has room
(--capacity). For each policy: the retries, the busiest slot, when the last
client got through, how many never did; with a capacity, a load or a budget,
what the service did once back.

--seeds N runs seeds S to S+N-1 and gives each figure's median, 95th
percentile and worst over them, with independent draws unless
--seed-draws reference; on a terminal, standard error counts the seeds done
as they run. --compare FILE sets the crowd of a plan (A) beside this one
(B), figure by figure, with the change and whether it is better.`,
			example: `  retry-planner crowd --clients 50000 --outage 30s --capacity 2000 --load 1500
  retry-planner crowd --policies exponential,grpc,aws --seeds 100 --format json
  retry-planner crowd --policies full-jitter --save-plan before.toml
  retry-planner crowd --compare before.toml --plan before.toml --attempts 8
  retry-planner crowd --seeds 100 --format svg --out crowd.svg`,
		},
		own: []ownFlag{
			{name: "policies", typ: "L", usage: "policies separated by commas, each once: " + backoff.PolicyNames(), complete: completePolicyList},
			{name: "seeds", typ: "N", usage: fmt.Sprintf("run seeds S to S+N-1 (S is --seed) and give each figure's median, p95 and worst: 1 to %d", backoff.MaxSeeds)},
			{name: "compare", typ: "FILE", usage: "a plan (A) to set beside this crowd (B), figure by figure", complete: completePlanFile},
		},
		slot:     true,
		pictures: true,
	}
}
