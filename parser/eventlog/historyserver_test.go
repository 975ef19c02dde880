package eventlog

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/big"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestHistoryServerLive starts Spark's own History Server from each pinned pyspark over the
// event logs recorded with that version (fixtures/eventlog/<series>/), on a loopback port, and
// checks that its REST API reports the figures this package reads from the same logs: every
// SQL metric of every execution (/applications/{id}/sql, compared as the SQL tab prints the
// totals) and every stage's task metric sums (/applications/{id}/stages). Then the built
// command reads the logs both ways, as a user would: `bucketlint evidence` and `bucketlint
// check --evidence` given the server's address give the same costs and measured findings as
// given the directory of logs (checkCLIAgainstServer). Opt-in: BUCKETLINT_SPARK set (.ci/run's
// live stage), and the venvs of oracle/setup.sh.
func TestHistoryServerLive(t *testing.T) {
	if os.Getenv("BUCKETLINT_SPARK") == "" {
		t.Skip("set BUCKETLINT_SPARK=1 to run Spark's History Server")
	}
	if _, err := exec.LookPath("java"); err != nil {
		t.Skip("no java on PATH")
	}
	bin := bucketlintBinary(t)
	for _, series := range []string{"3.5", "4.3"} {
		t.Run(series, func(t *testing.T) {
			home := sparkHome(t, series)
			logs := t.TempDir()
			var apps []string
			for _, dir := range recorded(t) {
				if filepath.Base(filepath.Dir(dir)) != series {
					continue
				}
				l := logOf(t, dir)
				copyLog(t, l, logs)
				apps = append(apps, l)
			}
			if len(apps) == 0 {
				t.Skipf("no event logs recorded with Spark %s", series)
			}
			base := startHistoryServer(t, home, logs, len(apps))
			for _, l := range apps {
				checkAgainstServer(t, base, l)
			}
			checkCLIAgainstServer(t, bin, logs, strings.TrimSuffix(base, "/api/v1"))
		})
	}
}

// sparkHome is the pyspark package directory of the pinned venv of series.
func sparkHome(t *testing.T, series string) string {
	t.Helper()
	dir := os.Getenv("BUCKETLINT_VENV_DIR")
	if dir == "" {
		h, err := os.UserHomeDir()
		if err != nil {
			t.Fatal(err)
		}
		dir = filepath.Join(h, ".cache", "bucketlint")
	}
	found, _ := filepath.Glob(filepath.Join(dir, "venv-"+series+".*", "lib", "python3*", "site-packages", "pyspark", "bin", "spark-class"))
	if len(found) == 0 {
		t.Skipf("no pyspark %s venv under %s (oracle/setup.sh %s)", series, dir, series)
	}
	return filepath.Dir(filepath.Dir(found[len(found)-1]))
}

// startHistoryServer runs org.apache.spark.deploy.history.HistoryServer on a free loopback
// port over logs and waits until it lists want applications; it is stopped when t ends.
func startHistoryServer(t *testing.T, home, logs string, want int) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := l.Addr().(*net.TCPAddr).Port
	l.Close()
	props := filepath.Join(t.TempDir(), "history.conf")
	conf := fmt.Sprintf("spark.history.fs.logDirectory file://%s\nspark.history.ui.port %d\nspark.history.fs.update.interval 1s\n", logs, port)
	if err := os.WriteFile(props, []byte(conf), 0o600); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(filepath.Join(home, "bin", "spark-class"), "org.apache.spark.deploy.history.HistoryServer", "--properties-file", props)
	cmd.Env = append(os.Environ(), "SPARK_HOME="+home, "SPARK_LOCAL_IP=127.0.0.1", "SPARK_NO_DAEMONIZE=1")
	out, err := os.Create(filepath.Join(t.TempDir(), "history.log"))
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stdout, cmd.Stderr = out, out
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGTERM)
		_ = cmd.Wait()
		out.Close()
	})
	base := fmt.Sprintf("http://127.0.0.1:%d/api/v1", port)
	deadline := time.Now().Add(3 * time.Minute)
	for time.Now().Before(deadline) {
		var list []map[string]any
		if getJSON(base+"/applications", &list) == nil && len(list) >= want {
			return base
		}
		time.Sleep(time.Second)
	}
	b, _ := os.ReadFile(out.Name())
	t.Fatalf("the History Server did not list %d applications in 3 minutes; its log:\n%s", want, tail(string(b), 3000))
	return ""
}

func tail(s string, n int) string {
	if len(s) > n {
		return s[len(s)-n:]
	}
	return s
}

func getJSON(url string, v any) error {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		b, _ := io.ReadAll(io.LimitReader(resp.Body, 500))
		return fmt.Errorf("%s: %s: %s", url, resp.Status, b)
	}
	return json.NewDecoder(bufio.NewReader(resp.Body)).Decode(v)
}

type restExecution struct {
	ID    int64 `json:"id"`
	Nodes []struct {
		Name    string `json:"nodeName"`
		Metrics []struct {
			Name  string `json:"name"`
			Value string `json:"value"`
		} `json:"metrics"`
	} `json:"nodes"`
}

