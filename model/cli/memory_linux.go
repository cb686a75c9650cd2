package cli

import (
	"os"
	"strconv"
	"strings"
	"syscall"
)

// machineMemory is the memory this process may have, and what that is for
// a message: the machine's, or less where its cgroup (version 2, or 1)
// says so; 0 when it cannot tell.
func machineMemory() (int64, string) {
	var info syscall.Sysinfo_t
	total, what := int64(0), "this machine's memory"
	if syscall.Sysinfo(&info) == nil {
		total = int64(info.Totalram) * int64(info.Unit)
	}
	for _, file := range []string{"/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory/memory.limit_in_bytes"} {
		b, err := os.ReadFile(file)
		if err != nil {
			continue
		}
		if n, err := strconv.ParseInt(strings.TrimSpace(string(b)), 10, 64); err == nil && n > 0 && (total == 0 || n < total) {
			total, what = n, "this process's cgroup's memory"
		}
		break
	}
	return total, what
}
