package cli

import (
	"fmt"
	"io"
	"runtime/debug"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// newManCommand is "man": one man page of the program, every command, flag
// and help topic, in roff for man(1):
//
//	retry-planner man > retry-planner.1 && man ./retry-planner.1
func newManCommand(root *cobra.Command) *cobra.Command {
	return &cobra.Command{
		Use:   "man",
		Short: "the man page, in roff: retry-planner man > retry-planner.1",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			date := ""
			if t, ok := buildTime(readBuildInfo()); ok {
				date = t.Format("2006-01-02") // the commit's, so a page is the same every time
			}
			return writeMan(cmd.OutOrStdout(), root, date)
		},
	}
}

// writeMan writes root's man page to w.
func writeMan(w io.Writer, root *cobra.Command, date string) error {
	var b strings.Builder
	fmt.Fprintf(&b, ".TH RETRY-PLANNER 1 %s \"Retry Planner\" \"Retry Planner\"\n", roffQuote(date))
	b.WriteString(".SH NAME\nretry\\-planner \\- how long clients wait between retries, and what a crowd of them does to a service\n")
	b.WriteString(".SH SYNOPSIS\n")
	b.WriteString(".B retry\\-planner\n[\\fB\\-\\-plain\\fR] [\\fISETTINGS\\fR]\n.br\n")
	b.WriteString(".B retry\\-planner\n\\fICOMMAND\\fR [\\fIFLAGS\\fR] [\\fISETTINGS\\fR]\n")
	b.WriteString(".SH DESCRIPTION\n")
	roffText(&b, root.Long)
	b.WriteString(".SH OPTIONS\n")
	roffFlags(&b, root.LocalNonPersistentFlags())
	b.WriteString(".SH SETTINGS\nThe settings flags, before or after the command, in every mode.\n")
	roffFlags(&b, root.PersistentFlags())
	b.WriteString(".SH COMMANDS\n")
	var topics []*cobra.Command
	for _, c := range root.Commands() {
		switch {
		case c.IsAdditionalHelpTopicCommand():
			topics = append(topics, c)
			continue
		case c.Name() == "help" || c.Hidden:
			continue
		}
		fmt.Fprintf(&b, ".SS %s\n", roffEscape(c.Name()))
		fmt.Fprintf(&b, ".B %s\n", roffEscape(c.CommandPath()+strings.TrimPrefix(c.Use, c.Name())))
		b.WriteString(".PP\n")
		roffText(&b, cmpOr(c.Long, c.Short))
		c.InitDefaultHelpFlag()
		roffFlags(&b, c.LocalFlags())
		for _, sub := range c.Commands() {
			fmt.Fprintf(&b, ".TP\n\\fB%s\\fR\n%s\n", roffEscape(sub.CommandPath()), roffEscape(sub.Short))
		}
		if c.Example != "" {
			b.WriteString(".PP\nExamples:\n.nf\n")
			b.WriteString(roffEscape(c.Example) + "\n.fi\n")
		}
	}
	for _, t := range topics {
		fmt.Fprintf(&b, ".SH %s\n", roffEscape(strings.ToUpper("help "+t.Name())))
		b.WriteString(".nf\n" + roffEscape(strings.TrimRight(t.Long, "\n")) + "\n.fi\n")
	}
	b.WriteString(".SH EXAMPLES\n.nf\n" + roffEscape(root.Example) + "\n.fi\n")
	b.WriteString(".SH EXIT STATUS\n0 when done; 1 when the screen, a report or its file cannot be written; " +
		"2 for a command line the program cannot run, said in one line on standard error; " +
		"128 plus the signal for a signal that ends the program.\n")
	_, err := io.WriteString(w, b.String())
	return err
}

func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// roffFlags writes each flag of fs as a tagged paragraph.
func roffFlags(b *strings.Builder, fs *pflag.FlagSet) {
	fs.VisitAll(func(f *pflag.Flag) {
		b.WriteString(".TP\n")
		if f.Shorthand != "" {
			fmt.Fprintf(b, "\\fB\\-%s\\fR, ", roffEscape(f.Shorthand))
		}
		fmt.Fprintf(b, "\\fB\\-\\-%s\\fR", roffEscape(f.Name))
		if t := f.Value.Type(); t != "bool" {
			fmt.Fprintf(b, " \\fI%s\\fR", roffEscape(t))
		}
		b.WriteString("\n" + roffEscape(f.Usage) + "\n")
	})
}

// roffText writes paragraphs of text, a blank line between them.
func roffText(b *strings.Builder, text string) {
	for i, para := range strings.Split(strings.TrimSpace(text), "\n\n") {
		if i > 0 {
			b.WriteString(".PP\n")
		}
		b.WriteString(roffEscape(strings.Join(strings.Fields(para), " ")) + "\n")
	}
}

// roffEscape makes text safe for roff: backslashes and hyphens escaped, and
// no line that starts with a control character.
func roffEscape(s string) string {
	s = strings.NewReplacer(`\`, `\e`, "-", `\-`).Replace(s)
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		if strings.HasPrefix(l, ".") || strings.HasPrefix(l, "'") {
			lines[i] = `\&` + l
		}
	}
	return strings.Join(lines, "\n")
}

// roffQuote is an argument of a request, quoted.
func roffQuote(s string) string { return `"` + strings.ReplaceAll(s, `"`, `""`) + `"` }

// buildTime is when the commit the binary was built from was made, if the
// build recorded it.
func buildTime(info *debug.BuildInfo, ok bool) (time.Time, bool) {
	if !ok || info == nil {
		return time.Time{}, false
	}
	for _, bs := range info.Settings {
		if bs.Key == "vcs.time" {
			t, err := time.Parse(time.RFC3339, bs.Value)
			return t, err == nil
		}
	}
	return time.Time{}, false
}
