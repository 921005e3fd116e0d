package app

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/jigbench/jigbench/core/vigor"
)

// hostileKinds are what a user (or an attacker) can put where a command
// expects a file. Each returns false when the kind cannot be made here.
var hostileKinds = []struct {
	name string
	make func(t *testing.T, path string, valid []byte, big string) bool
	// ok: a valid file in this dress is still read (BOM, CRLF line ends).
	ok bool
}{
	{"FIFO", func(t *testing.T, p string, _ []byte, _ string) bool { return syscall.Mkfifo(p, 0o600) == nil }, false},
	{"folder", func(t *testing.T, p string, _ []byte, _ string) bool { return os.Mkdir(p, 0o755) == nil }, false},
	{"symlink loop", func(t *testing.T, p string, _ []byte, _ string) bool { return os.Symlink(p, p) == nil }, false},
	{"device", func(t *testing.T, p string, _ []byte, _ string) bool {
		// /dev/zero: a read never ends. mknod needs root; a link will do too.
		return syscall.Mknod(p, syscall.S_IFCHR|0o600, 1<<8|5) == nil || os.Symlink("/dev/zero", p) == nil
	}, false},
	{"empty file", func(t *testing.T, p string, _ []byte, _ string) bool { return os.WriteFile(p, nil, 0o644) == nil }, false},
	{"binary bytes", func(t *testing.T, p string, _ []byte, _ string) bool {
		b := make([]byte, 4096)
		for i := range b {
			b[i] = byte(i * 131)
		}
		return os.WriteFile(p, b, 0o644) == nil
	}, false},
	{"invalid UTF-8", func(t *testing.T, p string, valid []byte, _ string) bool {
		return os.WriteFile(p, bytes.Replace(valid, []byte("a"), []byte("a\xff"), 1), 0o644) == nil
	}, false},
	{"BOM", func(t *testing.T, p string, valid []byte, _ string) bool {
		return os.WriteFile(p, append([]byte("\xef\xbb\xbf"), valid...), 0o644) == nil
	}, true},
	{"CRLF", func(t *testing.T, p string, valid []byte, _ string) bool {
		return os.WriteFile(p, bytes.ReplaceAll(valid, []byte("\n"), []byte("\r\n")), 0o644) == nil
	}, true},
	{"100 MB single line", func(t *testing.T, p string, _ []byte, big string) bool { return os.Link(big, p) == nil }, false},
}

