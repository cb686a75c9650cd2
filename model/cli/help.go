package cli

import (
	"fmt"
	"strings"

	vpicture "github.com/retryplanner/retry-planner/views/picture"

	"github.com/retryplanner/retry-planner/backoff"
	"github.com/retryplanner/retry-planner/views/words"
)

// usage is the program's --help.
func usage() string {
	return `Retry Planner: how long clients wait between retries, and what a crowd of them
does to a service that comes back after an outage.

Usage:
  retry-planner [SETTINGS]                  the full-screen program (a terminal)
  retry-planner --plain [SETTINGS]          the original program's line menu
  retry-planner COMMAND [FLAGS] [SETTINGS]  one report, then exit
  retry-planner help [COMMAND|presets]      this text, a command's, or the presets'
  retry-planner --version                   the version, from the build

Commands:
  schedule --policy P [--client N]    one client's retries: attempt, wait, at,
                                      the band it is drawn from, the outcome
  crowd [--policies L] [--seeds N]    the crowd table of the policies (the five,
                                      and custom if defined), or the median,
                                      p95 and worst over N seeds
  crowd --compare FILE                the plan in FILE (A) against this one (B),
                                      figure by figure, marked better or worse
  timeline --policy P|all [--slot T]  a crowd's retries and attempts per slot
                                      (1 s unless told); all: side by side
  jobs [--policy P] NAME:FAILURES ... jobs through a retry loop, and the ledger

Policies, for --policy and --policies (a list with commas): fixed, exponential,
full jitter, equal jitter, decorrelated; custom, the settings' own (--preset,
--multiplier, --jitter); or a preset by its name (below). Names and --format
take any case, and - or _ for a space (full-jitter).

Every command takes --format text|csv|json (text unless told). Text starts
with what --plain writes for the same figures and adds lines after it (the
schedule's lines go on with each retry's band and outcome); CSV has one
header row; JSON is one document. Times are whole milliseconds; an empty CSV
field or a JSON null is a figure that does not exist (no client got through).
Run COMMAND --help for its columns.

Every command also takes:
  --out FILE        write the report to FILE instead of standard output
  --save-plan FILE  write the plan the report ran to FILE: every setting, the
                    policies it ran, the seeds and the spread's draws, in TOML
                    with a comment on every key; load it with --plan
  --force           let --out and --save-plan overwrite a file; without it a
                    file that is there is refused (exit 2) and nothing written
` + pictureHelp() + `
Settings, before or after the command, in every mode [default]:
` + settingsHelp() + `
A number N is digits and nothing else (no sign, no spaces, at most 10). A time
T is whole milliseconds (1000) or a duration in whole ms (1s, 250ms, 1m30s), no
sign. Write a flag --name value or --name=value; no value is empty; -- ends the
flags. Flags are applied in order: --preset, then what follows it, wins.

Presets (retry-planner help presets for each one's waits and formula):
` + presetsShort() + `
Examples:
  retry-planner schedule --policy full-jitter --client 2
  retry-planner crowd --clients 1000 --outage 1m --format csv
  retry-planner crowd --policies exponential,grpc,aws --capacity 500 --load 100
  retry-planner crowd --seeds 1000 --format json
  retry-planner crowd --seeds 1000 --seed-draws reference
  retry-planner timeline --policy all --slot 500ms --format csv
  retry-planner jobs --policy grpc alpha:0 bravo:2 charlie:9 delta:fatal
  retry-planner crowd --clients 1000 --capacity 500 --save-plan storm.toml
  retry-planner --plan storm.toml crowd --attempts 8
  retry-planner crowd --compare storm.toml --plan storm.toml --attempts 8
  retry-planner crowd --format csv --out crowd.csv --force
  retry-planner timeline --policy all --format svg --out timeline.svg
  retry-planner crowd --seeds 100 --format png --width 1200 --out crowd.png
  retry-planner --plain --first-wait 100 < answers.txt

Scripts should use the reports: a bad command line or value exits 2 with one
line on standard error and nothing on standard output. --plain is the original
program's screen, byte for byte: it answers a bad answer as the original does
and asks again, and exits 0 at the end of its input.

Exit status: 0 when done (q or ctrl+c in the full-screen program, the end of
--plain's input); 1 when the screen, a report or its file cannot be written;
2 for a command line the program cannot run (a plan that does not decode, a
file to write that is there without --force), said in one line on standard
error;
128 plus the signal for a signal that ends the program (SIGHUP 129, SIGINT
130, SIGTERM 143): the full-screen program puts the terminal back first.
`
}

