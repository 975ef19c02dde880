//go:build engine && unix && sparkconnect

package verify

import (
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/bucketlint/bucketlint/engine/hash"
	"github.com/bucketlint/bucketlint/simulate"
)

// TestConnectLive verifies advice over Spark Connect on a real Spark: two small tables
// bucketed 6 and 8 ways by their join key are created through SQL, RunConnect copies the
// 6-bucket one into 8 buckets in a scratch database, and Spark must then plan no shuffle
// where it planned one, return the same checksum on both sides and keep no scratch database.
// Opt-in: BUCKETLINT_SPARK set. It uses $BUCKETLINT_SPARK_CONNECT (sc://host:port) when
// set, or starts a local Connect server on a free 127.0.0.1 port from the pip pyspark 4.x
// under ${BUCKETLINT_VENV_DIR:-~/.cache/bucketlint} (Java 17 on PATH), stopped at the end.
func TestConnectLive(t *testing.T) {
	if os.Getenv("BUCKETLINT_SPARK") == "" {
		t.Skip("set BUCKETLINT_SPARK=1 to run against a Spark Connect server")
	}
	ctx, cancel := context.WithTimeout(t.Context(), 4*time.Minute)
	defer cancel()
	remote := os.Getenv("BUCKETLINT_SPARK_CONNECT")
	var exited <-chan struct{}
	if remote == "" {
		remote, exited = startConnectServer(t)
	}
	s := waitForConnect(ctx, t, remote, exited)
	db := "bucketlint_live_" + randomSuffix()
	defer func() {
		dctx, dcancel := context.WithTimeout(context.WithoutCancel(ctx), time.Minute)
		defer dcancel()
		if _, err := s.SQL(dctx, "DROP DATABASE IF EXISTS "+db+" CASCADE"); err != nil {
			t.Errorf("dropping %s: %v", db, err)
		}
		if err := s.Close(); err != nil {
			t.Log(err)
		}
	}()
	ddl := strings.ReplaceAll(connectDDL, "shop.", db+".")
	for _, q := range []string{
		"CREATE DATABASE " + db,
		strings.TrimSuffix(strings.Split(ddl, "\n")[0], ";"),
		strings.TrimSuffix(strings.Split(ddl, "\n")[1], ";"),
		"INSERT INTO " + db + ".orders SELECT id, CAST(id % 97 AS INT), id * 3 FROM range(3000)",
		"INSERT INTO " + db + ".customers SELECT CAST(id AS INT), concat('c', id) FROM range(120)",
	} {
		if _, err := s.SQL(ctx, q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	v, err := simulate.ParseVersion("4.0")
	if err != nil {
		t.Fatal(err)
	}
	sim := simulate.Options{SparkVersion: v, BucketOf: hash.BucketOfLiteral, Confs: map[string]string{}}
	start := time.Now()
	res, err := RunConnect(ctx, advised(t, ddl), ConnectOptions{Remote: remote, Sim: sim, ParseExplain: parseExplain})
	if err != nil {
		t.Fatal(err)
	}
	r := res[0]
	if r.Error != "" {
		t.Fatal(r.Error)
	}
	t.Logf("%s: exchanges %d → %d (predicted %d → %d), checksums %s / %s, %s", r.Name, r.Before.Exchanges, r.After.Exchanges,
		r.Before.Predicted, r.After.Predicted, r.Before.Checksum, r.After.Checksum, time.Since(start).Round(time.Millisecond))
	if r.Before.Exchanges <= r.After.Exchanges || r.After.Exchanges != 0 || !r.Identical || r.Rows == 0 || !r.Reproduced() {
		t.Errorf("not reproduced: %+v", r)
	}
	rows, err := s.SQL(ctx, "SHOW DATABASES LIKE '"+scratchPrefix+"*'")
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) > 0 {
		t.Errorf("scratch databases left: %v", rows)
	}
}

// waitForConnect opens a session on remote once the server answers, for up to 2 minutes or
// until the server exits (exited closed; nil for a server the test did not start).
func waitForConnect(ctx context.Context, t *testing.T, remote string, exited <-chan struct{}) sqlSession {
	t.Helper()
	deadline := time.Now().Add(2 * time.Minute)
	for {
		s, err := dialConnect(ctx, remote)
		if err == nil {
			if _, err = s.SQL(ctx, "SELECT 1"); err == nil {
				return s
			}
			_ = s.Close()
		}
		if time.Now().After(deadline) || ctx.Err() != nil {
			t.Fatalf("no Spark Connect server at %s: %v", remote, err)
		}
		select {
		case <-exited:
			t.Fatalf("the Spark Connect server exited: %v", err)
		case <-time.After(2 * time.Second):
		}
	}
}

// startConnectServer starts pyspark's sbin/start-connect-server.sh in the foreground, in its
// own process group on a free 127.0.0.1 port with a temporary warehouse, and stops the group
// when the test ends. It skips the test when no pyspark 4.x venv or no java is found.
func startConnectServer(t *testing.T) (string, <-chan struct{}) {
	t.Helper()
	dir := os.Getenv("BUCKETLINT_VENV_DIR")
	if dir == "" {
		home, err := os.UserHomeDir()
		if err != nil {
			t.Fatal(err)
		}
		dir = filepath.Join(home, ".cache", "bucketlint")
	}
	found, _ := filepath.Glob(filepath.Join(dir, "venv-4.*", "lib", "python*", "site-packages", "pyspark", "sbin", "start-connect-server.sh"))
	if len(found) == 0 {
		t.Skipf("no pyspark 4.x venv with sbin/start-connect-server.sh under %s (oracle/setup.sh 4.3.0)", dir)
	}
	if _, err := exec.LookPath("java"); err != nil {
		t.Skip("no java on PATH")
	}
	sort.Strings(found)
	script := found[len(found)-1]
	sparkHome := filepath.Dir(filepath.Dir(script))
	port := freePort(t)
	tmp := t.TempDir()
	cmd := exec.Command("bash", script, "--wait", "--master", "local[2]", //nolint:gosec // the script of the test's own venv
		"--conf", "spark.connect.grpc.binding.address=127.0.0.1",
		"--conf", fmt.Sprintf("spark.connect.grpc.binding.port=%d", port),
		"--conf", "spark.sql.warehouse.dir="+filepath.Join(tmp, "warehouse"),
		"--conf", "spark.sql.catalogImplementation=in-memory",
		"--conf", "spark.ui.enabled=false",
		"--conf", "spark.driver.host=127.0.0.1",
		"--conf", "spark.driver.bindAddress=127.0.0.1",
		"--conf", "spark.local.dir="+filepath.Join(tmp, "local"))
	cmd.Dir = tmp
	cmd.Env = append(os.Environ(), "SPARK_HOME="+sparkHome, "SPARK_LOG_DIR="+tmp, "SPARK_PID_DIR="+tmp,
		"SPARK_CONF_DIR="+tmp, "SPARK_LOCAL_IP=127.0.0.1", "TZ=UTC")
	log, err := os.Create(filepath.Join(tmp, "server.log"))
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stdout, cmd.Stderr = log, log
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		t.Fatalf("starting %s: %v", script, err)
	}
	exited := make(chan struct{})
	go func() {
		_ = cmd.Wait()
		close(exited)
	}()
	// Registered after t.TempDir, so it runs before the directory is removed.
	t.Cleanup(func() {
		stopGroup(cmd.Process.Pid, exited)
		_ = log.Close()
		if t.Failed() {
			if b, err := os.ReadFile(log.Name()); err == nil {
				t.Logf("server log (tail):\n%s", lastLines(string(b), 30))
			}
		}
	})
	return fmt.Sprintf("sc://127.0.0.1:%d", port), exited
}

// stopGroup stops the process group of the server: SIGTERM, then SIGKILL after 20 s, and
// waits (up to 30 s) until the leader has exited and no process of the group (the JVM) is
// left.
func stopGroup(pgid int, exited <-chan struct{}) {
	_ = syscall.Kill(-pgid, syscall.SIGTERM)
	start := time.Now()
	deadline := start.Add(20 * time.Second)
	killed := false
	for time.Since(start) < 30*time.Second {
		select {
		case <-exited:
			if syscall.Kill(-pgid, 0) != nil { // ESRCH: the whole group is gone
				return
			}
		default:
		}
		if !killed && time.Now().After(deadline) {
			_ = syscall.Kill(-pgid, syscall.SIGKILL)
			killed = true
		}
		time.Sleep(200 * time.Millisecond)
	}
}

func freePort(t *testing.T) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}
