package cli

import "golang.org/x/sys/unix"

// machineMemory is the machine's memory, and what that is for a message;
// 0 when it cannot tell.
func machineMemory() (int64, string) {
	n, err := unix.SysctlUint64("hw.memsize")
	if err != nil {
		return 0, ""
	}
	return int64(n), "this machine's memory"
}
