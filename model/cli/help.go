package cli

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/retryplanner/retry-planner/backoff"
	"github.com/retryplanner/retry-planner/views/words"
)

// helpWidth is the width every line of help fits: a terminal's 80 columns.
const helpWidth = 80

// usageTemplate is cobra's usage with the flags wrapped to helpWidth, the
// settings in a section of their own, and the help topics listed.
const usageTemplate = `Usage:{{if .Runnable}}
  {{.UseLine}}{{end}}{{if .HasAvailableSubCommands}}
  {{.CommandPath}} COMMAND [FLAGS]{{end}}{{if gt (len .Aliases) 0}}

Aliases:
  {{.NameAndAliases}}{{end}}{{if .HasExample}}

Examples:
{{.Example}}{{end}}{{if .HasAvailableSubCommands}}

Commands:{{range .Commands}}{{if .IsAvailableCommand}}
  {{rpad .Name .NamePadding }} {{.Short}}{{end}}{{end}}{{end}}{{if .HasAvailableLocalFlags}}

Flags:
{{if .HasParent}}{{(.LocalFlags.FlagUsagesWrapped 80) | trimTrailingWhitespaces}}{{else}}{{(.LocalNonPersistentFlags.FlagUsagesWrapped 80) | trimTrailingWhitespaces}}{{end}}{{end}}{{if not .HasParent}}

Settings, before or after the command, in every mode:
{{(.PersistentFlags.FlagUsagesWrapped 80) | trimTrailingWhitespaces}}{{else if index .Annotations "settings"}}

Settings: every settings flag, before or after the command; see
retry-planner help settings.{{end}}{{if .HasHelpSubCommands}}

Help topics (retry-planner help TOPIC):{{range .Commands}}{{if .IsAdditionalHelpTopicCommand}}
  {{rpad .Name .NamePadding }} {{.Short}}{{end}}{{end}}{{end}}
`

// helpTemplate is the text before the usage: the command's description.
const helpTemplate = `{{with (or .Long .Short)}}{{. | trimTrailingWhitespaces}}

{{end}}{{if or .Runnable .HasSubCommands}}{{.UsageString}}{{end}}`

// newHelpCommand is "help [COMMAND|TOPIC]": a command's help or a topic,
// and one line naming what there is for anything else.
func newHelpCommand(root *cobra.Command) *cobra.Command {
	return &cobra.Command{
		Use:   "help [COMMAND|TOPIC]",
		Short: "help on a command or a topic",
		Args:  cobra.ArbitraryArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) > 1 {
				return usagef("help takes one command or topic, got %d words: want %s", len(args), helpList(root))
			}
			target := root
			if len(args) == 1 {
				target = nil
				for _, c := range root.Commands() {
					if strings.EqualFold(c.Name(), args[0]) && c != cmd {
						target = c
					}
				}
				if target == nil {
					return usagef("help on %q: want %s", args[0], helpList(root))
				}
			}
			target.InitDefaultHelpFlag()
			return target.Help()
		},
	}
}

// helpList is every command and topic help can give, for a message.
func helpList(root *cobra.Command) string {
	var commands, topics []string
	for _, c := range root.Commands() {
		switch {
		case c.IsAdditionalHelpTopicCommand():
			topics = append(topics, c.Name())
		case c.Name() != "help" && !c.Hidden:
			commands = append(commands, c.Name())
		}
	}
	return "a command (" + orList(commands) + ") or a topic (" + orList(topics) + ")"
}

// topics are the reference material help gives beyond the commands, each
// a help topic command of the root.
func addTopics(root *cobra.Command) {
	for _, t := range []struct{ name, short, long string }{
		{"settings", "every settings flag, its range and default", settingsTopic()},
		{"model", "the exact model: draws, policies, the service, budgets, figures", modelTopic},
		{"presets", "the libraries' policies: their waits, sources and differences", presetsTopic()},
		{"plans", "plans in files: what a plan holds, and how flags meet it", plansTopic},
		{"formats", "the reports' text, CSV columns and JSON documents", formatsTopic},
		{"goals", "goals for advise: each figure's limit, how it is held, the search", goalsTopic},
		{"plain", "--plain: the original program's line menu", plainTopic},
	} {
		root.AddCommand(&cobra.Command{Use: t.name, Short: t.short, Long: t.long})
	}
}

