// Package pgtest runs a throwaway PostgreSQL server for tests: Debian's
// packages (.ci/deps test installs postgresql), a cluster made by initdb in
// a temporary folder, listening on 127.0.0.1 and a socket in that folder
// only, run as an unprivileged user (the server refuses root). Tests that
// need it skip, saying why, where it cannot be had.
//
// Only tests import this package; the jigbench binary never does.
package pgtest

import (
	"bufio"
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
	"testing"
	"time"

	_ "github.com/jackc/pgx/v5/stdlib" // the "pgx" driver for FreshDB
)

// Password is the throwaway cluster's password; redaction tests check it
// never shows.
const Password = "s3cret-Pw-4-tests"

// Server is one throwaway cluster.
type Server struct {
	bin, dir, data string
	port           int
	runAs          []string // the command prefix that drops root
	cmd            *exec.Cmd
	exited         chan struct{}
	startLines     []string // the server's own start lines, for the test log
}

var shared struct {
	once sync.Once
	srv  *Server
	err  error
}

var dbCounter atomic.Int64

// Shared returns the package's shared server, starting it on first use, or
// skips t. Call StopShared from TestMain.
func Shared(t testing.TB) *Server {
	t.Helper()
	shared.once.Do(func() { shared.srv, shared.err = Start() })
	if shared.err != nil {
		t.Skipf("PostgreSQL tests skipped: %v", shared.err)
	}
	return shared.srv
}

// StopShared stops the shared server, if one was started, and removes its
// folder.
func StopShared() {
	if shared.srv != nil {
		shared.srv.Remove()
	}
}

// binDir finds Debian's server binaries (the newest version installed).
func binDir() (string, error) {
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

// Start makes and starts a new cluster of its own.
func Start() (*Server, error) {
	bin, err := binDir()
	if err != nil {
		return nil, err
	}
	dir, err := os.MkdirTemp("", "jigbench-pg-")
	if err != nil {
		return nil, err
	}
	s := &Server{bin: bin, dir: dir, data: filepath.Join(dir, "data")}
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
	if err := os.WriteFile(pw, []byte(Password+"\n"), 0o644); err != nil {
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

func (s *Server) command(name string, args ...string) *exec.Cmd {
	full := append(append(slices.Clone(s.runAs), filepath.Join(s.bin, name)), args...)
	cmd := exec.Command(full[0], full[1:]...)
	cmd.Dir = s.dir
	return cmd
}

// Restart starts a stopped server again (Start starts it the first time).
func (s *Server) Restart() error { return s.start() }

// start runs the server in the foreground of a child process and waits
// until it accepts connections.
func (s *Server) start() error {
	cmd := s.command("postgres", "-D", s.data, "-c", "listen_addresses=127.0.0.1", "-c", "port="+strconv.Itoa(s.port),
		"-c", "unix_socket_directories="+s.dir, "-c", "max_connections=60")
	out, err := cmd.StderrPipe()
	if err != nil {
		return err
	}
	cmd.Stdout = nil
	ownGroup(cmd)
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
		s.Stop()
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

// Stop shuts the server down (fast shutdown: open sessions end, what was
// committed is kept) and waits for it.
func (s *Server) Stop() {
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
	s.interrupt(pid)
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
		kill(s.cmd)
		<-s.exited
	}
}

// URL is the server's address for database db, with the password.
func (s *Server) URL(db string) string {
	return fmt.Sprintf("postgres://jig:%s@127.0.0.1:%d/%s?sslmode=disable", Password, s.port, db)
}

// FreshDB creates an empty database and returns its URL.
func (s *Server) FreshDB(t testing.TB) string {
	t.Helper()
	admin, err := sql.Open("pgx", s.URL("postgres"))
	if err != nil {
		t.Fatal(err)
	}
	defer admin.Close()
	name := fmt.Sprintf("t%d_%d", os.Getpid(), dbCounter.Add(1))
	if _, err := admin.Exec("CREATE DATABASE " + name); err != nil {
		t.Fatalf("create a test database: %v", err)
	}
	return s.URL(name)
}

func lastLines(s string, n int) string {
	ls := strings.Split(strings.TrimSpace(s), "\n")
	return strings.Join(ls[max(0, len(ls)-n):], " | ")
}

// StartLines are the server's own start lines (version, addresses,
// ready), for a test log.
func (s *Server) StartLines() []string { return s.startLines }

// Remove stops the server and deletes its folder.
func (s *Server) Remove() {
	s.Stop()
	os.RemoveAll(s.dir)
}

// StartOrSkip starts a server of t's own, removed when t ends (a test
// may stop and restart it), or skips t saying why it cannot be had.
func StartOrSkip(t testing.TB) *Server {
	t.Helper()
	s, err := Start()
	if err != nil {
		t.Skipf("PostgreSQL tests skipped: %v", err)
	}
	t.Cleanup(s.Remove)
	return s
}
