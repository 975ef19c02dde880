//go:build unix

package readcap

import "syscall"

// nonBlock opens a FIFO without waiting for a writer; it changes nothing for regular files.
const nonBlock = syscall.O_NONBLOCK
