package plan

import (
	"strconv"
	"strings"

	"github.com/retryplanner/retry-planner/backoff"
	"github.com/retryplanner/retry-planner/backoff/advice"
)

// OfCandidate is the plan of an advised candidate's crowd: its settings
// (with draws, the one seed's draws, as the scenario had them), its one
// policy (custom for a policy of one's own, which its settings' waits
// make), the seeds from its settings' seed and their draws, and the goals
// and note it was advised under. crowd --seeds under this plan gives the
// candidate's figures.
func OfCandidate(c advice.Candidate, draws backoff.Draws, seeds int, seedDraws backoff.Draws, goals advice.Goals, note string) Plan {
	s := c.Settings
	s.Draws = draws
	name := "custom"
	if !c.Custom() {
		name = policyFlagName(c.Policy.Name)
	}
	return Plan{Settings: s, Policies: []string{name}, Seeds: seeds, SeedDraws: seedDraws, Goals: goals, Note: note}
}

// AdviceCommand is the command line that runs p's crowd, a plan of
// OfCandidate, over its seeds: "retry-planner crowd --policies NAME", the
// settings that differ from the defaults, then --seeds, --seed-draws and
// --seed, always written out, so that the line says which seeds it runs.
// The goals, which crowd does not hold, are left out.
func AdviceCommand(p Plan) string {
	words := []string{"retry-planner", "crowd", "--policies", strings.Join(p.Policies, ",")}
	q := p
	q.Policies, q.Seeds, q.SeedDraws, q.Goals = nil, 0, backoff.Independent, advice.Goals{}
	q.Settings.Seed = backoff.Defaults().Seed
	words = append(words, Flags(q)...)
	words = append(words, "--seeds", strconv.Itoa(p.Seeds), "--seed-draws", p.SeedDraws.String(), "--seed", strconv.Itoa(p.Settings.Seed))
	return strings.Join(words, " ")
}
