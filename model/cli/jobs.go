package cli

// jobsCommand is "jobs": jobs through a retry loop, and its ledger.
func jobsCommand() reportCommand {
	return reportCommand{
		name: "jobs",
		help: commandHelp{
			use:   "jobs [--policy P] NAME:FAILURES ... [FLAGS]",
			short: "jobs through a retry loop, and the ledger of every attempt",
			long: `Runs up to 8 jobs through a retry loop, waiting as policy P does (job i
waits as the crowd's client i), and prints how each ended and the ledger of
every attempt. A job is name:N for one that fails its first N attempts (0 to
999, in 1 to 3 digits, as --plain reads them: 099 is 99, 0000 is refused),
or name:fatal for one no retry can cure. Each job has a name of its own, of
printable text with no character that does not show as itself: invisible,
blank (any but the space) or direction-changing. Put -- before the jobs if a
name starts with a dash.`,
			example: `  retry-planner jobs alpha:0 bravo:2 charlie:9 delta:fatal --attempts 4
  retry-planner jobs --policy grpc alpha:0 bravo:2 --format json`,
		},
		own: []ownFlag{
			{name: "policy", typ: "P", usage: "the policy the jobs wait by (default exponential)", complete: completePolicy(false)},
		},
		jobs: true,
	}
}
