package cli

// The help topics' texts: the reference material of the program, in the
// binary where it cannot drift from the code it describes.

const modelTopic = `The model: the exact meaning of every figure. All times are whole
milliseconds, all counts whole numbers; floor rounds down.

DRAWS
A client's random numbers come from its own generator; u(lo, hi) is one
whole number from lo to hi.
  reference  the original program's: x = (seed*1000 + client) mod 2^32, each
             draw x = (1664525x + 1013904223) mod 2^32, giving
             lo + (x >> 16) mod (hi - lo + 1). No draw lands more than
             65535 ms above lo, so a wider band is cut short (the faces say
             where), and consecutive clients fall on a lattice, which spreads
             them more evenly than independent clients: the busiest slot is
             understated. --plain always uses it.
  independent  math/rand/v2's PCG seeded (seed, client); a draw takes
             v = Uint64(), n = hi - lo + 1, and gives lo + the high 64 bits
             of v*n, drawing again while the low 64 bits are below
             (2^64 - n) mod n (Lemire's method): the same on every machine.
             The default everywhere but --plain.

POLICIES
A policy is a first wait b, a longest wait c, a growth, a multiplier m (in
thousandths), a jitter, attempts A (the first included) and a limit on total
time E (0: none). The base wait before retry k, in microseconds so that
multipliers such as 1.6 compound as the libraries do: us(1) = 1000b,
us(k+1) = min(1000c, floor(us(k) * m / 1000)), d(k) = floor(us(k) / 1000).
Linear growth adds instead: us(k+1) = min(1000c, us(k) + 1000b), so
d(k) = min(c, kb), and m is ignored. The wait w(k), one draw per retry:
  none          d(k)
  full          u(0, d(k))
  equal         h + u(0, d(k) - h), h = floor(d(k)/2)
  decorrelated  min(c, u(b, 3 x the previous wait)), the previous starting
                at b; ignores m
  spread:F      u(d - δ, d + δ), δ = floor(d(k) x F), F in thousandths; may
                pass c
  up:F          u(d, d + δ); may pass c
The five: fixed (m 1, none), exponential (m 2, none), full jitter (m 2,
full), equal jitter (m 2, equal), decorrelated. A client whose attempt k
fails at t makes attempt k+1 at t + w(k), unless that is more than E after
its start: then it stops, out of time.

THE CROWD, THE LOAD AND THE SERVICE
Clients 1..N start at 0 ms and their first attempt fails: the outage's
trigger, whatever the outage. Fresh load: L requests a second; request j
arrives at floor(j*1000/L) ms while that is before the load's end U (the
outage + 60 s unless told), a client of its own, N+1+j, with the same
policy. The service fails every attempt before the outage's end; from then
on, with a capacity C a second, slot i = [iS, (i+1)S) serves at most
cap(i) = floor(C(i+1)S/1000) - floor(CiS/1000) attempts and rejects the
rest. Attempts are taken in increasing (time, client); a retry drawn with a
wait of 0 joins the same time in its client's place.

BUDGETS
Client n is in process (n-1) mod P; each process has its own budget. With
--processes clients, P is every client, the fresh requests included: each
has a budget of its own. When an attempt fails and attempts remain, the
budget decides whether the retry happens; when it refuses, the client
stops, throttled.
  grpc:MAX:RATIO  gRPC's retryThrottling: tokens start at MAX; a failure
                  takes 1 (never below 0), a served attempt gives RATIO
                  (never above MAX); a retry happens only while tokens >
                  MAX/2.
  aws:QUOTA:COST  the AWS SDKs' retry quota: tokens start at QUOTA; a retry
                  takes COST, and without COST tokens there is none; a served
                  retry gives COST back, a served first attempt 1.

A SERVICE THAT QUEUES (--queue Q, which needs a capacity)
Millisecond t from the outage's end on completes at most
c(t) = floor(C(t+1)/1000) - floor(Ct/1000) requests, in three steps:
  1 timeouts: every attempt sent at t - T (--timeout T; 0: never) that the
    service has not completed fails now, timed out, in client order, and its
    client goes on as after any failure. The request stays in the queue,
    expired: the service does not know its client has left.
  2 arrivals, in client order: before the outage's end an attempt fails at
    once, and so does a crowd client's first attempt; then it joins the
    queue if fewer than Q wait there, else it is rejected at once.
  3 service: while t has capacity left, the service takes the oldest
    request (--queue-order fifo) or the newest (lifo). An expired one is
    dropped without using capacity with --drop-expired, else it uses one
    unit for nothing, wasted; any other is served, and its client is
    through at t. A served attempt always waited less than T.
The run ends when nothing is pending and the queue is empty. Slots still
count retries and attempts (at arrival); they no longer bound capacity.

THE CLIENT'S GUARDS, AND OUTAGES THAT HANG (each off by default)
  --outage-hang H  an attempt sent while the service is down, and a crowd
                   client's first attempt, fails at t + H, not at t (a
                   partition: the client's connect timeout); it counts at t,
                   in failed_while_down, fails even if the service is back
                   by t + H, is never timed out, and its client goes on from
                   t + H.
  --breaker F:D    a breaker per process, closed at 0 ms: while closed each
                   outcome counts when it is known, a failure (a hang's at
                   t + H, a rejection, a timeout) adding 1 to the failures in
                   a row and a served attempt setting them to 0; the F-th
                   opens it at that moment t0. Until t0 + D each attempt of
                   the process fails at once, short-circuited (no capacity,
                   no queue, no gRPC token; its client goes on as after any
                   failure). The first attempt from t0 + D on is the probe;
                   until its outcome every other attempt is short-circuited;
                   served, it closes the breaker, failed, opens it again for
                   D. While open only the probe's outcome counts.
  --retry-after R  a rejected attempt's client comes back at t + R instead
                   of t + w(k), out of time judged against t + R; the draw
                   for w(k) is still made. Only rejections carry it.
  Within a millisecond: the failures that come due (timeouts, hangs), in
  client order, then the arrivals, then with a queue the service; a breaker
  follows them in that order, so an arrival after the F-th failure of the
  same millisecond is short-circuited.

FIGURES (their JSON names)
  clients               the crowd and the fresh requests
  attempts, retries     every attempt; those after a client's first
  served, rejected, failed_while_down, timed_out, short_circuited
                        attempts by outcome; they add up to attempts
  through, gave_up, throttled, out_of_time
                        clients by how they ended; they add up to clients
  not_through           gave_up + throttled + out_of_time
  clients_touched       the clients that start no later than the run's last
                        failure (failed while down, rejected, timed out, a
                        hang's end), the crowd always; a later one meets
                        nothing but success. Every share of clients not
                        through, in every face, is of these, so a longer
                        load cannot dilute it
  most_in_a_slot, busiest_slot_from_ms
                        the most retries in one slot, and the first such
                        slot's start
  peak_after_back, peak_after_back_from_ms
                        the most attempts that reach the service (not
                        short-circuited) at or after the outage's end in one
                        slot, and its start
  slot_capacity         ceil(C*S/1000); null without a capacity
  all_through_by_ms     the latest served attempt; null if none
  crowd_all_through_by_ms
                        the latest served attempt of a client of the crowd
                        (1..N), not of the fresh load
  stable_from_ms        the end of the slot of the last rejection (with a
                        queue: rejection, timeout, wasted or dropped request)
                        at or after the outage; the outage if none
  still_overloaded      a load, and one of those in its last second,
                        [U-1000, U)
  recovered_after_ms    stable_from_ms - the outage; null while still
                        overloaded
  latency_p50_ms, latency_p99_ms, latency_max_ms
                        served time (with a queue, completion) minus the
                        client's start, over the clients that got through,
                        nearest rank; null if none
  wasted, dropped       expired requests worked for nothing, or dropped;
                        they add up to timed_out
  queue_peak            the most requests in the queue after any
                        millisecond's arrivals
  short_circuited       attempts a breaker failed at once; 0 without one
  breaker_opened        how many times any breaker opened, again after a
                        failed probe included
Nearest rank: the value at rank ceil(p*n/100) of the sorted values,
counting from 1. Every default gives the original program's figures.

BEYOND ONE MACHINE (on paper: no flag does this yet)
One run, a policy on a seed, is one process's: its clients meet at one
service, so it does not split. The runs of a spread, a comparison or a
search do: a --shard i/n would make the k-th of them (policy by seed, or
candidate by seed, in the order the run lists them) where k mod n = i, its
JSON holding each run's figures, and a merge would join the n documents:
  Kubernetes   an indexed Job, completions n: --shard $JOB_COMPLETION_INDEX/n
  GNU parallel parallel retry-planner crowd --seeds 1000 --format json
               --shard {}/8 ::: 0 1 2 3 4 5 6 7
What the merge must keep exact: every figure of a run is an integer, so a
sum over runs adds; but a median, p95 or worst over seeds is a nearest rank
over every seed's value, and a percentile of the shards' percentiles is
not one: each shard writes every seed's figures, and the merge ranks them
all. A latency percentile is one run's and never splits. advise ranks each
round over all its candidates before choosing the next round's, so each
round is one barrier: the shards run a round's candidates, the merge ranks
them and lists the next round's.
`

