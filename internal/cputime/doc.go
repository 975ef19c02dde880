// Package cputime reads the CPU time of the running process, the measure benchmarks report
// besides wall-clock time (the machines they run on are shared). It imports nothing of the
// project, so that any package's benchmarks may use it.
package cputime
