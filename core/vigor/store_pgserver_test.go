package vigor

import (
	"bufio"
	"context"
	"database/sql"
	"fmt"
	"net"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"
)

// A throwaway PostgreSQL server for the store tests: Debian's packages
// (.ci/deps test installs postgresql), a cluster made by initdb in a
// temporary folder, listening on 127.0.0.1 and a socket in that folder
// only, run as an unprivileged user (the server refuses root), stopped by
// TestMain. Tests that need it skip, saying why, where it cannot be had.

// pgTestPassword is the throwaway cluster's password; the redaction test
// checks it never shows.
const pgTestPassword = "s3cret-Pw-4-tests"

type pgServer struct {
	bin, dir, data string
	port           int
	runAs          []string // the command prefix that drops root
	cmd            *exec.Cmd
	exited         chan struct{}
	startLines     []string // the server's own start lines, for the test log
}

var sharedPG struct {
	once sync.Once
	srv  *pgServer
	err  error
}

var pgDBCounter atomic.Int64

func TestMain(m *testing.M) {
	code := m.Run()
	if sharedPG.srv != nil {
		sharedPG.srv.stop()
		os.RemoveAll(sharedPG.srv.dir)
	}
	os.Exit(code)
}

// postgresForTest returns the shared server, starting it on first use, or
// skips t.
func postgresForTest(t testing.TB) *pgServer {
	t.Helper()
	sharedPG.once.Do(func() { sharedPG.srv, sharedPG.err = startPostgres() })
	if sharedPG.err != nil {
		t.Skipf("PostgreSQL tests skipped: %v", sharedPG.err)
	}
	return sharedPG.srv
}

// pgBinDir finds Debian's server binaries (the newest version installed).
func pgBinDir() (string, error) {
	if p, err := exec.LookPath("pg_config"); err == nil {
		if out, err := exec.Command(p, "--bindir").Output(); err == nil {
			dir := strings.TrimSpace(string(out))
			if _, err := os.Stat(filepath.Join(dir, "initdb")); err == nil {
				return dir, nil
			}
		}
	}
	dirs, _ := filepath.Glob("/usr/lib/postgresql/*/bin")
	slices.SortFunc(dirs, func(a, b string) int {
		va, _ := strconv.Atoi(filepath.Base(filepath.Dir(a)))
		vb, _ := strconv.Atoi(filepath.Base(filepath.Dir(b)))
		return va - vb
	})
	for i := len(dirs) - 1; i >= 0; i-- {
		if _, err := os.Stat(filepath.Join(dirs[i], "initdb")); err == nil {
			return dirs[i], nil
		}
	}
	return "", fmt.Errorf("no PostgreSQL server installed (initdb not found; on Debian: apt-get install postgresql, or sh .ci/deps test)")
}

func startPostgres() (*pgServer, error) {
	bin, err := pgBinDir()
	if err != nil {
		return nil, err
	}
	dir, err := os.MkdirTemp("", "jigbench-pg-")
	if err != nil {
		return nil, err
	}
	s := &pgServer{bin: bin, dir: dir, data: filepath.Join(dir, "data")}
	if os.Geteuid() == 0 {
		// The server refuses to run as root: hand the folder to nobody.
		if _, err := exec.LookPath("runuser"); err != nil {
			return nil, fmt.Errorf("running as root without runuser to start the server as another user")
		}
		u, err := user.Lookup("nobody")
		if err != nil {
			return nil, fmt.Errorf("running as root and there is no user nobody to start the server as")
		}
		uid, _ := strconv.Atoi(u.Uid)
		gid, _ := strconv.Atoi(u.Gid)
		if err := os.Chown(dir, uid, gid); err != nil {
			return nil, err
		}
		s.runAs = []string{"runuser", "-u", "nobody", "--"}
		defer func() {
			filepath.Walk(dir, func(p string, _ os.FileInfo, _ error) error { return os.Chown(p, uid, gid) })
		}()
	}
	pw := filepath.Join(dir, "pw")
	if err := os.WriteFile(pw, []byte(pgTestPassword+"\n"), 0o644); err != nil {
		return nil, err
	}
	if os.Geteuid() == 0 {
		u, _ := user.Lookup("nobody")
		uid, _ := strconv.Atoi(u.Uid)
		gid, _ := strconv.Atoi(u.Gid)
		os.Chown(pw, uid, gid)
	}
	out, err := s.command("initdb", "-D", s.data, "-U", "jig", "--pwfile="+pw, "-A", "scram-sha-256",
		"-E", "UTF8", "--no-locale", "--no-sync").CombinedOutput()
	if err != nil {
		return nil, fmt.Errorf("initdb failed: %v: %s", err, lastLines(string(out), 3))
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	s.port = l.Addr().(*net.TCPAddr).Port
	l.Close()
	if err := s.start(); err != nil {
		return nil, err
	}
	return s, nil
}

func (s *pgServer) command(name string, args ...string) *exec.Cmd {
	full := append(append(slices.Clone(s.runAs), filepath.Join(s.bin, name)), args...)
	cmd := exec.Command(full[0], full[1:]...)
	cmd.Dir = s.dir
	return cmd
}

// start runs the server in the foreground of a child process and waits
// until it accepts connections.
func (s *pgServer) start() error {
	cmd := s.command("postgres", "-D", s.data, "-c", "listen_addresses=127.0.0.1", "-c", "port="+strconv.Itoa(s.port),
		"-c", "unix_socket_directories="+s.dir, "-c", "max_connections=60")
	out, err := cmd.StderrPipe()
	if err != nil {
		return err
	}
	cmd.Stdout = nil
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("start postgres: %v", err)
	}
	s.cmd, s.exited = cmd, make(chan struct{})
	ready := make(chan struct{})
	var lines []string
	var mu sync.Mutex
	go func() {
		sc := bufio.NewScanner(out)
		once := sync.Once{}
		for sc.Scan() {
			line := sc.Text()
			mu.Lock()
			lines = append(lines, line)
			mu.Unlock()
			if strings.Contains(line, "ready to accept connections") {
				once.Do(func() { close(ready) })
			}
		}
		cmd.Wait()
		close(s.exited)
	}()
	select {
	case <-ready:
	case <-s.exited:
		mu.Lock()
		defer mu.Unlock()
		return fmt.Errorf("postgres exited at start: %s", lastLines(strings.Join(lines, "\n"), 3))
	case <-time.After(60 * time.Second):
		s.stop()
		return fmt.Errorf("postgres did not get ready in a minute")
	}
	mu.Lock()
	s.startLines = nil
	for _, l := range lines {
		if strings.Contains(l, "starting PostgreSQL") || strings.Contains(l, "listening on") ||
			strings.Contains(l, "ready to accept connections") {
			s.startLines = append(s.startLines, l)
		}
	}
	mu.Unlock()
	return nil
}

