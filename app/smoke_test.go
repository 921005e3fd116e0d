package app

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// TestSmokeRealWindow starts the real binary in a real X window under Xvfb and
// checks that it stays alive and draws the demo puzzle. `make smoke` (part of
// `make test`) runs it when Xvfb and xwd are installed.
func TestSmokeRealWindow(t *testing.T) {
	if os.Getenv("JIGBENCH_SMOKE") == "" {
		t.Skip("set JIGBENCH_SMOKE=1 (make smoke) to start a real window under Xvfb")
	}
	for _, tool := range []string{"Xvfb", "xwd"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s not installed", tool)
		}
	}
	bin := buildBinary(t)

	display := startXvfb(t, "1440x900")

	var appLog bytes.Buffer
	jb := exec.Command(bin)
	jb.Env = append(os.Environ(), "DISPLAY="+display, "LANG=en_US.UTF-8", "HOME="+t.TempDir())
	jb.Stdout, jb.Stderr = &appLog, &appLog
	if err := jb.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- jb.Wait() }()
	defer func() {
		jb.Process.Kill()
		<-exited
	}()

	colours := 0
	waitFor(t, 40*time.Second, "the window to show the demo puzzle", func() bool {
		select {
		case err := <-exited:
			t.Fatalf("jigbench exited (%v) before drawing:\n%s", err, appLog.String())
		default:
		}
		shot, err := exec.Command("xwd", "-root", "-silent", "-display", display).Output()
		if err != nil {
			return false
		}
		colours, err = distinctColours(shot)
		if err != nil {
			t.Fatal(err)
		}
		// An empty screen has 1 colour and a bare window a few dozen; a puzzle, thousands.
		return colours > 1000
	})
	t.Logf("smoke: window alive, %d distinct colours on screen", colours)
}

var built struct {
	once sync.Once
	path string
	err  error
}

// buildBinary builds the real jigbench binary once per test run.
func buildBinary(t *testing.T) string {
	t.Helper()
	built.once.Do(func() {
		dir, err := os.MkdirTemp("", "jigbench-bin-")
		if err != nil {
			built.err = err
			return
		}
		built.path = filepath.Join(dir, "jigbench")
		out, err := exec.Command("go", "build", "-tags", "migrated_fynedo", "-o", built.path, "..").CombinedOutput()
		if err != nil {
			built.err = fmt.Errorf("build: %v\n%s", err, out)
		}
	})
	if built.err != nil {
		t.Fatal(built.err)
	}
	return built.path
}

// TestHeadlessStderrIsClean runs the real binary under LANG=C, the server
// default: a headless command must print nothing but its own output, and an
// error exactly one line.
func TestHeadlessStderrIsClean(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	bin := buildBinary(t)
	for _, tc := range []struct {
		args     []string
		code     int
		errLines int
	}{
		{[]string{"version"}, 0, 0},
		{[]string{"demo", "list"}, 0, 0},
		{[]string{"generate", "--image", "/nonexistent.png", "--grid", "4", "--seed", "1", "--out", t.TempDir()}, 1, 1},
		{nil, 1, 1}, // the app, with no display to open it on (below)
	} {
		cmd := exec.Command(bin, tc.args...)
		cmd.Env = append(os.Environ(), "LANG=C", "LC_ALL=")
		if tc.args == nil {
			cmd.Env = slices.DeleteFunc(cmd.Env, func(kv string) bool {
				return strings.HasPrefix(kv, "DISPLAY=") || strings.HasPrefix(kv, "WAYLAND_DISPLAY=")
			})
		}
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		err := cmd.Run()
		code := 0
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		lines := 0
		if s := stderr.String(); s != "" {
			lines = len(strings.Split(strings.TrimRight(s, "\n"), "\n"))
		}
		if code != tc.code || lines != tc.errLines {
			t.Errorf("%v: exit %d with stderr %q; want exit %d and %d line(s)", tc.args, code, stderr.String(), tc.code, tc.errLines)
		}
	}
}

// startXvfb starts an X server on a free display with a screen of size
// (WIDTH×HEIGHT, 24-bit) and returns the display once it accepts clients.
// It is stopped when the test ends, by SIGTERM so that it removes its lock
// file and socket: killed outright it leaves both, and after some fifty
// runs no display number would be free.
func startXvfb(t *testing.T, size string) string {
	t.Helper()
	display := freeDisplay(t)
	xvfb := exec.Command("Xvfb", display, "-screen", "0", size+"x24", "-nolisten", "tcp")
	if err := xvfb.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan struct{})
	go func() { xvfb.Wait(); close(exited) }()
	t.Cleanup(func() {
		xvfb.Process.Signal(syscall.SIGTERM)
		select {
		case <-exited:
		case <-time.After(10 * time.Second):
			xvfb.Process.Kill()
			<-exited
		}
	})
	waitFor(t, 10*time.Second, "Xvfb to start", func() bool {
		_, err := os.Stat("/tmp/.X11-unix/X" + display[1:])
		return err == nil
	})
	return display
}

// freeDisplay returns a display number no X server holds: one with no lock
// file, or whose lock names a process that is gone — that lock and its
// socket are removed first, so that waiting for the socket waits for the
// new server.
func freeDisplay(t *testing.T) string {
	t.Helper()
	for n := 90; n < 140; n++ {
		lockFile, socket := fmt.Sprintf("/tmp/.X%d-lock", n), fmt.Sprintf("/tmp/.X11-unix/X%d", n)
		lock, err := os.ReadFile(lockFile)
		switch {
		case err == nil && staleLock(lock):
			if os.Remove(lockFile) != nil {
				continue
			}
			os.Remove(socket)
		case err != nil && os.IsNotExist(err):
			if _, err := os.Stat(socket); err == nil {
				continue // a socket without a lock: some other server's
			}
		default:
			continue
		}
		return fmt.Sprintf(":%d", n)
	}
	t.Fatal("no free X display number")
	return ""
}

// staleLock reports whether an X lock file names a process that no longer
// exists.
func staleLock(lock []byte) bool {
	pid, err := strconv.Atoi(strings.TrimSpace(string(lock)))
	if err != nil || pid <= 0 {
		return false
	}
	return syscall.Kill(pid, 0) == syscall.ESRCH
}

func waitFor(t *testing.T, limit time.Duration, what string, ok func() bool) {
	t.Helper()
	deadline := time.Now().Add(limit)
	for !ok() {
		if time.Now().After(deadline) {
			t.Fatalf("gave up waiting %v for %s", limit, what)
		}
		time.Sleep(250 * time.Millisecond)
	}
}

// distinctColours counts the pixel values of an XWD dump (24 or 32 bits per pixel).
func distinctColours(xwd []byte) (int, error) {
	img, err := xwdImage(xwd)
	if err != nil {
		return 0, err
	}
	seen := map[[4]uint8]bool{}
	for i := 0; i < len(img.Pix); i += 4 {
		seen[[4]uint8(img.Pix[i:i+4])] = true
	}
	return len(seen), nil
}