const plansTopic = `Plans: every input of a run in a TOML file a person can read and edit: the
settings, the policies compared, the service they meet, the draws and the
seeds, with a comment above every key saying what it is, its unit, its
range and its default. A key left out takes its default.

  retry-planner crowd --clients 1000 --capacity 500 --save-plan storm.toml
  retry-planner --plan storm.toml crowd                 the same report
  retry-planner --plan storm.toml crowd --attempts 8    with one change
  retry-planner --plan storm.toml                       the full-screen program

--save-plan FILE writes the plan a report ran: its settings, the policies it
ran, the seeds and the spread's draws, and the note of a plan it was given;
loaded with --plan it gives the same report, byte for byte. The full-screen
program's s key saves the plan it shows.

--plan FILE sets every setting from the file, and for crowd its policies and
seeds (timeline --policy all runs its policies). Flags override the plan
wherever they stand on the line. --plain takes no plan.

Times are whole milliseconds in keys ending _ms, or a string holding a
duration ("1.5s", "2m"); counts are whole numbers (1_000_000 is a million).
A plan that is not TOML, has a key a plan does not have, a value of the wrong
type or out of its range is refused in one line naming its file, line and
rule (plan.toml:7: ...), and nothing runs. So is a file larger than 1 MiB,
or one shaped like no plan, refused before it is decoded: keys and lists
nested more than 8 deep, more than 200 keys and tables or 200 values in
lists, a key's name longer than 100 bytes.

A plan may hold goals, in a [goals] table (help goals): advise searches for
them, and every command keeps them in a plan it saves. advise --save-plan
writes the best candidate's plan: its one policy, budget and settings, the
seeds and the goals, so that --plan FILE crowd gives its figures.

crowd --compare FILE runs the crowd of the plan in FILE (A) beside the command
line's (B), figure by figure, each with the change from A to B and whether it
is better. A setting that differs but that nothing either side runs reads
(custom's own waits when custom is not run, --processes without a budget)
changes no figure: the report says so, with the flag that would run it.
retry-planner crowd --save-plan FILE writes a plan to start from.
`