// TestEveryReaderRefusesHostileFiles feeds every command that reads a file
// each hostile kind and wants one "jigbench:" line and exit 1 (or success
// for a valid file with a BOM or CRLF line ends), and no hang.
func TestEveryReaderRefusesHostileFiles(t *testing.T) {
	if testing.Short() {
		t.Skip("writes a 100 MB file")
	}
	root := t.TempDir()
	big := filepath.Join(root, "big")
	line := bytes.Repeat([]byte("a"), 100<<20)
	if err := os.WriteFile(big, line, 0o644); err != nil {
		t.Fatal(err)
	}
	line = nil

	// Valid inputs to dress up.
	truth := filepath.Join(root, "truth")
	inst := generateCLI(t, truth, "--demo", "harbor-town", "--grid", "4", "--seed", "1", "--size", "256")
	instJSON, _ := os.ReadFile(filepath.Join(inst, "instance.json"))
	answers := []byte(fmt.Sprintf("{\"id\": %q, \"prediction\": {\"1\": [0, 0]}}\n", filepath.Base(inst)))
	splitDir, sp := vigorTestSplit(t)
	splitJSON, _ := os.ReadFile(filepath.Join(splitDir, vigor.SplitFile))
	humans, judge := vigor.Simulate(sp, vigor.SimConfig{Seed: 5})
	ratingsCSV := filepath.Join(root, "ratings.csv")
	vigor.WriteRatingsFile(ratingsCSV, humans[:12])
	ratings, _ := os.ReadFile(ratingsCSV)
	judgeFile := filepath.Join(root, "judge.jsonl")
	vigor.WriteJudgeFile(judgeFile, sp, judge)
	judgeData, _ := os.ReadFile(judgeFile)
	irrCSV := []byte("a,b\n1,1\n0,1\n1,0\n")

	type reader struct {
		name  string
		valid []byte
		// args builds the command line with the hostile file at p; dir is a
		// fresh folder for the case.
		args func(p, dir string) []string
		// place says where the hostile file goes inside dir ("" = dir/input).
		place func(dir string) string
	}
	var copyDir func(src, dst string)
	copyDir = func(src, dst string) {
		os.MkdirAll(dst, 0o755)
		entries, _ := os.ReadDir(src)
		for _, e := range entries {
			if e.Type().IsRegular() {
				b, _ := os.ReadFile(filepath.Join(src, e.Name()))
				os.WriteFile(filepath.Join(dst, e.Name()), b, 0o644)
			} else if e.IsDir() {
				copyDir(filepath.Join(src, e.Name()), filepath.Join(dst, e.Name()))
			}
		}
	}
	// placeInstance copies the instance folder and leaves its instance.json to the case.
	placeInstance := func(dir string) string {
		copyDir(inst, filepath.Join(dir, "inst"))
		os.Remove(filepath.Join(dir, "inst", "instance.json"))
		return filepath.Join(dir, "inst", "instance.json")
	}
	readers := []reader{
		{"generate --image", nil, func(p, dir string) []string {
			return []string{"generate", "--image", p, "--grid", "4", "--seed", "1", "--out", filepath.Join(dir, "out")}
		}, nil},
		{"solve (instance.json)", instJSON, func(p, dir string) []string {
			return []string{"solve", filepath.Dir(p), "--mode", "shape", "--out", filepath.Join(dir, "answer.json")}
		}, placeInstance},
		{"score --pred", answers, func(p, dir string) []string {
			return []string{"score", "--truth", inst, "--pred", "m=" + p}
		}, func(dir string) string { return filepath.Join(dir, "answers.jsonl") }},
		{"vigor check (split.json)", splitJSON, func(p, dir string) []string {
			return []string{"vigor", "check", filepath.Dir(p)}
		}, func(dir string) string {
			copyDir(splitDir, filepath.Join(dir, "split"))
			os.Remove(filepath.Join(dir, "split", vigor.SplitFile))
			return filepath.Join(dir, "split", vigor.SplitFile)
		}},
		{"vigor import", ratings, func(p, dir string) []string {
			return []string{"vigor", "import", "--split", splitDir, "--db", filepath.Join(dir, "r.db"), p}
		}, func(dir string) string { return filepath.Join(dir, "ratings.csv") }},
		{"vigor agree --judge", judgeData, func(p, dir string) []string {
			return []string{"vigor", "agree", "--split", splitDir, "--humans", ratingsCSV, "--judge", p, "--bootstrap", "0"}
		}, func(dir string) string { return filepath.Join(dir, "judge.jsonl") }},
		{"ambiguity (instance.json)", instJSON, func(p, dir string) []string {
			return []string{"ambiguity", filepath.Dir(p)}
		}, placeInstance},
		{"requests (instance.json)", instJSON, func(p, dir string) []string {
			return []string{"requests", "--truth", filepath.Dir(p), "--out", filepath.Join(dir, "requests.jsonl")}
		}, placeInstance},
		{"run --requests", nil, func(p, dir string) []string {
			return []string{"run", "--requests", p, "--endpoint", "http://127.0.0.1:9", "--out", filepath.Join(dir, "out.jsonl")}
		}, func(dir string) string { return filepath.Join(dir, "requests.jsonl") }},
		{"vigor irr --data", irrCSV, func(p, dir string) []string {
			return []string{"vigor", "irr", "--data", p}
		}, func(dir string) string { return filepath.Join(dir, "irr.csv") }},
	}
	for _, r := range readers {
		for _, k := range hostileKinds {
			if k.ok && r.valid == nil {
				continue // a binary format has no BOM or line ends
			}
			t.Run(r.name+"/"+k.name, func(t *testing.T) {
				dir := t.TempDir()
				p := filepath.Join(dir, "input")
				if r.place != nil {
					p = r.place(dir)
				}
				if !k.make(t, p, r.valid, big) {
					t.Skipf("cannot make a %s here", k.name)
				}
				type result struct {
					code           int
					stdout, stderr string
				}
				done := make(chan result, 1)
				go func() {
					c, o, e := runCLI(r.args(p, dir)...)
					done <- result{c, o, e}
				}()
				var res result
				select {
				case res = <-done:
				case <-time.After(2 * time.Minute):
					t.Fatalf("%v hung on a %s", r.args(p, dir), k.name)
				}
				lines := strings.Split(strings.TrimSpace(res.stderr), "\n")
				if k.ok {
					if res.code != 0 {
						t.Errorf("a valid file with a %s: exit %d: %s", k.name, res.code, res.stderr)
					}
					return
				}
				if res.code != 1 || len(lines) != 1 || !strings.HasPrefix(lines[0], "jigbench: ") {
					t.Errorf("exit %d, stderr %q; want exit 1 and one jigbench: line", res.code, clip(res.stderr, 400))
				}
			})
		}
	}
}

func clip(s string, n int) string {
	if len(s) > n {
		return s[:n] + "…"
	}
	return s
}
