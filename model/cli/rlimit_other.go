//go:build !unix

package cli

// addressLimit is 0 where the process has no limit the program can read.
func addressLimit() (int64, string) { return 0, "" }
