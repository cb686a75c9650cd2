package cli

import (
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/retryplanner/retry-planner/backoff"
)

// The shells' completion (retry-planner completion bash|zsh|fish|powershell)
// completes the commands and flags, and the values of the flags that take
// names: policies and presets, formats, jitters, draws, budgets, and plans'
// .toml files.

// shells are the shells completion writes a script for.
var shells = []string{"bash", "zsh", "fish", "powershell"}

// completionHelp is each shell's completion help, in 80 columns.
var completionHelp = map[string]string{
	"bash": `The completion script for bash; it needs the bash-completion package.
This shell's session:
  source <(retry-planner completion bash)
Every new session (Linux; on macOS, $(brew --prefix)/etc/bash_completion.d):
  retry-planner completion bash > /etc/bash_completion.d/retry-planner`,
	"zsh": `The completion script for zsh. If completion is not on in zsh yet:
  echo "autoload -U compinit; compinit" >> ~/.zshrc
This shell's session:
  source <(retry-planner completion zsh)
Every new session:
  retry-planner completion zsh > "${fpath[1]}/_retry-planner"`,
	"fish": `The completion script for fish. This shell's session:
  retry-planner completion fish | source
Every new session:
  retry-planner completion fish > ~/.config/fish/completions/retry-planner.fish`,
	"powershell": `The completion script for PowerShell. This shell's session:
  retry-planner completion powershell | Out-String | Invoke-Expression
Every new session: add the output of that command to your PowerShell
profile.`,
}

// addCompletion adds the completion command, in 80 columns.
func addCompletion(root *cobra.Command) {
	root.InitDefaultCompletionCmd()
	for _, c := range root.Commands() {
		if c.Name() != "completion" {
			continue
		}
		shellList := orList(shells)
		c.Short = "the shell's completion script: " + shellList
		c.Long = "The completion script for a shell, which completes the commands, the flags and\ntheir values (policies, presets, formats, jitters, plans' .toml files, times'\nunits)."
		// A word that is no shell, or none, is refused: help on standard
		// output would install as a completion script.
		c.Use, c.Args, c.DisableFlagsInUseLine = "completion SHELL", cobra.ArbitraryArgs, true
		c.RunE = func(_ *cobra.Command, args []string) error {
			if len(args) == 0 {
				return usagef("completion needs a shell: want %s", shellList)
			}
			near := nearest(strings.ToLower(args[0]), shells)
			if strings.EqualFold(args[0], "pwsh") { // PowerShell's own name, two edits from zsh
				near = "powershell"
			}
			if near != "" {
				return usagef("completion %s (did you mean %s?): want a shell, %s", quoteOdd(args[0]), near, shellList)
			}
			return usagef("completion %s: want a shell, %s", quoteOdd(args[0]), shellList)
		}
		for _, sh := range c.Commands() {
			if long, ok := completionHelp[sh.Name()]; ok {
				sh.Short, sh.Long = "the completion script for "+sh.Name(), long
			}
		}
	}
}

// completeTime completes a time's number with its units: 45 offers 45ms,
// 45s, 45m and 45h, those that are times; anything else, nothing, and no
// file.
func completeTime(_ *cobra.Command, _ []string, typed string) ([]cobra.Completion, cobra.ShellCompDirective) {
	var out []cobra.Completion
	if len(backoff.TimeReadings(typed)) > 0 {
		for _, unit := range []string{"ms", "s", "m", "h"} {
			if _, ok := backoff.ParseTimeUnit(typed + unit); ok {
				out = append(out, typed+unit)
			}
		}
	}
	return out, cobra.ShellCompDirectiveNoFileComp
}

// fixed completes one of values.
func fixed(values ...string) cobra.CompletionFunc {
	return cobra.FixedCompletions(values, cobra.ShellCompDirectiveNoFileComp)
}

// completePlanFile completes a plan's file: the .toml files.
func completePlanFile(*cobra.Command, []string, string) ([]cobra.Completion, cobra.ShellCompDirective) {
	return []cobra.Completion{"toml"}, cobra.ShellCompDirectiveFilterFileExt
}

// completePolicy completes a policy's name, or all where it is taken.
func completePolicy(all bool) cobra.CompletionFunc {
	names := flagNames(backoff.Names())
	if all {
		names = append([]string{"all"}, names...)
	}
	return fixed(names...)
}

// completePolicyList completes the last name of a list of policies.
func completePolicyList(cmd *cobra.Command, args []string, typed string) ([]cobra.Completion, cobra.ShellCompDirective) {
	return listCompletion(flagNames(backoff.Names()))(cmd, args, typed)
}

// flagNames are policy names as a flag writes them: "full-jitter".
func flagNames(names []string) []string {
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = strings.ReplaceAll(n, " ", "-")
	}
	return out
}

// listCompletion completes the last name of a list separated by commas,
// offering the names not yet in it.
func listCompletion(names []string) cobra.CompletionFunc {
	return func(_ *cobra.Command, _ []string, typed string) ([]cobra.Completion, cobra.ShellCompDirective) {
		head := ""
		if i := strings.LastIndex(typed, ","); i >= 0 {
			head = typed[:i+1]
		}
		given := strings.Split(head, ",")
		var out []string
		for _, n := range names {
			if !slices.ContainsFunc(given, func(g string) bool { return strings.EqualFold(g, n) }) {
				out = append(out, head+n)
			}
		}
		return out, cobra.ShellCompDirectiveNoFileComp | cobra.ShellCompDirectiveNoSpace
	}
}
