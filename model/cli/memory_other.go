//go:build !linux && !darwin

package cli

// machineMemory is 0 where the program cannot tell the machine's memory:
// there is no default memory ceiling.
func machineMemory() (int64, string) { return 0, "" }