const formatsTopic = `Formats: every command writes text (the default), CSV or JSON (--format);
crowd and timeline also draw pictures, svg or png.

TEXT starts with what --plain prints for the same figures, byte for byte,
and adds its own lines after it. CSV has one header row, then plain numbers;
a cell that begins with =, +, -, @, a tab or a carriage return (only a job's
name can) gets a leading ', so that a spreadsheet shows it as text. JSON is
one indented document. Times are whole milliseconds, named _ms. A figure that
does not exist (all through by when no client got through, a slot's capacity
without one) is an empty CSV field and a JSON null, never -1.
all_through_by_ms is the latest served attempt: all through by where every
client got through, else only the last success, as the text names it.

CSV COLUMNS
schedule  attempt,wait_ms,at_ms,low_ms,high_ms,cut_short,outcome: a row per
          retry (the first attempt, at 0 ms, is none); cut_short: reference
          draws cannot reach the band's top; outcome: down, through, not
          needed or past the limit.
crowd     policy, verdict (the policy's verdict in one sentence), the
          reference's retries, most_in_a_slot, busiest_slot_from_ms,
          all_through_by_ms and gave_up, then the other figures in the order
          of help model's list under their JSON names, still_overloaded,
          retries_per_client, most_in_a_slot_per_s, peak_after_back_per_s,
          cut_short_from_attempt, and the policy's settings
          (policy_first_wait_ms, policy_longest_wait_ms, policy_growth,
          policy_multiplier, policy_jitter, policy_attempts,
          policy_max_elapsed_ms).
crowd --seeds
          policy, verdict (figure by figure over the seeds), then
          FIGURE_median, FIGURE_p95 and FIGURE_worst of every figure (times
          as FIGURE_median_ms), seeds_none_through, seeds_still_overloaded,
          cut_short_from_attempt and the settings.
crowd --compare
          policy,figure,a,b,change,verdict: a row per policy and figure;
          verdict is better, worse, same, n/a, not judged (the side that
          does better leaves more of its clients not through: by count
          where both run as many clients, else by share of the clients
          touched), only in a or only in b.
timeline  from_ms,retries,attempts,served,rejected,failed_while_down,
          capacity (empty while the service is down, or without one),
          with a queue timed_out, wasted, dropped, queue, and with a
          breaker short_circuited, breaker_opened;
          then slot_ms (the crowd's slot, which shares out the capacity) and
          row_ms (--every: the row's width, a whole number of slots): a row
          per row of time up to the last with any attempt, its slots summed
          (summed over the rows, crowd's counts); side by side, policy
          first. A series cut short at 4,194,304 slots says so on
          standard error.
jobs      job,attempt,outcome,wait_ms: a row per attempt; outcome is done,
          retry, gave up, out of time or refused.
advise    a row per candidate shown: rank, result (meets or closest),
          candidate, policy, source (five, preset, yours or grid), budget,
          processes, queue, timeout_ms, drop_expired, queue_order, the
          policy's settings, meets, goals_missed, ranked_by (the figure
          that ranked it above the next), alike (the candidates of the same
          figures it stands for), then for each goal n
          goal_n, goal_n_figure, goal_n_p95, goal_n_most (the most that
          meets it), goal_n_met; FIGURE_median and FIGURE_p95 of attempts,
          not_through, recovered_after, peak_after_back and latency_p99 (ms
          as FIGURE_median_ms), clients, seeds, first_seed,
          candidates_tried, command.

JSON DOCUMENTS
Every document but --compare's starts with "settings", what it was computed
at: its first_wait_ms, longest_wait_ms, attempts and max_elapsed_ms are the
five's; "custom" {first_wait_ms, longest_wait_ms, attempts, max_elapsed_ms},
there only when your own policy has waits of its own (--preset, --custom-*),
is what custom runs at; "processes" is how many ran, with --processes clients
the clients and the fresh requests; outage_hang_ms, breaker and
retry_after_ms are there only when set. A policy carries "policy" and
"policy_settings", its own.
schedule  policy, policy_settings, client, retries [{attempt, wait_ms, at_ms,
          low_ms, high_ms, cut_short, outcome}], end, through_at_ms, made,
          total_ms, drawn_total_ms
crowd     slot_ms, policies [{policy, verdict, every figure, still_overloaded,
          the rates, cut_short_from_attempt, policy_settings}], ranking
          {line, choose (null when every policy ties), order [{rank,
          policy}]}: a service that recovers first, then by clients not
          through, when it recovers, the peak after back, the crowd's last
          success, the retries
crowd --seeds
          slot_ms, seeds {first, last, count}, policies [{policy, verdict,
          every figure as {median, p95, worst}, seeds_none_through,
          seeds_still_overloaded, cut_short_from_attempt, policy_settings}]
crowd --compare
          a and b, each {file, settings, slot_ms, seeds, policies}, then
          policies [{policy, in, figures [{name, a, b, change, verdict}]}],
          and idle_settings [{flag, says, run}] when a setting that differs
          changes no figure
timeline  slot_ms, row_ms, policy, policy_settings, retries, attempts,
          truncated, cut_short_from_attempt, rows [{from_ms, retries,
          attempts, served, rejected, failed_while_down, capacity, ...}]; side
          by side, slot_ms, row_ms and policies [the same for each]
jobs      policy, policy_settings, jobs [{job, failures, fatal, result,
          attempts}], ledger {entries [{job, attempt, outcome, wait_ms}],
          attempts, done, failed, finally_runs, waited_ms, balanced},
          jobs_done, jobs_gave_up, jobs_refused, jobs_out_of_time
advise    slot_ms, seeds {first, last, count, draws}, goals [{goal, figure,
          limit}], bounds [{kind (overloaded, peak, attempts, latency or
          drain), goal, with, impossible, clients, crowd, backlog, lost,
          from_ms, to_ms, arrive, serve, queue, timeout_ms, floor, slow,
          allowed, most, capacity_needed, goal_allowed, not_through_needed,
          words}], searched_goals [goal], candidates_tried, search {five,
          presets, yours, grid, refined, budgets, breakers, remedies, rounds
          [{candidates, seeds}], crowds}, meets and closest (closest only
          when meets is empty), each
          [{rank, candidate, policy, source, policy_settings, budget,
          service {queue, timeout_ms, drop_expired, queue_order}, settings,
          meets, ranked_by, alike {setting, values, candidates,
          never_reached} or null, goals_met [goal], goals [{goal, figure, p95,
          clients_touched (not-through's: the p95 seed's), most, met,
          words}], figures {attempts, not_through, recovered_after_ms,
          peak_after_back, latency_p99_ms: {median, p95}}, clients, seeds,
          command}]

PICTURES
timeline draws a panel per policy on one scale, each row's attempts as a bar
of those served, rejected and failed while down, the capacity as a line and
the outage's end dashed; --from back draws the time from the outage's end
on, scaled to it. With a queue a bar stacks served, then the expired
requests wasted (or dropped), rejected and failed while down, and a panel
under each policy draws the queue's length against its limit. With a
breaker the attempts it short-circuited top the bar, in teal. crowd draws a
panel per figure and a bar per policy, "still overloaded" over the stable
from of a policy that was, and with a queue its wasted (or dropped) and queue
peak; with --seeds each bar is the median with a whisker to the 95th
percentile.
--width and --height set the size, 200 to 8000: points for svg, pixels for
png (800 points wide by default; a png has twice as many pixels). A png is
not written to a terminal: use --out or redirect.
`

