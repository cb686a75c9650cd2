package cli

import (
	"strings"

	"github.com/spf13/cobra"

	"github.com/retryplanner/retry-planner/backoff"
)

// The shells' completion (retry-planner completion bash|zsh|fish|powershell)
// completes the commands and flags, and the values of the flags that take
// names: policies and presets, formats, jitters, draws, budgets, and plans'
// .toml files.

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

// addCompletions adds the completion command and registers the values'
// completions on root and its report commands.
func addCompletions(root *cobra.Command) {
	root.InitDefaultCompletionCmd()
	for _, c := range root.Commands() {
		if c.Name() != "completion" {
			continue
		}
		c.Short = "the shell's completion script: bash, zsh, fish or powershell"
		c.Long = "The completion script for a shell, which completes the commands, the flags and\ntheir values (policies, presets, formats, jitters, plans' .toml files)."
		for _, sh := range c.Commands() {
			if long, ok := completionHelp[sh.Name()]; ok {
				sh.Short, sh.Long = "the completion script for "+sh.Name(), long
			}
		}
	}
	policyNames := flagNames(backoff.Names())
	fixed := func(values ...string) func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
		return cobra.FixedCompletions(values, cobra.ShellCompDirectiveNoFileComp)
	}
	var presets []string
	for _, pr := range backoff.Presets() {
		presets = append(presets, pr.Name)
	}
	on := func(cmd *cobra.Command, flag string, f func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective)) {
		if cmd.Flags().Lookup(flag) != nil || cmd.PersistentFlags().Lookup(flag) != nil {
			_ = cmd.RegisterFlagCompletionFunc(flag, f)
		}
	}
	on(root, "preset", fixed(presets...))
	on(root, "jitter", fixed("none", "full", "equal", "decorrelated", "spread:0.2", "up:0.1"))
	on(root, "draws", fixed("reference", "independent"))
	on(root, "seed-draws", fixed("reference", "independent"))
	on(root, "budget", fixed("none", "grpc:10:0.1", "aws:500:5"))
	_ = root.PersistentFlags().SetAnnotation("plan", cobra.BashCompFilenameExt, []string{"toml"})
	for _, cmd := range root.Commands() {
		c, ok := findCommand(cmd.Name())
		if !ok {
			continue
		}
		policy := policyNames
		if c.name == "timeline" {
			policy = append([]string{"all"}, policyNames...)
		}
		on(cmd, "policy", fixed(policy...))
		on(cmd, "policies", listCompletion(policyNames))
		formats := []string{"text", "csv", "json"}
		if c.pictures {
			formats = append(formats, "svg", "png")
		}
		on(cmd, "format", fixed(formats...))
		if cmd.Flags().Lookup("compare") != nil {
			_ = cmd.Flags().SetAnnotation("compare", cobra.BashCompFilenameExt, []string{"toml"})
		}
		if cmd.Flags().Lookup("save-plan") != nil {
			_ = cmd.Flags().SetAnnotation("save-plan", cobra.BashCompFilenameExt, []string{"toml"})
		}
	}
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
func listCompletion(names []string) func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
	return func(_ *cobra.Command, _ []string, typed string) ([]string, cobra.ShellCompDirective) {
		head := ""
		if i := strings.LastIndex(typed, ","); i >= 0 {
			head = typed[:i+1]
		}
		given := strings.Split(strings.ToLower(head), ",")
		var out []string
		for _, n := range names {
			if !containsFold(given, n) {
				out = append(out, head+n)
			}
		}
		return out, cobra.ShellCompDirectiveNoFileComp | cobra.ShellCompDirectiveNoSpace
	}
}

func containsFold(list []string, s string) bool {
	for _, x := range list {
		if strings.EqualFold(x, s) {
			return true
		}
	}
	return false
}
