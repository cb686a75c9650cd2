package main

// usage is the program's --help.
const usage = `Retry Planner: how long clients wait between retries, and what a crowd of them
does to a service that comes back after an outage.

Usage:
  retry-planner [SETTINGS]                  the full-screen program (a terminal)
  retry-planner --plain [SETTINGS]          the line menu, for scripts and pipes
  retry-planner COMMAND [FLAGS] [SETTINGS]  one report, then exit
  retry-planner help [COMMAND]              this text, or a command's

Commands:
  schedule --policy P [--client N]  one client's retries: attempt, wait, at
  crowd [--seeds N]                 the five policies' crowd table, or the
                                    median, p95 and worst over N seeds
  timeline --policy P [--slot T]    a crowd's retries per slot (1 s unless told)
  jobs NAME:FAILURES ...            jobs through a retry loop, and the ledger

Every command takes --format text|csv|json (text unless told). Text is what
--plain writes for the same figures; CSV has one header row; JSON is one
document. Times are whole milliseconds; an empty CSV field or a JSON null is
a time that does not exist (no client got through). Run COMMAND --help for
its columns.

Settings, before or after the command, in every mode [default]:
  --first-wait T   the wait before the first retry: 1 to 10000 ms [1000]
  --longest T      no wait is longer: the first wait to 600000 ms [16000]
  --attempts N     tries per client, the first included: 2 to 12 [6]
  --clients N      how many clients fail together: 1 to 1000 [200]
  --outage T       a retry at or after this gets through: 0 to 600000 ms [10000]
  --seed N         seeds every client's draws: 0 to 999999 [7]
  --slot T         the crowd counts retries per slot this wide: 1 to 600000 ms
                   [100; timeline 1000]; not for schedule or jobs
A number N is 1 to 7 digits, no sign. A time T is whole milliseconds (1000)
or a duration in whole ms (1s, 250ms, 2m), no sign. Write a flag --name value
or --name=value; no value is empty; -- ends the flags.

Examples:
  retry-planner schedule --policy full-jitter --client 2
  retry-planner crowd --clients 1000 --outage 1m --format csv
  retry-planner crowd --seeds 1000 --format json
  retry-planner timeline --policy "equal jitter" --slot 100ms
  retry-planner jobs alpha:0 bravo:2 charlie:9 delta:fatal --attempts 4
  retry-planner --plain --first-wait 100 < answers.txt

Exit status: 0 when done (q or ctrl+c in the full-screen program, the end of
--plain's input); 1 when the screen or a report cannot be written; 2 for a
command line the program cannot run, said in one line on standard error;
128 plus the signal for a signal that ends the program (SIGHUP 129, SIGINT
130, SIGTERM 143): the full-screen program puts the terminal back first.
`

// commandHelp is each command's --help.
func commandHelp(name string) string {
	switch name {
	case "schedule":
		return `Usage: retry-planner schedule --policy P [--client N] [--format F] [SETTINGS]

One client's retries under policy P: each retry's attempt number, the wait
before it, and when it happens, in ms after the first attempt at 0 ms. Each
client draws its own waits, from the seed and its number.

  --policy P   fixed, exponential, full jitter, equal jitter or decorrelated
               (full-jitter and equal-jitter need no quotes); required
  --client N   which client: 1 to --clients [1]
  --format F   text, csv or json [text]

CSV columns: attempt,wait_ms,at_ms (the first attempt, at 0 ms, has no row).
JSON: {"settings", "policy", "client", "retries": [{"attempt", "wait_ms",
"at_ms"}], "total_ms"}; see the README.
Settings: --first-wait, --longest, --attempts, --clients, --outage, --seed;
see retry-planner --help.

Example:
  retry-planner schedule --policy decorrelated --client 3 --attempts 8 --format csv
`
	case "crowd":
		return `Usage: retry-planner crowd [--seeds N] [--format F] [SETTINGS]

The crowd: every client fails at 0 ms and retries on its own schedule; a
retry at or after the outage's end gets through. For each policy: retries in
all, the most in one slot and the slot's start, when the last client got
through ("-" if none did), and how many clients gave up.

With --seeds N, the crowd runs for seeds S to S+N-1 (S is --seed) and each
figure is reported as its median, 95th percentile and worst over the seeds,
so a reader sees the spread, not one draw. Percentiles are nearest-rank: each
is a figure some seed gave. Worst is the most retries, the most in a slot,
the latest time all got through, the most who gave up; a seed in which no
client got through counts as later than any time.

  --seeds N    1 to 10000 seeds; without it, the table of seed S alone
  --slot T     count retries per slot this wide [100 ms]
  --format F   text, csv or json [text]

CSV columns: policy,retries,most_in_a_slot,busiest_slot_from_ms,
all_through_by_ms,gave_up. With --seeds: policy, then _median, _p95 and
_worst of retries, most_in_a_slot, all_through_by (_ms) and gave_up, then
seeds_none_through.
Settings: --first-wait, --longest, --attempts, --clients, --outage, --seed;
see retry-planner --help.

Examples:
  retry-planner crowd --clients 1000 --format csv
  retry-planner crowd --seeds 1000 --seed 1 --slot 1s --format json
`
	case "timeline":
		return `Usage: retry-planner timeline --policy P [--slot T] [--format F] [SETTINGS]

The crowd's retries over time under policy P: how many fall in each slot,
for every slot that has any, as a row of # in text.

  --policy P   fixed, exponential, full jitter, equal jitter or decorrelated
               (full-jitter and equal-jitter need no quotes); required
  --slot T     slot width [1s, as --plain's retries over time]
  --format F   text, csv or json [text]

CSV columns: from_ms,retries.
JSON: {"settings", "policy", "slot_ms", "retries", "slots": [{"from_ms",
"retries"}]}; see the README.
Settings: --first-wait, --longest, --attempts, --clients, --outage, --seed;
see retry-planner --help.

Example:
  retry-planner timeline --policy full-jitter --slot 100ms --clients 1000
`
	case "jobs":
		return `Usage: retry-planner jobs NAME:FAILURES ... [--format F] [SETTINGS]

Runs up to 8 jobs through a retry loop with exponential waits and prints how
each ended and the ledger of every attempt. A job is name:N for one that
fails its first N attempts (0 to 999), or name:fatal for one that fails with
an error no retry can cure. A malformed job is an error, and so is a name
with an invisible or direction-changing character (Unicode category Cf, such
as U+200B or U+202E). Put -- before the jobs if a name starts with a dash.

  --format F   text, csv or json [text]

CSV columns: job,attempt,outcome,wait_ms, one row per attempt; outcome is
done, retry, gave up (failed, no attempts left) or refused (cannot be
retried), so a job's last row tells how it ended.
JSON: {"settings", "jobs", "ledger": {"entries", ...}, ...}; see the README.
Settings: --first-wait, --longest, --attempts (the rest are taken and change
nothing here); see retry-planner --help.

Example:
  retry-planner jobs alpha:0 bravo:2 charlie:9 delta:fatal --attempts 4 --format json
`
	}
	return usage
}