// pictureHelp is what the pictures are, and their sizes.
func pictureHelp() string {
	return fmt.Sprintf(`crowd and timeline also take --format svg|png, a picture for a design
document (the timeline's retries over time, a panel per policy; the crowd's
figures as bars, with --seeds the median and a whisker to the 95th
percentile), and its size, --width N and --height N: %[1]d to %[2]d, points
for svg, pixels for png [%[3]d points wide, as tall as its panels need; a png
twice as many pixels]. A png is not written to a terminal: use --out or
redirect.
`, vpicture.MinPictureSide, vpicture.MaxPictureSide, vpicture.DefaultPictureWidth)
}

// settingsHelp is the settings flags, each with its range (the wide one;
// --plain's where it differs) and its default.
func settingsHelp() string {
	return fmt.Sprintf(`  --plan FILE      every setting from a plan (a TOML file, as --save-plan or
                   the full-screen program's s key writes it), and for crowd
                   its policies and seeds (timeline --policy all runs its
                   policies; the full-screen program takes its seeds, and its
                   first preset as its own policy unless it names custom):
                   flags after it override it, flags before it give way to
                   it; not with --plain. A plan that does not decode is
                   refused, naming its file, line and rule (plan.toml:7: ...)
  --first-wait T   the wait before the first retry: 1 to %[1]d ms [1000]
  --longest T      no base wait is longer: the first wait to %[1]d ms [16000]
  --attempts N     tries per client, the first included: 2 to %[2]d [6]
  --clients N      how many clients fail together: 1 to %[3]d [200]
  --outage T       the service is down before this: 0 to %[4]d ms [10000]
  --seed N         seeds every client's draws: 0 to 999999 [7]
  --slot T         the crowd counts per slot this wide: 1 to %[1]d ms
                   [100; timeline 1000 unless --slot or a plan sets it]; not
                   for schedule or jobs
  With --plain these keep the original program's ranges: first wait 1 to
  10000 ms, longest to 600000 ms, attempts 2 to 12, clients 1 to 1000,
  outage 0 to 600000 ms, slot 1 to 600000 ms. --plain takes none of the
  settings below: it refuses them.
  The policy of one's own, custom:
  --preset NAME    sets the first wait, longest wait, multiplier, jitter,
                   attempts and limit to a preset's (any case)
  --multiplier X   each base wait is the one before times X, up to the longest:
                   1 to 10, at most three decimals (1.6) [2]
  --jitter J       none; full (0 to d); equal (d/2 to d); decorrelated (first to
                   3 x the previous wait); spread:F (d - Fd to d + Fd); up:F (d
                   to d + Fd); F from 0.001 to 1, d the base wait [none]
  --max-elapsed T  a client of the five or custom stops when its next attempt
                   would come more than T after its first: 0 (no limit) to
                   %[4]d ms [0]
  The draws:
  --draws D        reference (the original program's generator: a draw never
                   lands more than 65535 ms above its band's low end, and
                   clients' draws fall on a lattice) or independent (math/rand/v2
                   PCG, a generator per client) [reference]; without
                   --seed-draws, the spread's draws too
  --seed-draws D   the draws of the crowd over many seeds (crowd --seeds, the
                   full-screen program's spread): reference or independent
                   [independent, or --draws's]
  The service, once it is back (crowd and timeline):
  --capacity N     requests it serves a second: 0 (no limit) to %[5]d [0]
  --load N         fresh requests a second: 0 (none) to %[6]d [0], at most
                   %[7]d in all
  --load-until T   when the fresh load stops: 0 to %[4]d ms [the outage + 60 s]
  --budget B       %[8]s [none]
  --processes N    the clients are spread over N processes, each with its own
                   budget: 1 to %[9]d [1]`,
		backoff.MaxWait, backoff.MaxAttempts, backoff.MaxClients, backoff.MaxTime, backoff.MaxCapacity, backoff.MaxLoad,
		backoff.MaxFreshRequests, budgetHelp(), backoff.MaxProcesses)
}