// settingsTopic is "help settings".
func settingsTopic() string {
	var b strings.Builder
	b.WriteString(`Settings: the flags every mode takes (the full-screen program, --plain and
every command), before or after the command, written --name value or
--name=value. --plan sets them all from a file; the flags override it
wherever they stand. A later flag overrides an earlier one of the same name.

`)
	fs := pflag.NewFlagSet("settings", pflag.ContinueOnError)
	fs.SortFlags = false
	(&parse{}).addSettingsFlags(fs)
	b.WriteString(fs.FlagUsagesWrapped(helpWidth))
	b.WriteString(`
A number N is digits, plain (1500) or in groups of three as the program
writes numbers (1,500 or 1_500); no sign, no spaces, at most 10 digits; with
--plain, digits alone, as the original did. A time T is a duration of whole
ms with its unit, ms, s, m or h, in any case: 250ms, 1.5s, 1m30s, 2h, 45S;
no sign. 0 alone is 0; any other number alone is refused, for a time needs a
unit: --outage 45 could be 45ms or 45s.

--plain keeps the original program's settings and ranges: first wait 1 to
10000 ms, longest to 600000 ms, attempts 2 to 12, clients 1 to 1000, outage
0 to 600000 ms, slot 1 to 600000 ms; it refuses every other setting.

--preset, --custom-*, --growth, --multiplier, --jitter: your own policy,
custom, added after the five. --first-wait, --longest, --attempts and
--max-elapsed are the five's; custom takes them too unless it has its own:
--custom-first-wait, --custom-longest, --custom-attempts and
--custom-max-elapsed, or a preset's. A preset sets custom's first wait,
longest wait, attempts, growth, multiplier, jitter and limit, and nothing
else: the five keep theirs. The flags after it override it:
  crowd --preset grpc --custom-attempts 3    grpc's waits, 3 attempts
  crowd --preset grpc --attempts 3           the five try 3 times, grpc 5

A budget's tokens are shared by all the clients of one process, the fresh
requests included: client n is in process (n-1) mod P (--processes P), so
each bucket serves about clients/P of them. 50,000 clients and --load 1500
until 90 s are 50,000 clients and 135,000 fresh requests; with --processes 1
they share one bucket; with --processes clients each has its own (P is
185,000), as when every client holds its own gRPC throttle.
A total outage empties a bucket, for every attempt fails: grpc:MAX:RATIO
takes a token at each failure and refuses retries once MAX/2 are gone
(grpc:10:0.1: from the process's 5th failure on); aws:QUOTA:COST takes COST
at each retry (aws:500:5: 100 retries, then none until served attempts give
tokens back). Typical values: gRPC's example grpc:10:0.1, the AWS SDKs'
standard aws:500:5. Each crowd report's verdict says how many clients share
a bucket.

--queue, --timeout, --drop-expired, --queue-order: a service that queues
(help model). Each attempt joins the queue while it has room, else it is
rejected; the service completes --capacity of them a second; a client
that waits --timeout fails and may retry while its request stays queued,
and the service then works on it for nothing (wasted) unless
--drop-expired. A queue needs a capacity; a timeout, --drop-expired and
lifo need a queue. Text reports show the queue's figures only when there is
one; CSV and JSON always carry them (0 without a queue).

--outage-hang, --breaker, --retry-after: the client's guards (help model).
An attempt to the service while it is down hangs H before it fails; a
breaker in each process opens after F failures in a row and fails every
attempt of the process at once, short-circuited, for D, then lets one probe
through (--breaker gobreaker is sony/gobreaker's defaults, 6:60s; failsafe-go
its, 1:60s); a rejection tells its client to come back after R. Text reports
say short-circuited attempts and breaker openings only where a breaker is
set; CSV and JSON always carry them (0 without one).
`)
	return b.String()
}

// presetsTopic is "help presets": each preset's waits, formula, library,
// source and where our model differs from it.
func presetsTopic() string {
	var b strings.Builder
	b.WriteString(`Presets: policies with the defaults of libraries people run, as the model says
them. Use one with --policy NAME or --policies a,NAME, or make it your own
policy with --preset NAME (later --custom-* flags, --growth, --multiplier and
--jitter override its settings; the five keep theirs).

The five: each wait before retry n, with d = min(longest, first x 2^(n-1)):
`)
	s := backoff.Defaults()
	for _, p := range s.Five() {
		b.WriteString(wrapHanging(fmt.Sprintf("  %-13s ", p.Name), strings.Repeat(" ", 16), words.Formula(p)))
	}
	b.WriteString("\n")
	for _, pr := range backoff.Presets() {
		b.WriteString(wrapHanging(pr.Name+": ", "  ", pr.Library))
		b.WriteString(wrapHanging("  ", "    ", pr.Policy.Describe()))
		b.WriteString(wrapHanging("  ", "    ", words.Formula(pr.Policy)))
		b.WriteString(wrapHanging("  ", "    ", "source: "+pr.Source))
		if pr.Differs != "" {
			b.WriteString(wrapHanging("  ", "    ", "differs: "+pr.Differs))
		}
		b.WriteString("\n")
	}
	b.WriteString("Breakers (--breaker NAME): a library's circuit breaker defaults, as F:D.\n\n")
	for _, pr := range backoff.BreakerPresets() {
		b.WriteString(wrapHanging(pr.Name+" ("+pr.Breaker.String()+"): ", "  ", pr.Library))
		b.WriteString(wrapHanging("  ", "    ", "source: "+pr.Source))
		b.WriteString(wrapHanging("  ", "    ", "differs: "+pr.Differs))
		b.WriteString("\n")
	}
	b.WriteString("Example:\n  retry-planner crowd --policies exponential,grpc,aws,cenkalti --format csv\n")
	return b.String()
}

// wrapHanging is text wrapped at spaces to helpWidth: its first line
// after first, the others after rest.
func wrapHanging(first, rest, text string) string {
	var b strings.Builder
	line := first
	for i, w := range strings.Fields(text) {
		switch {
		case i == 0:
			line += w
		case len(line)+1+len(w) > helpWidth:
			b.WriteString(line + "\n")
			line = rest + w
		default:
			line += " " + w
		}
	}
	b.WriteString(line + "\n")
	return b.String()
}

// newVersionCommand is "version": the version, from the build.
func newVersionCommand() *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "the version, from the build",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			_, err := fmt.Fprintln(cmd.OutOrStdout(), cmd.Root().Version)
			return err
		},
	}
}
