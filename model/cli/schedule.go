package cli

// scheduleCommand is "schedule": one client's retries.
func scheduleCommand() reportCommand {
	return reportCommand{
		name: "schedule",
		help: commandHelp{
			use:   "schedule --policy P [--client N] [FLAGS]",
			short: "one client's retries: when each happens, its band and outcome",
			long: `One client's retries under policy P: each retry's attempt number, the wait
before it, when it happens (in ms after the first attempt at 0 ms), the band
its wait is drawn from, and its outcome against a service that is down
until the outage's end: down, through, not needed (after one got through) or
past the limit (--max-elapsed). Then how the client ends. Each client draws
its own waits, from the seed and its number. Every policy's formula:
retry-planner help presets; the columns: retry-planner help formats.`,
			example: `  retry-planner schedule --policy decorrelated --client 3 --attempts 8
  retry-planner schedule --policy grpc --client 3 --format csv
  retry-planner schedule --policy custom --growth linear --longest 5s`,
		},
		own: []ownFlag{
			{name: "policy", typ: "P", usage: "one of the five, custom, or a preset (retry-planner help presets)", complete: completePolicy(false)},
			{name: "client", typ: "N", usage: "which client: 1 to --clients (default 1)"},
		},
	}
}
