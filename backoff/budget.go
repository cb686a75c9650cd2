package backoff

import (
	"fmt"
	"strconv"
	"strings"
)

// BudgetKind is what limits a process's retries.
type BudgetKind int

// The budgets.
const (
	BudgetNone BudgetKind = iota
	// BudgetGRPC is gRPC's retryThrottling (gRFC A6): tokens start at MAX;
	// every failed attempt takes 1 (never below 0), every served one gives
	// RATIO back (never above MAX); after a failure, the retry happens only
	// while tokens > MAX/2.
	BudgetGRPC
	// BudgetAWS is the AWS SDKs' retry quota: tokens start at QUOTA; a retry
	// needs COST tokens and takes them, and with fewer there is none; a
	// served retry gives COST back, a served first attempt 1 (never above
	// QUOTA).
	BudgetAWS
)

// Budget is a retry budget, kept per process. For BudgetGRPC, A is MAX (1 to
// 1000 tokens) and B is RATIO in thousandths (1 to 1000); for BudgetAWS, A is
// QUOTA and B is COST (1 to 1,000,000 tokens each). The zero value is no
// budget.
type Budget struct {
	Kind BudgetKind
	A, B int
}

// The budgets' ranges.
const (
	MaxGRPCTokens = 1000
	MaxAWSTokens  = 1000000
)

// BudgetList is the forms ParseBudget takes, for messages.
const BudgetList = "none, grpc:MAX:RATIO (MAX 1 to 1000 tokens, RATIO 0.001 to 1) or aws:QUOTA:COST (1 to 1000000 tokens each; standard mode is aws:500:5)"

// String writes the budget as ParseBudget reads it: "none", "grpc:10:0.1",
// "aws:500:5".
func (b Budget) String() string {
	switch b.Kind {
	case BudgetGRPC:
		return fmt.Sprintf("grpc:%d:%s", b.A, FormatThousandths(b.B))
	case BudgetAWS:
		return fmt.Sprintf("aws:%d:%d", b.A, b.B)
	}
	return "none"
}

// ParseBudget reads "none", "grpc:MAX:RATIO" or "aws:QUOTA:COST", in any
// case.
func ParseBudget(s string) (Budget, error) {
	fail := fmt.Errorf("budget %q: want %s", s, BudgetList)
	parts := strings.Split(strings.ToLower(s), ":")
	switch {
	case len(parts) == 1 && parts[0] == "none":
		return Budget{}, nil
	case len(parts) != 3:
		return Budget{}, fail
	}
	var b Budget
	var ok1, ok2 bool
	switch parts[0] {
	case "grpc":
		b.Kind = BudgetGRPC
		b.A, ok1 = ParseDigits(parts[1], 7)
		b.B, ok2 = ParseThousandths(parts[2])
	case "aws":
		b.Kind = BudgetAWS
		b.A, ok1 = ParseDigits(parts[1], 7)
		b.B, ok2 = ParseDigits(parts[2], 7)
	default:
		return Budget{}, fail
	}
	if !ok1 || !ok2 || b.validate() != nil {
		return Budget{}, fail
	}
	return b, nil
}

func (b Budget) validate() error {
	ok := false
	switch b.Kind {
	case BudgetNone:
		ok = b.A == 0 && b.B == 0
	case BudgetGRPC:
		ok = b.A >= 1 && b.A <= MaxGRPCTokens && b.B >= 1 && b.B <= 1000
	case BudgetAWS:
		ok = b.A >= 1 && b.A <= MaxAWSTokens && b.B >= 1 && b.B <= MaxAWSTokens
	}
	if !ok {
		return fmt.Errorf("budget: %s (%d, %d) is not %s", b.Kind, b.A, b.B, BudgetList)
	}
	return nil
}

func (k BudgetKind) String() string {
	switch k {
	case BudgetNone:
		return "none"
	case BudgetGRPC:
		return "grpc"
	case BudgetAWS:
		return "aws"
	}
	return "BudgetKind(" + strconv.Itoa(int(k)) + ")"
}

// budgets is the budget of every process that holds a client, in whole
// units: thousandths of a token for gRPC, tokens for AWS. Each fits 32 bits
// (at most 1000*1000 for gRPC, 1,000,000 for AWS, and a sum of two below
// 2^31 on the way to min): a process per client of a million clients holds
// 4 MB.
type budgets struct {
	kind   BudgetKind
	top    int32 // the most tokens a process holds: MAX*1000, or QUOTA
	give   int32 // gRPC: RATIO in thousandths; AWS: COST
	tokens []int32
}

// newBudgets is the budgets of processes processes over clients clients:
// client n is in process (n-1) mod processes, so only the first
// min(processes, clients) hold one, and only they are kept.
func newBudgets(b Budget, processes, clients int) budgets {
	bs := budgets{kind: b.Kind}
	switch b.Kind {
	case BudgetGRPC:
		bs.top, bs.give = int32(b.A)*1000, int32(b.B)
	case BudgetAWS:
		bs.top, bs.give = int32(b.A), int32(b.B)
	default:
		return bs
	}
	bs.tokens = make([]int32, max(min(processes, clients), 1))
	for i := range bs.tokens {
		bs.tokens[i] = bs.top
	}
	return bs
}

// failed is a failed attempt of a client in process p.
func (bs *budgets) failed(p int) {
	if bs.kind == BudgetGRPC {
		bs.tokens[p] = max(bs.tokens[p]-1000, 0)
	}
}

// retry reports whether a client of process p may retry after a failure,
// taking what the retry costs.
func (bs *budgets) retry(p int) bool {
	switch bs.kind {
	case BudgetGRPC:
		return 2*bs.tokens[p] > bs.top // tokens > MAX/2
	case BudgetAWS:
		if bs.tokens[p] < bs.give {
			return false
		}
		bs.tokens[p] -= bs.give
	}
	return true
}

// served is a served attempt of a client in process p; retry says whether
// it was a retry.
func (bs *budgets) served(p int, retry bool) {
	switch bs.kind {
	case BudgetGRPC:
		bs.tokens[p] = min(bs.tokens[p]+bs.give, bs.top)
	case BudgetAWS:
		back := int32(1)
		if retry {
			back = bs.give
		}
		bs.tokens[p] = min(bs.tokens[p]+back, bs.top)
	}
}
