module github.com/retryplanner/retry-planner/testdata/crosscheck

go 1.26.0
