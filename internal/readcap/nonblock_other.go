//go:build !unix

package readcap

// nonBlock is zero where the system has no O_NONBLOCK; named pipes are not files there.
const nonBlock = 0