const plainTopic = `--plain: the original program's line menu, for scripts and pipes. It writes
exactly what the original program (the Python retry planner this one grew
from) wrote, byte for byte; when its input is not a terminal it echoes each
answer after its prompt, as a person would have seen it:

  printf '2\n6\n' | retry-planner --plain

1) one client  2) the crowd  3) retries over time  4) jobs with a ledger
5) settings  6) quit. An empty answer cancels; the end of the input ends the
session with status 0. A bad answer is answered as the original does
("Type a whole number from 1 to 1000.") and asked again, so a script cannot
tell a bad answer from a good one: scripts should use the commands, which
exit 2 with one line on standard error for any value they cannot take.

--plain keeps the original's settings and ranges (retry-planner help
settings) and the original's draws; it refuses every other setting.
`

const goalsTopic = `Goals: what advise (and the full-screen program's advice pane) searches for,
each a limit on one figure, NAME<=LIMIT, given with --goal (once for each,
the last of a name wins), in a plan's [goals] table, or in the pane's form.
Quote a goal for the shell: --goal 'recovered<=60s'.

  not-through<=P%   not_through, the clients that never get through, at most
                    P percent of the clients touched (clients_touched: the
                    crowd and the fresh requests that start by the run's
                    last failure; those after it meet nothing but success,
                    so a longer load cannot dilute the share); P from 0 to
                    100, three decimals at most
  recovered<=T      recovered_after_ms: from the outage's end until the
                    service is stable; a service still overloaded when the
                    load stops never meets it
  peak<=Fx          peak_after_back, at most F times its slot's capacity,
                    ceil(capacity x slot / 1000); it needs --capacity
  peak<=R/s         peak_after_back as a rate a second, at most R
  p99<=T            latency_p99_ms; no client through never meets it
  attempts<=Fx      attempts per client, all attempts over all the clients:
                    the load the clients add; F from 1 to 100
T is a time with its unit (60s, 1m30s, 250ms; a bare number is refused,
but under a name ending in ms: recovered_after_ms<=60000); F a decimal of
three places at most. A goal also goes by the names the tables and the
JSON give its figure: not-through as lost, recovered as recovered-after or
recovered_after_ms, peak as peak-after-back, p99 as latency-p99 or
latency_p99_ms. Names and units are read in any case (P99<=30S), with -, _
or spaces between a name's words.

HOW A GOAL IS HELD
Over the seeds S to S+N-1 (--seed, --seeds; 20 unless told), independent
draws unless --seed-draws reference: the figure's 95th percentile by nearest
rank, the value at rank ceil(95 N / 100) from the best (20 seeds: the 19th)
must be no more than the limit: a value equal to the limit meets it. For
not-through it is each seed's share, not_through / clients_touched, at that
rank (the seed whose share it is gives both). In whole numbers: not_through
x 100000 <= P(thousandths) x clients_touched, peak x 1000
<= F(thousandths) x slot capacity, peak x 1000 <= R x slot ms, attempts x
1000 <= F(thousandths) x clients. The advice says, for each goal, the most
of its figure that meets it ("1% (at most 3,650)").

WHAT ARITHMETIC SAYS FIRST
Before any crowd runs, advise works out what no client policy can do (any
waits, attempts or budget, and the service's remedies, which only shorten
the queue, drop expired requests or serve the newest first), and says it
first, a line each with its arithmetic and what would make it possible:
  recovered<=T   never met when the fresh load of its last second is more
                 than the service completes then (and its queue holds; with
                 a timeout, those sent before its end less the timeout must
                 be done by it): the capacity it needs
  peak<=F        never met when the fresh requests of one slot after the
                 outage are more than it allows: the least peak it allows
  attempts<=Fx   with not-through<=P%: the crowd and the fresh requests of
                 the outage fail their first attempt, and each that gets
                 through tries again: at least all + backlog - lost
  p99<=T         with not-through<=P%: the backlog the outage leaves, less
                 those lost, against what the service completes within T;
                 more than a hundredth of the clients waiting longer rules
                 it out: the least p99, the capacity or the share lost
A goal ruled out is not searched for; the others are, and when none is left
nothing runs. A recovered goal also gets a note when the backlog cannot all
be through within it: the last client through no sooner than the first
moment the service has completed the backlog and the load since, less those
lost; a candidate that recovers sooner loses clients or keeps them waiting
without overloading the service (recovery counts the last overload, not the
last client through). They hold with the client's guards too (section 7):
a breaker or pushback keeps attempts from the service but adds no capacity,
and a hang only delays a failure; the search's breakers are held to them.

THE SEARCH
advise tries, every one on the first seed: the five over your waits, the
presets, your own policy when the settings make one, a grid of policies of
your own (first wait 50 ms, 250 ms, 1 s, 3 s, 10 s; longest 1 s, 10 s,
1 min, 5 min; 2, 3, 5, 8, 12 attempts; full, equal, decorrelated and
spread:0.5 jitter), twice the neighbours of its best four (multipliers 1.5,
2 and 3, linear growth, half and twice each wait, the attempts between);
then 12 budgets (grpc:10, 100 and 1000 tokens at 0.1 and 0.5; aws:100, 500
and 5000 at a cost of 1 and 5, and none if you gave one) with the five, the
presets and the best eight of your own; with --also-service, where the
service queues, dropping expired requests, lifo, both, and shorter queues
(the capacity's work within the timeout, half, a tenth) with the best eight
so far. Then the 30 most promising run on 4 seeds, and the 10 most promising
of those on all the seeds. A policy without jitter draws nothing and runs
once.

What it guarantees: every candidate shown ran on every seed, and each of its
figures and verdicts is exactly what its command, a crowd --seeds of that
one policy with its budget and your settings, prints. What it does not: it
may miss a candidate that meets the goals, one dropped after fewer seeds or
a policy between the grid's points. --max-work refuses a search that would
run more clients, summed over its crowds, than it allows, before it starts.

Candidates that meet every goal are ranked by your goals' figures in the
order you gave them, then the clients not through (a share of those
touched), the recovery, the p99 latency and the attempts, each at the 95th
percentile; each says the figure that ranked it above the next, with both
values. Candidates of the same figures that differ in one setting are one
line, naming the setting's range ("longest wait 30 s to 2 min (never
reached)"). A plan keeps no order: its goals rank in the order above
(not-through, recovered, peak, p99, attempts). When none meets, the closest:
for each goal, the one that meets every other and misses it the least, then
the one that misses least in all, each with what it misses and by how much.

  retry-planner advise --clients 2000 --outage 30s --capacity 100 --load 95 \
    --load-until 5m --queue 1000 --timeout 1s \
    --goal 'not-through<=20%' --goal 'recovered<=120s'
`
