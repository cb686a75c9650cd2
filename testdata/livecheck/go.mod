module github.com/retryplanner/retry-planner/testdata/livecheck

go 1.26.0

replace github.com/retryplanner/retry-planner => ../..

require github.com/retryplanner/retry-planner v0.0.0