// checkAgainstServer compares the log's figures with the server's for the log's application.
func checkAgainstServer(t *testing.T, base, log string) {
	t.Helper()
	ours := map[int64]*Execution{}
	app, err := Read(log, Options{Stages: true}, func(e *Execution) error {
		ours[e.ID] = e
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	var sql []restExecution
	if err := getJSON(base+"/applications/"+app.ID+"/sql?details=true&planDescription=false&length=10000", &sql); err != nil {
		t.Fatal(err)
	}
	compared := 0
	for _, rest := range sql {
		e := ours[rest.ID]
		if e == nil {
			t.Errorf("%s: execution %d not read", app.ID, rest.ID)
			continue
		}
		have := map[string]int{}
		averages := map[string]bool{} // Spark shows no total of an average: min, med and max only
		e.Plan.Walk(func(n *Node) {
			for _, m := range n.Metrics {
				if m.Type == "average" {
					averages[n.Name+"\x00"+m.Name] = true
				}
				if s, ok := shownTotal(m); ok {
					have[n.Name+"\x00"+m.Name+"\x00"+s]++
				}
			}
		})
		for _, n := range rest.Nodes {
			for _, m := range n.Metrics {
				total := m.Value
				if i := strings.LastIndexByte(total, '\n'); i >= 0 {
					total, _, _ = strings.Cut(total[i+1:], " (")
				}
				if averages[n.Name+"\x00"+m.Name] {
					continue
				}
				k := n.Name + "\x00" + m.Name + "\x00" + total
				if have[k] == 0 {
					t.Errorf("%s: execution %d: %s %q = %q on the server, not so in the log read", app.ID, rest.ID, n.Name, m.Name, m.Value)
					continue
				}
				have[k]--
				compared++
			}
		}
	}
	var stages []map[string]any
	if err := getJSON(base+"/applications/"+app.ID+"/stages", &stages); err != nil {
		t.Fatal(err)
	}
	for _, ws := range stages {
		if ws["status"] == "SKIPPED" {
			continue
		}
		compareStages(t, &reported{Stages: []map[string]any{ws}}, app)
		compared++
	}
	if compared < 50 {
		t.Errorf("%s: only %d figures compared", app.ID, compared)
	}
	t.Logf("%s (Spark %s): %d figures equal", app.ID, app.SparkVersion, compared)
}

// shownTotal is the total the SQL tab prints for m (SQLMetrics.stringValue): sums with
// thousands separators, sizes with Utils.bytesToString, times with Utils.msDurationToString.
func shownTotal(m Metric) (string, bool) {
	v := m.Value
	switch m.Type {
	case "sum":
		return thousands(v), true
	case "size":
		return bytesString(v), true
	case "timing":
		return msString(v), true
	case "nsTiming":
		return msString(v / 1e6), true
	}
	return "", false
}

func thousands(v int64) string {
	s := fmt.Sprint(v)
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 && s[i-1] != '-' {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	return b.String()
}

func bytesString(v int64) string {
	units := []string{"EiB", "PiB", "TiB", "GiB", "MiB", "KiB"}
	for i, u := range units {
		size := int64(1) << (10 * (6 - i))
		if v >= 2*size {
			return halfUp(v, size, 1) + " " + u
		}
	}
	return fmt.Sprintf("%d.0 B", v)
}

// halfUp prints n/d with the given decimals, rounded half up as Java's formatter rounds
// Spark's figures ("%.1f" of 32000/1024 is 31.3 there; Go's %.1f of 31.25 gives 31.2).
func halfUp(n, d int64, decimals int) string {
	scale := new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(decimals)), nil)
	num := new(big.Int).Mul(big.NewInt(n), scale)
	num.Mul(num, big.NewInt(2)).Add(num, big.NewInt(d))
	q := new(big.Int).Quo(num, big.NewInt(2*d))
	whole, frac := new(big.Int).QuoRem(q, scale, new(big.Int))
	return fmt.Sprintf("%s.%0*d", whole, decimals, frac.Int64())
}

func msString(ms int64) string {
	switch {
	case ms < 1000:
		return fmt.Sprintf("%d ms", ms)
	case ms < 60000:
		return halfUp(ms, 1000, 1) + " s"
	case ms < 3600000:
		return halfUp(ms, 60000, 1) + " m"
	}
	return halfUp(ms, 3600000, 2) + " h"
}

// TestShownTotalRoundsHalfUp: the SQL tab's strings, which the live test compares, round half
// up (Java's formatter): 32,000 bytes is 31.25 KiB, shown as 31.3 KiB.
func TestShownTotalRoundsHalfUp(t *testing.T) {
	for _, c := range []struct {
		got, want string
	}{
		{bytesString(32000), "31.3 KiB"},
		{bytesString(31999), "31.2 KiB"},
		{bytesString(100), "100.0 B"},
		{bytesString(3 << 30), "3.0 GiB"},
		{msString(1250), "1.3 s"},
		{msString(999), "999 ms"},
		{msString(63000), "1.1 m"},
		{msString(5400000), "1.50 h"},
	} {
		if c.got != c.want {
			t.Errorf("%q, want %q", c.got, c.want)
		}
	}
}
