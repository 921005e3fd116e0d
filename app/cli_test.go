package app

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"hash/crc32"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// runCLI runs one command line in-process.
func runCLI(args ...string) (code int, stdout, stderr string) {
	var out, errb bytes.Buffer
	code = run(&env{stdout: &out, stderr: &errb}, args)
	return code, out.String(), errb.String()
}

// generateCLI runs `jigbench generate args… --out out` and returns the
// instance folder it prints, failing the test with generate's error.
func generateCLI(t *testing.T, out string, args ...string) string {
	t.Helper()
	code, stdout, stderr := runCLI(append(append([]string{"generate"}, args...), "--out", out)...)
	if code != 0 {
		t.Fatalf("generate %v: %s", args, stderr)
	}
	return strings.TrimSpace(stdout)
}

func TestVersionMatchesFyneAppToml(t *testing.T) {
	toml, err := os.ReadFile("../FyneApp.toml")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?m)^\s*Version\s*=\s*"([^"]+)"`).FindSubmatch(toml)
	if m == nil || string(m[1]) != Version {
		t.Fatalf("FyneApp.toml version %q, app.Version %q", m, Version)
	}
	code, out, _ := runCLI("version")
	if code != 0 || strings.TrimSpace(out) != "jigbench "+Version {
		t.Fatalf("version printed %q (exit %d)", out, code)
	}
}

func TestBaselineMatchesSimulationAndPaper(t *testing.T) {
	paper := map[int][2]float64{4: {20.0, 30.8}, 8: {5.6, 39.0}, 12: {2.6, 42.3}, 16: {1.5, 44.1}}
	for n, want := range paper {
		code, out, errs := runCLI("baseline", "--grid", strconv.Itoa(n), "--trials", "20000", "--seed", "3")
		if code != 0 {
			t.Fatalf("baseline --grid %d: exit %d: %s", n, code, errs)
		}
		var b struct {
			Grid int     `json:"grid"`
			PA   float64 `json:"pa"`
			AA   float64 `json:"aa"`
			SC   float64 `json:"sc"`
			MC   struct {
				Trials int     `json:"trials"`
				AA     float64 `json:"aa"`
				SC     float64 `json:"sc"`
			} `json:"mc"`
		}
		if err := json.Unmarshal([]byte(out), &b); err != nil {
			t.Fatalf("baseline output %q: %v", out, err)
		}
		round1 := func(x float64) float64 { return math.Round(x*1000) / 10 }
		if round1(b.AA) != want[0] || round1(b.SC) != want[1] {
			t.Errorf("N=%d: AA %.4f SC %.4f, paper %.1f%% / %.1f%%", n, b.AA, b.SC, want[0], want[1])
		}
		// The simulation must agree within a few standard errors (20,000 trials).
		if math.Abs(b.MC.AA-b.AA) > 0.004 || math.Abs(b.MC.SC-b.SC) > 0.004 {
			t.Errorf("N=%d: exact AA %.4f SC %.4f vs Monte Carlo %.4f %.4f", n, b.AA, b.SC, b.MC.AA, b.MC.SC)
		}
		if b.Grid != n || b.MC.Trials != 20000 || b.PA != 1/float64(n*n) {
			t.Errorf("N=%d: %s", n, out)
		}
	}
}

func TestGenerateWritesAnInstanceFolderIdentically(t *testing.T) {
	out1, out2 := t.TempDir(), t.TempDir()
	args := []string{"generate", "--demo", "", "--grid", "4", "--seed", "7"}
	code, _, _ := runCLI("demo", "list")
	if code != 0 {
		t.Fatal("demo list failed")
	}
	_, names, _ := runCLI("demo", "list")
	first := strings.Fields(names)[0]
	args[2] = first
	var dirs []string
	for _, out := range []string{out1, out2} {
		code, stdout, stderr := runCLI(append(args, "--out", out)...)
		if code != 0 {
			t.Fatalf("generate: exit %d: %s", code, stderr)
		}
		dirs = append(dirs, strings.TrimSpace(stdout))
	}
	want := first + "-g4-s7"
	for _, d := range dirs {
		if filepath.Base(d) != want {
			t.Fatalf("printed %q, want a folder named %s", d, want)
		}
	}
	for _, f := range []string{"instance.json", "shape.png", "rect.png", "solved.png", "prompt-shape.txt", "prompt-rect.txt"} {
		a, err := os.ReadFile(filepath.Join(dirs[0], f))
		if err != nil {
			t.Fatal(err)
		}
		b, err := os.ReadFile(filepath.Join(dirs[1], f))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(a, b) {
			t.Errorf("%s differs between two runs", f)
		}
	}
}

