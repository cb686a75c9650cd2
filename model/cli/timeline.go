package cli

// timelineCommand is "timeline": a crowd's retries and attempts, slot by
// slot.
func timelineCommand() reportCommand {
	return reportCommand{
		name: "timeline",
		help: commandHelp{
			use:   "timeline --policy P|all [--policies L] [FLAGS]",
			short: "a crowd's retries and attempts, slot by slot",
			long: `The crowd's retries over time under policy P: how many fall in each slot,
as a row of # for every slot that has any. With a capacity, a load or a
budget, every slot's attempts by outcome (served, rejected, failed while
down) and its capacity too. --policy all, or --policies, puts several
policies side by side on one time axis. The slot is 1 s unless --slot or a
plan sets it.`,
			example: `  retry-planner timeline --policy full-jitter --slot 100ms --clients 1000
  retry-planner timeline --policy all --format png --out timeline.png`,
		},
		own: []ownFlag{
			{name: "policy", typ: "P", usage: "one of the five, custom, a preset, or all (side by side)", complete: completePolicy(true)},
			{name: "policies", typ: "L", usage: "policies separated by commas, side by side on one time axis", complete: completePolicyList},
		},
		slot:     true,
		pictures: true,
	}
}