// stop shuts the server down (fast shutdown: open sessions end, what was
// committed is kept) and waits for it.
func (s *pgServer) stop() {
	if s.cmd == nil || s.cmd.Process == nil {
		return
	}
	select {
	case <-s.exited:
		return
	default:
	}
	// Signal the postmaster itself (runuser may stand between), then wait
	// for it to remove its pid file: only then may a new one start.
	pidFile := filepath.Join(s.data, "postmaster.pid")
	pid := s.cmd.Process.Pid
	if data, err := os.ReadFile(pidFile); err == nil {
		if p, err := strconv.Atoi(strings.TrimSpace(strings.SplitN(string(data), "\n", 2)[0])); err == nil {
			pid = p
		}
	}
	syscall.Kill(pid, syscall.SIGINT)
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		if _, err := os.Stat(pidFile); os.IsNotExist(err) {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	select {
	case <-s.exited:
	case <-time.After(10 * time.Second):
		syscall.Kill(-s.cmd.Process.Pid, syscall.SIGKILL)
		<-s.exited
	}
}

// url is the server's address for database db, with the password.
func (s *pgServer) url(db string) string {
	return fmt.Sprintf("postgres://jig:%s@127.0.0.1:%d/%s?sslmode=disable", pgTestPassword, s.port, db)
}

// freshDB creates an empty database and returns its URL.
func (s *pgServer) freshDB(t testing.TB) string {
	t.Helper()
	admin, err := sql.Open("pgx", s.url("postgres"))
	if err != nil {
		t.Fatal(err)
	}
	defer admin.Close()
	name := fmt.Sprintf("t%d_%d", os.Getpid(), pgDBCounter.Add(1))
	if _, err := admin.Exec("CREATE DATABASE " + name); err != nil {
		t.Fatalf("create a test database: %v", err)
	}
	return s.url(name)
}

func lastLines(s string, n int) string {
	ls := strings.Split(strings.TrimSpace(s), "\n")
	return strings.Join(ls[max(0, len(ls)-n):], " | ")
}

// openPostgresTestStore opens a store in a fresh database of the shared server.
func openPostgresTestStore(t *testing.T) *Store {
	t.Helper()
	srv := postgresForTest(t)
	st, err := OpenStoreAt(context.Background(), srv.freshDB(t), false)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

// TestPostgresServer starts the throwaway server and logs its start lines
// (make test runs it verbosely, so CI logs show them), then opens a store.
func TestPostgresServer(t *testing.T) {
	srv := postgresForTest(t)
	for _, l := range srv.startLines {
		t.Logf("postgres: %s", l)
	}
	st := openPostgresTestStore(t)
	v, err := st.d.readVersion(context.Background(), st.db)
	if err != nil || v != schemaVersion {
		t.Errorf("schema version %d (%v), want %d", v, err, schemaVersion)
	}
}