// TestBadInputGivesOneLine: exit 1 and exactly one "jigbench:" line on stderr.
func TestBadInputGivesOneLine(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, data []byte) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	valid, err := os.ReadFile("../core/render/testdata/small.png")
	if err != nil {
		t.Fatal(err)
	}
	unreadable := write("locked.png", valid)
	os.Chmod(unreadable, 0)
	cases := map[string]string{
		"not an image": write("notes.png", []byte("just some text")),
		"truncated":    write("half.png", valid[:len(valid)/2]),
		"200 MP":       write("bomb.png", hugePNGHeader(20000, 10000)),
		"missing":      filepath.Join(dir, "nowhere.png"),
		"folder":       dir,
	}
	if os.Geteuid() != 0 { // root reads anything
		cases["unreadable"] = unreadable
	}
	for name, path := range cases {
		code, stdout, stderr := runCLI("generate", "--image", path, "--grid", "4", "--seed", "1", "--out", t.TempDir())
		lines := strings.Split(strings.TrimRight(stderr, "\n"), "\n")
		if code != 1 || stdout != "" || len(lines) != 1 || !strings.HasPrefix(lines[0], "jigbench: ") {
			t.Errorf("%s: exit %d, stdout %q, stderr %q; want exit 1 and one jigbench: line", name, code, stdout, stderr)
		}
		if !strings.Contains(stderr, filepath.Base(path)) {
			t.Errorf("%s: the message %q does not name the file", name, stderr)
		}
	}
}

func hugePNGHeader(w, h uint32) []byte {
	var b bytes.Buffer
	b.WriteString("\x89PNG\r\n\x1a\n")
	ihdr := make([]byte, 13)
	binary.BigEndian.PutUint32(ihdr[0:], w)
	binary.BigEndian.PutUint32(ihdr[4:], h)
	ihdr[8], ihdr[9] = 8, 2
	binary.Write(&b, binary.BigEndian, uint32(13))
	chunk := append([]byte("IHDR"), ihdr...)
	b.Write(chunk)
	binary.Write(&b, binary.BigEndian, crc32.ChecksumIEEE(chunk))
	return b.Bytes()
}

func TestUsageErrorsExit2(t *testing.T) {
	for _, args := range [][]string{
		{"frobnicate"},
		{"generate", "--grid", "4"},
		{"generate", "--demo", "x", "--image", "y", "--grid", "4", "--seed", "1", "--out", "z"},
		{"generate", "--demo", "x", "--grid", "99", "--seed", "1", "--out", "z"},
		{"baseline"},
		{"baseline", "--grid", "four"},
	} {
		code, _, stderr := runCLI(args...)
		if code != 2 || !strings.HasPrefix(stderr, "jigbench: ") || strings.Count(stderr, "\n") != 1 {
			t.Errorf("%v: exit %d, stderr %q", args, code, stderr)
		}
	}
	code, out, _ := runCLI("help", "generate")
	if code != 0 || !strings.Contains(out, "--tab-style") {
		t.Errorf("help generate: %d %q", code, out)
	}
	code, out, _ = runCLI("generate", "-h")
	if code != 0 || !strings.Contains(out, "usage: jigbench generate") {
		t.Errorf("generate -h: %d %q", code, out)
	}
}

// TestNoDisplay: on a Unix desktop without DISPLAY or WAYLAND_DISPLAY the
// app refuses in one sentence (Fyne would panic); with either, or on systems
// that need neither, it opens.
func TestNoDisplay(t *testing.T) {
	env := func(kv ...string) func(string) string {
		return func(k string) string {
			for i := 0; i+1 < len(kv); i += 2 {
				if kv[i] == k {
					return kv[i+1]
				}
			}
			return ""
		}
	}
	for _, tc := range []struct {
		goos   string
		getenv func(string) string
		refuse bool
	}{
		{"linux", env(), true},
		{"freebsd", env("DISPLAY", ""), true},
		{"linux", env("DISPLAY", ":0"), false},
		{"linux", env("WAYLAND_DISPLAY", "wayland-0"), false},
		{"darwin", env(), false},
		{"windows", env(), false},
	} {
		msg := noDisplay(tc.goos, tc.getenv)
		if (msg != "") != tc.refuse || strings.Contains(msg, "\n") {
			t.Errorf("%s: noDisplay = %q; want a refusal: %v, on one line", tc.goos, msg, tc.refuse)
		}
	}
}
