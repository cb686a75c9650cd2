module github.com/retryplanner/retry-planner/testdata/livecheck

go 1.26.0

replace github.com/retryplanner/retry-planner => ../..

require (
	github.com/cenkalti/backoff/v4 v4.3.0
	github.com/cenkalti/backoff/v5 v5.0.3
	github.com/hashicorp/go-retryablehttp v0.7.8
	github.com/retryplanner/retry-planner v0.0.0
)

require github.com/hashicorp/go-cleanhttp v0.5.2 // indirect