func budgetHelp() string {
	return `none; grpc:MAX:RATIO (gRPC's retryThrottling: MAX
                   1 to 1000 tokens, RATIO 0.001 to 1); aws:QUOTA:COST (the AWS
                   SDKs' retry quota, 1 to 1000000 tokens each; standard mode
                   is aws:500:5)`
}

// presetsShort is each preset in one line, its library and source file,
// and where our model differs from the library.
func presetsShort() string {
	var b strings.Builder
	for _, pr := range backoff.Presets() {
		fmt.Fprintf(&b, "  %-14s %s (%s)\n", pr.Name, pr.Library, pr.Source)
		if pr.Differs != "" {
			fmt.Fprintf(&b, "  %-14s differs: %s\n", "", pr.Differs)
		}
	}
	return b.String()
}

// presetsHelp is "help presets": each preset's waits, formula, library,
// source and where our model differs.
func presetsHelp() string {
	var b strings.Builder
	b.WriteString(`Presets: policies with the defaults of libraries people run, as our model says
them. Use one with --policy NAME or --policies a,NAME, or make it the custom
policy with --preset NAME (later flags override its settings).

`)
	for _, pr := range backoff.Presets() {
		fmt.Fprintf(&b, "%s: %s\n", pr.Name, pr.Library)
		fmt.Fprintf(&b, "  %s\n", pr.Policy.Describe())
		fmt.Fprintf(&b, "  %s\n", words.Formula(pr.Policy))
		fmt.Fprintf(&b, "  source: %s\n", pr.Source)
		if pr.Differs != "" {
			fmt.Fprintf(&b, "  differs: %s\n", pr.Differs)
		}
		b.WriteString("\n")
	}
	b.WriteString("Example:\n  retry-planner crowd --policies exponential,grpc,aws,cenkalti --format csv\n")
	return b.String()
}

// formulas is each of the five's wait and each preset's, one line each.
func formulas() string {
	var b strings.Builder
	s := backoff.Defaults()
	for _, p := range s.Five() {
		fmt.Fprintf(&b, "  %-14s %s\n", p.Name, words.Formula(p))
	}
	for _, pr := range backoff.Presets() {
		fmt.Fprintf(&b, "  %-14s %s\n", pr.Name, words.Formula(pr.Policy))
	}
	return b.String()
}

// filesHelp is the flags every report takes for files; ran is what of
// the command's a saved plan holds besides the settings.
func filesHelp(ran string) string {
	return `  --out FILE    write the report to FILE, not standard output
  --save-plan FILE  write the plan it ran to FILE, for --plan: the settings
                and ` + ran + `
  --force       let --out and --save-plan overwrite a file [refused]
`
}

