//go:build linux

package evidence

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/bucketlint/bucketlint/internal/gen"
	"github.com/bucketlint/bucketlint/parser/eventlog"
)

// benchChildEnv names, in the benchmark's child processes, what to read: "evidence:PATH" or
// "eventlog:PATH".
const benchChildEnv = "BUCKETLINT_BENCH_CHILD"

// TestBenchChild is the child process of BenchmarkLargeEventLog, which runs this test binary
// once per measurement so that each read's peak memory and CPU time are its own: it reads the
// log named by BUCKETLINT_BENCH_CHILD as `bucketlint evidence` does (or parser/eventlog alone)
// and prints the shuffle bytes it found. Run alone, without the variable, it has nothing to do.
func TestBenchChild(t *testing.T) {
	what, path, ok := strings.Cut(os.Getenv(benchChildEnv), ":")
	if !ok {
		t.Skip("the child process of BenchmarkLargeEventLog")
	}
	var shuffled, execs int64
	switch what {
	case "evidence":
		ev, err := Read(context.Background(), path)
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range ev.Shuffles {
			shuffled += s.Bytes
		}
		execs = int64(ev.Executions)
		_ = ev.Costs()
	case "eventlog":
		_, err := eventlog.Read(path, eventlog.Options{}, func(e *eventlog.Execution) error {
			execs++
			e.Plan.Walk(func(n *eventlog.Node) {
				if m, ok := n.Metric("shuffle bytes written"); ok {
					shuffled += m.Value
				}
			})
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	default:
		t.Fatalf("%s=%s: want evidence:PATH or eventlog:PATH", benchChildEnv, what)
	}
	fmt.Printf("RESULT %d %d\n", execs, shuffled) //nolint:forbidigo // the benchmark reads the child's stdout
}

// benchSize is the generated log's size: BUCKETLINT_BENCH_EVENTLOG_SIZE bytes (a number, or
// one with a K, M or G suffix), 256M when unset.
func benchSize(b *testing.B) int64 {
	b.Helper()
	s := os.Getenv("BUCKETLINT_BENCH_EVENTLOG_SIZE")
	if s == "" {
		s = "256M"
	}
	mul := int64(1)
	for suffix, m := range map[string]int64{"K": 1e3, "M": 1e6, "G": 1e9} {
		if strings.HasSuffix(strings.ToUpper(s), suffix) {
			s, mul = s[:len(s)-1], m
		}
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil || n <= 0 {
		b.Fatalf("BUCKETLINT_BENCH_EVENTLOG_SIZE=%q: want a size in bytes", os.Getenv("BUCKETLINT_BENCH_EVENTLOG_SIZE"))
	}
	return n * mul
}

// largeLog is the generated log, once per benchmark run: its plain file, its gzip and zstd
// compressions (of the same bytes, by the system's gzip -1 and zstd -1 while it is written),
// and what reading it must give.
type largeLog struct {
	dir, plain, gz, zst string
	size                int64
	execs, bytes        int64 // what the reads must find: reps times the recorded log's
}

// generate writes the log into dir, piping the same bytes to gzip and zstd, and works out
// what a read must find from the recorded log read once.
func generate(b *testing.B, dir string, size int64) *largeLog {
	b.Helper()
	rec := "../fixtures/eventlog/3.5/plain/local-1796182549699"
	body, err := os.ReadFile(rec)
	if err != nil {
		b.Fatal(err)
	}
	var st syscall.Statfs_t
	if err := syscall.Statfs(dir, &st); err != nil || int64(st.Bavail)*st.Bsize < size*13/10 {
		b.Skipf("%s: %d bytes free, want %d for a %d-byte log and its compressions", dir, int64(st.Bavail)*st.Bsize, size*13/10, size)
	}
	l := &largeLog{dir: dir, plain: filepath.Join(dir, "app"), gz: filepath.Join(dir, "app.gz"), zst: filepath.Join(dir, "app.zstd")}
	f, err := os.Create(l.plain)
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	var pipes []io.WriteCloser
	var cmds []*exec.Cmd
	for _, c := range []struct{ out, name string }{{l.gz, "gzip"}, {l.zst, "zstd"}} {
		out, err := os.Create(c.out)
		if err != nil {
			b.Fatal(err)
		}
		defer out.Close()
		cmd := exec.Command(c.name, "-1", "-c")
		cmd.Stdout = out
		in, err := cmd.StdinPipe()
		if err != nil {
			b.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			b.Fatalf("%s: %v", c.name, err)
		}
		pipes, cmds = append(pipes, in), append(cmds, cmd)
	}
	w := io.MultiWriter(f, pipes[0], pipes[1])
	reps, err := gen.EventLog(w, [][]byte{body}, size)
	for i, p := range pipes {
		p.Close()
		if werr := cmds[i].Wait(); werr != nil && err == nil {
			err = werr
		}
	}
	if err != nil {
		b.Fatal(err)
	}
	fi, err := f.Stat()
	if err != nil {
		b.Fatal(err)
	}
	l.size = fi.Size()
	one, err := Read(context.Background(), rec)
	if err != nil {
		b.Fatal(err)
	}
	for _, s := range one.Shuffles {
		l.bytes += s.Bytes
	}
	l.execs, l.bytes = int64(reps*one.Executions), int64(reps)*l.bytes
	return l
}

// usage is what one measured process took.
type usage struct {
	cpu    time.Duration
	maxRSS int64 // bytes
	out    string
}

// measure runs argv under GNU time (/usr/bin/time), which reports the command's own CPU time
// and peak resident memory: a process started straight from this one would report this
// benchmark's memory as its peak, since Linux carries the parent's high-water mark across
// exec. Its output is kept, or its standard output sent to /dev/null when discard is set (as
// cat, gzip -d and zstd -d are measured).
func measure(b *testing.B, env string, discard bool, argv ...string) usage {
	b.Helper()
	stats := filepath.Join(b.TempDir(), "time")
	cmd := exec.Command("/usr/bin/time", append([]string{"-f", "%U %S %M", "-o", stats}, argv...)...)
	if env != "" {
		cmd.Env = append(os.Environ(), env)
	}
	var out strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &out
	if discard {
		devnull, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
		if err != nil {
			b.Fatal(err)
		}
		defer devnull.Close()
		cmd.Stdout = devnull
	}
	if err := cmd.Run(); err != nil {
		b.Fatalf("%v: %v\n%s", argv, err, out.String())
	}
	st, err := os.ReadFile(stats)
	if err != nil {
		b.Fatal(err)
	}
	var user, sys float64
	var kib int64
	if n, _ := fmt.Sscanf(string(st), "%g %g %d", &user, &sys, &kib); n != 3 {
		b.Fatalf("/usr/bin/time said %q", st)
	}
	return usage{cpu: time.Duration((user + sys) * float64(time.Second)), maxRSS: kib << 10, out: out.String()}
}

// BenchmarkLargeEventLog generates an event log of BUCKETLINT_BENCH_EVENTLOG_SIZE bytes (256M
// unless set; BENCHMARKS.md records 5G) in a temporary directory, from the recorded Spark
// 3.5.9 log (fixtures/eventlog/3.5/plain) repeated with its ids moved on as one long-running
// application counts them (gen.EventLog), and measures, each in a process of its own, its CPU
// time and peak resident memory: reading it as `bucketlint evidence` does (plain, and zstd
// through bucketlint's own reader), parser/eventlog alone, and cat, gzip -d and zstd -d of
// the same bytes. Each read must find reps times the recorded log's executions and shuffle
// bytes. Linux only (it reads the children's rusage).
func BenchmarkLargeEventLog(b *testing.B) {
	size := benchSize(b)
	dir := b.TempDir()
	var once sync.Once
	var l *largeLog
	log := func(b *testing.B) *largeLog {
		b.Helper()
		once.Do(func() { l = generate(b, dir, size) })
		return l
	}
	self, err := os.Executable()
	if err != nil {
		b.Fatal(err)
	}
	if _, err := os.Stat("/usr/bin/time"); err != nil {
		b.Skip("GNU time (/usr/bin/time) measures each process")
	}
	child := func(what, path string) []string {
		return []string{benchChildEnv + "=" + what + ":" + path, self, "-test.run=^TestBenchChild$", "-test.v=false"}
	}
	null := func(argv ...string) []string { return append([]string{""}, argv...) }
	for _, c := range []struct {
		name  string
		argv  func(l *largeLog) []string
		check bool
	}{
		{"evidence/plain", func(l *largeLog) []string { return child("evidence", l.plain) }, true},
		{"evidence/zstd", func(l *largeLog) []string { return child("evidence", l.zst) }, true},
		{"eventlog/plain", func(l *largeLog) []string { return child("eventlog", l.plain) }, true},
		{"cat", func(l *largeLog) []string { return null("cat", l.plain) }, false},
		{"gzip-d", func(l *largeLog) []string { return null("gzip", "-d", "-c", l.gz) }, false},
		{"zstd-d", func(l *largeLog) []string { return null("zstd", "-d", "-c", l.zst) }, false},
	} {
		b.Run(c.name, func(b *testing.B) {
			l := log(b)
			var u usage
			for b.Loop() {
				argv := c.argv(l) // the environment for the command, then the command
				u = measure(b, argv[0], !c.check, argv[1:]...)
				if c.check {
					checkResult(b, u.out, l)
				}
			}
			b.SetBytes(l.size)
			b.ReportMetric(u.cpu.Seconds(), "cpu-s")
			b.ReportMetric(float64(l.size)/1e6/u.cpu.Seconds(), "MB/cpu-s")
			b.ReportMetric(float64(u.maxRSS)/1e6, "peak-RSS-MB")
		})
	}
}

// checkResult compares a child's executions and shuffle bytes with what the log must give.
func checkResult(b *testing.B, out string, l *largeLog) {
	b.Helper()
	sc := bufio.NewScanner(strings.NewReader(out))
	for sc.Scan() {
		var execs, shuffled int64
		if n, _ := fmt.Sscanf(sc.Text(), "RESULT %d %d", &execs, &shuffled); n == 2 {
			if execs != l.execs || shuffled != l.bytes {
				b.Fatalf("read %d executions and %d shuffle bytes, want %d and %d", execs, shuffled, l.execs, l.bytes)
			}
			return
		}
	}
	b.Fatalf("no result from the child:\n%s", out)
}
