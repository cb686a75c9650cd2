package cli

import "github.com/spf13/cobra"

// timelineCommand is "timeline": a crowd's retries and attempts, slot by
// slot.
func timelineCommand() reportCommand {
	return reportCommand{
		name: "timeline",
		help: commandHelp{
			use:   "timeline --policy P|all [--policies L] [FLAGS]",
			short: "a crowd's retries and attempts, slot by slot",
			long: `The crowd's retries over time under policy P: how many fall in each row of
time, as a row of # for every row that has any. With a capacity, a load or
a budget, every row's attempts by outcome (served, rejected, failed while
down) and its capacity too. --policy all, or --policies, puts several
policies side by side on one time axis. The text's tables have a row for
each row with any attempt; CSV and JSON every row up to the last with any,
empty ones too, and a report that would pass --max-output is refused before
a byte of it is written.

The crowd runs as crowd runs it, counted per --slot (100 ms unless told),
which shares out the capacity: summed over its rows, a timeline gives
crowd's retries, attempts, served, rejected and failed while down exactly.
A row only groups whole slots: --every T (default the fewest slots that
span a second, 1 s of 100 ms slots). --from back starts the rows at the
slot the service is back in, and the pictures scale to what happens
there.`,
			example: `  retry-planner timeline --policy full-jitter --clients 1000
  retry-planner timeline --policies grpc,aws --every 5s --capacity 2000
  retry-planner timeline --policy all --from back --format png --out tl.png`,
		},
		own: []ownFlag{
			{name: "policy", typ: "P", usage: "one of the five, custom, a preset, or all (side by side)", complete: completePolicy(true)},
			{name: "policies", typ: "L", usage: "policies separated by commas, side by side on one time axis", complete: completePolicyList},
			{name: "every", typ: "T", usage: "a row's width, a whole number of slots (default the fewest slots that span a second)",
				complete: completeTime},
			{name: "from", typ: "F", usage: "where the rows start: start (0 ms, the default) or back (the slot the service is back in)",
				complete: cobra.FixedCompletions([]string{"start", "back"}, cobra.ShellCompDirectiveNoFileComp)},
			{name: "max-output", typ: "M", usage: "refuse to write more: a size such as 500MB or 4GB, or none (default 1GB)"},
		},
		slot:     true,
		pictures: true,
	}
}