// commandHelp is each command's --help.
func commandHelp(name string) string {
	switch name {
	case "presets":
		return presetsHelp()
	case "schedule":
		return `Usage: retry-planner schedule --policy P [--client N] [--format F] [FILES] [SETTINGS]

One client's retries under policy P: each retry's attempt number, the wait
before it, when it happens (in ms after the first attempt at 0 ms), the band
its wait is drawn from (the lowest and highest the policy can draw), and its
outcome against a service that is down until the outage's end: down,
through, not needed (after one got through) or past the limit (--max-elapsed).
Then how the client ends: it gets through, gives up, or runs out of time.
Each client draws its own waits, from the seed and its number.

  --policy P   one of the five, custom, or a preset; see retry-planner --help
  --client N   which client: 1 to --clients [1]
  --format F   text, csv or json [text]
` + filesHelp("the policy") + `
The wait before retry n (d is the base wait, first x multiplier^(n-1) up to
the longest):
` + formulas() + `
CSV columns: attempt,wait_ms,at_ms,low_ms,high_ms,cut_short,outcome (the first
attempt, at 0 ms, has no row; cut_short: reference draws cannot reach the
band's top).
JSON: {"settings", "policy", "policy_settings", "client", "retries":
[{"attempt", "wait_ms", "at_ms", "low_ms", "high_ms", "cut_short",
"outcome"}], "end", "through_at_ms", "made", "total_ms" (the last attempt
made), "drawn_total_ms" (the last retry drawn)}; see the README.
Settings: every settings flag but --slot; see retry-planner --help.

Examples:
  retry-planner schedule --policy decorrelated --client 3 --attempts 8 --format csv
  retry-planner schedule --policy grpc --client 3 --plan storm.toml --out grpc-3.txt
`
	case "crowd":
		return `Usage: retry-planner crowd [--policies L] [--seeds N] [--compare FILE] [--format F] [FILES] [SETTINGS]

The crowd: every client fails at 0 ms and retries on its own schedule; a
retry at or after the outage's end gets through, as long as the service has
room (--capacity). For each policy: retries in all, the most in one slot and
the slot's start, when the last client got through ("-" if none did), and how
many clients gave up; then the retries a client, the busiest slot as a rate a
second and the busiest slot once the service is back; with a capacity, a load
or a budget, a second table: when the service is back.

With --seeds N, the crowd runs for seeds S to S+N-1 (S is --seed) and each
figure is reported as its median, 95th percentile and worst over the seeds,
so a reader sees the spread, not one draw. The draws are independent unless
--seed-draws reference (or --draws reference, without --seed-draws) is
given. Percentiles are nearest-rank: each is a figure
some seed gave. Worst is the most retries, the most in a slot, the latest
time, the most who gave up; a seed in which a time does not exist (no client
got through) counts as later than any time.

With --compare FILE, the crowd of the plan in FILE (A: its settings, its
policies and its seeds) runs beside this one (B: the settings, policies and
seeds of the command line, --plan included), and for each policy both run,
matched by name, each figure of A and of B, the change from A to B and a
verdict: better, worse, same, or n/a (a figure absent on a side, or one that
is neither better nor worse: the clients, where a slot starts, a slot's
capacity). Fewer retries, attempts, rejected and gave up, a lower busiest
slot and peak after back, an earlier all through by and stable from, lower
latencies, and more served and through are better. A policy only one side
runs is listed as such. With seeds on either side, both run over seeds (the
other's count where one has none) and their medians are compared.

  --policies L  policies separated by commas, each once: the five, custom or
                presets [the five, and custom when --preset, --multiplier or
                --jitter is given]
  --seeds N     1 to 10000 seeds; without it, the table of seed S alone
  --compare F   a plan's file to set beside this crowd, as A
  --slot T      count per slot this wide [100 ms]
  --format F    text, csv, json, or svg or png for a picture: a panel per
                figure, a bar per policy (with --seeds, the median, and a
                whisker to the 95th percentile over the seeds) [text]
  --width N, --height N  the picture's size: 200 to 8000, points for svg,
                pixels for png [800 points wide, as tall as the panels need]
` + filesHelp("the policies and the seeds") + `
CSV columns: policy,retries,most_in_a_slot,busiest_slot_from_ms,
all_through_by_ms,gave_up, then every other figure of the planning model
(clients, attempts, served, rejected, failed_while_down, through, throttled,
out_of_time, peak_after_back, peak_after_back_from_ms, slot_capacity,
stable_from_ms, latency_p50_ms, latency_p99_ms, latency_max_ms),
still_overloaded, retries_per_client, most_in_a_slot_per_s,
peak_after_back_per_s, cut_short_from_attempt (where reference draws cut the
bands short) and the policy's settings (policy_first_wait_ms, ...).
With --seeds: policy, then _median, _p95 and _worst of retries,
most_in_a_slot, all_through_by (_ms) and gave_up, seeds_none_through, the same
of every other figure, seeds_still_overloaded, cut_short_from_attempt and the
policy's settings.
JSON: the same names, each policy an object; see the README.
With --compare: CSV policy,figure,a,b,change,verdict, a row for each policy
and figure (verdict "only in a" or "only in b" for a policy one side runs);
JSON {"a": {"file", "settings", "slot_ms", "seeds", "policies"}, "b": ...,
"policies": [{"policy", "in", "figures": [{"name", "a", "b", "change",
"verdict"}]}]}. An absent figure is empty or null, and so is its change.
Settings: every settings flag; see retry-planner --help.

Examples:
  retry-planner crowd --clients 1000 --format csv
  retry-planner crowd --seeds 1000 --seed 1 --slot 1s --format json
  retry-planner crowd --policies exponential,full-jitter --clients 20000 --capacity 1000 --load 900 --budget grpc:10:0.1
  retry-planner crowd --policies exponential,full-jitter --save-plan before.toml
  retry-planner crowd --compare before.toml --plan before.toml --attempts 8
  retry-planner crowd --seeds 100 --format svg --out crowd.svg
`
	case "timeline":
		return `Usage: retry-planner timeline --policy P|all [--slot T] [--format F] [FILES] [SETTINGS]

The crowd's retries over time under policy P: how many fall in each slot, as
a row of # in text for every slot that has any. With a capacity, a load or a
budget, the text adds every slot's attempts by outcome (served, rejected,
failed while down) and its capacity. --policy all, or --policies, puts
several policies side by side on one time axis.

  --policy P    one of the five, custom, a preset, or all (a plan's
                policies, or the five and custom when defined); required
                unless --policies
  --policies L  policies separated by commas, side by side
  --slot T      slot width, which the capacity counts in [1s, as --plain's
                retries over time, unless a plan sets it]
  --format F    text, csv, json, or svg or png for a picture: a panel per
                policy on one scale, each slot's attempts served, rejected
                and failed while down, the capacity and the outage's end
                [text]
  --width N, --height N  the picture's size: 200 to 8000, points for svg,
                pixels for png [800 points wide, as tall as the panels need]
` + filesHelp("the policies") + `
CSV columns: from_ms,retries,attempts,served,rejected,failed_while_down,
capacity, a row for every slot up to the last with any attempt, empty ones
too (capacity is empty without one). Side by side: the same, a row for each
policy and slot, policy first.
JSON: {"settings", "policy", "policy_settings", "slot_ms", "retries",
"attempts", "truncated", "cut_short_from_attempt", "slots": [{"from_ms",
"retries", "attempts", "served", "rejected", "failed_while_down",
"capacity"}]}; side by side:
{"settings", "slot_ms", "policies": [the same for each]}; see the README.
Settings: every settings flag; see retry-planner --help.

Examples:
  retry-planner timeline --policy full-jitter --slot 100ms --clients 1000
  retry-planner timeline --policy all --format png --out timeline.png
`
	case "jobs":
		return `Usage: retry-planner jobs [--policy P] NAME:FAILURES ... [--format F] [FILES] [SETTINGS]

Runs up to 8 jobs through a retry loop, waiting as policy P does (the
reference's exponential waits unless told; job i waits as the crowd's client
i), and prints how each ended and the ledger of every attempt. A job is
name:N for one that fails its first N attempts (0 to 999), or name:fatal for
one that fails with an error no retry can cure. Each job has a name of its
own. A malformed job is an error naming the job and the rule, and so is a
name with an invisible or direction-changing character (Unicode category Cf,
such as U+200B or U+202E). Put -- before the jobs if a name starts with a dash.

  --policy P   one of the five, custom, or a preset [exponential]
  --format F   text, csv or json [text]
` + filesHelp("the policy") + `
CSV columns: job,attempt,outcome,wait_ms, one row per attempt; outcome is
done, retry, gave up (failed, no attempts left), out of time (failed, and the
next attempt would pass the policy's limit on total time) or refused (cannot
be retried), so a job's last row tells how it ended.
JSON: {"settings", "policy", "policy_settings", "jobs", "ledger": {"entries",
...}, ...}; see the README.
Settings: every settings flag but --slot; the policy's come from --first-wait,
--longest, --attempts, --multiplier, --jitter, --max-elapsed, --preset, and
its draws from --seed and --draws; see retry-planner --help.

Examples:
  retry-planner jobs alpha:0 bravo:2 charlie:9 delta:fatal --attempts 4 --format json
  retry-planner jobs --plan storm.toml --policy grpc alpha:0 bravo:2 --out jobs.json --format json
`
	}
	return usage()
}
