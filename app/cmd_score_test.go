package app

import (
	"encoding/json"
	"fmt"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// scoreFixture generates two small 4×4 instances with the CLI and writes
// answers: a perfect JSONL, and a JSONL whose second line is cut short.
func scoreFixture(t *testing.T) (truth, good, truncated string, ids []string) {
	t.Helper()
	dir := t.TempDir()
	truth = filepath.Join(dir, "truth")
	_, names, _ := runCLI("demo", "list")
	demoName := strings.Fields(names)[0]
	var lines []string
	for _, seed := range []string{"1", "2"} {
		inst := generateCLI(t, truth, "--demo", demoName, "--grid", "4", "--seed", seed, "--size", "256")
		var doc struct {
			ID       string          `json:"id"`
			Solution json.RawMessage `json:"solution"`
		}
		data, err := os.ReadFile(filepath.Join(inst, "instance.json"))
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(data, &doc); err != nil {
			t.Fatal(err)
		}
		ids = append(ids, doc.ID)
		lines = append(lines, fmt.Sprintf(`{"id": %q, "prediction": %s}`, doc.ID, doc.Solution))
	}
	good = filepath.Join(dir, "oracle.jsonl")
	if err := os.WriteFile(good, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	truncated = filepath.Join(dir, "cut.jsonl")
	cut := lines[0] + "\n" + lines[1][:len(lines[1])/2] + "\n"
	if err := os.WriteFile(truncated, []byte(cut), 0o644); err != nil {
		t.Fatal(err)
	}
	return truth, good, truncated, ids
}

func TestScoreCommand(t *testing.T) {
	truth, good, truncated, ids := scoreFixture(t)
	out := t.TempDir()
	js, csvPath, md, heat := filepath.Join(out, "r.json"), filepath.Join(out, "r.csv"), filepath.Join(out, "r.md"), filepath.Join(out, "h.png")
	code, stdout, stderr := runCLI("score", "--truth", truth, "--condition", "shape", "--pred", "oracle="+good, "--condition", "rect", "--pred", truncated,
		"--json", js, "--csv", csvPath, "--markdown", md, "--heatmap", heat, "--heatmap-metric", "aa", "--heatmap-model", "oracle")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	// The table: both models, the baseline, the oracle perfect.
	for _, want := range []string{"condition shape", "condition rect", "oracle", "cut", "random baseline", "100.0%", "20.0%"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("stdout lacks %q:\n%s", want, stdout)
		}
	}
	// The cut line is reported with its line number, its instance invalid.
	if !strings.Contains(stderr, "cut.jsonl:2: not valid JSON") || !strings.Contains(stderr, ids[1]+" counts as invalid") {
		t.Errorf("stderr does not report the bad line:\n%s", stderr)
	}
	var rep struct {
		Format string `json:"format"`
		Groups []struct {
			Model     string  `json:"model"`
			Condition string  `json:"condition"`
			N         int     `json:"n"`
			Invalid   int     `json:"invalid"`
			PA        float64 `json:"pa"`
		} `json:"groups"`
		Instances []struct {
			ID     string `json:"id"`
			Valid  bool   `json:"valid"`
			Reason string `json:"reason"`
		} `json:"instances"`
	}
	data, err := os.ReadFile(js)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, &rep); err != nil {
		t.Fatal(err)
	}
	if rep.Format != "jigbench.score-report/v1" || len(rep.Groups) != 2 || len(rep.Instances) != 4 {
		t.Fatalf("report: %s", data)
	}
	if g := rep.Groups[0]; g.Model != "oracle" || g.Condition != "shape" || g.PA != 1 {
		t.Errorf("oracle group %+v", g)
	}
	if g := rep.Groups[1]; g.Model != "cut" || g.Condition != "rect" || g.N != 2 || g.Invalid != 1 || g.PA != 0.5 {
		t.Errorf("cut group %+v", g)
	}
	for _, p := range []string{csvPath, md} {
		if b, err := os.ReadFile(p); err != nil || len(b) == 0 {
			t.Errorf("%s: %v", p, err)
		}
	}
	f, err := os.Open(heat)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if img, err := png.Decode(f); err != nil || img.Bounds().Dx() < 400 {
		t.Errorf("heatmap: %v", err)
	}
}

// TestScoreBadInput: one clear line and exit 1 (or 2 for usage), never a
// stack trace.
func TestScoreBadInput(t *testing.T) {
	truth, good, _, _ := scoreFixture(t)
	dir := t.TempDir()
	write := func(name string, data []byte) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	empty := filepath.Join(dir, "empty")
	if err := os.Mkdir(empty, 0o755); err != nil {
		t.Fatal(err)
	}
	pngFile, _ := filepath.Glob(filepath.Join(truth, "*", "shape.png"))
	for name, c := range map[string]struct {
		args []string
		code int
		says string
	}{
		"binary file":        {[]string{"--truth", truth, "--pred", pngFile[0]}, 1, "binary"},
		"binary jsonl":       {[]string{"--truth", truth, "--pred", write("x.jsonl", []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\x0dIHDR"))}, 1, "binary"},
		"empty folder":       {[]string{"--truth", truth, "--pred", empty}, 1, "holds no"},
		"missing truth":      {[]string{"--truth", filepath.Join(dir, "nowhere"), "--pred", good}, 1, "does not exist"},
		"empty truth":        {[]string{"--truth", empty, "--pred", good}, 1, "no instances"},
		"missing answers":    {[]string{"--truth", truth, "--pred", filepath.Join(dir, "nope.jsonl")}, 1, "do not exist"},
		"nothing matches":    {[]string{"--truth", truth, "--pred", write("other.jsonl", []byte(`{"id": "zzz", "prediction": {"0": [0, 0]}}`))}, 1, "no answer matched"},
		"no pred":            {[]string{"--truth", truth}, 2, "--pred"},
		"no truth":           {[]string{"--pred", good}, 2, "--truth"},
		"bad condition":      {[]string{"--truth", truth, "--pred", good, "--condition", "square"}, 2, "condition"},
		"metric, no file":    {[]string{"--truth", truth, "--pred", good, "--heatmap-metric", "pa"}, 2, "--heatmap"},
		"file, no metric":    {[]string{"--truth", truth, "--pred", good, "--heatmap", "x.png"}, 2, "--heatmap-metric"},
		"bad metric":         {[]string{"--truth", truth, "--pred", good, "--heatmap", "x.png", "--heatmap-metric", "em"}, 2, "em"},
		"few replicates":     {[]string{"--truth", truth, "--pred", good, "--bootstrap", "100"}, 2, "--bootstrap"},
		"heatmap wrong grid": {[]string{"--truth", truth, "--pred", good, "--heatmap", filepath.Join(dir, "h.png"), "--heatmap-metric", "pa", "--heatmap-grid", "8"}, 1, "no grid"},
	} {
		code, stdout, stderr := runCLI(append([]string{"score"}, c.args...)...)
		lines := strings.Split(strings.TrimRight(stderr, "\n"), "\n")
		last := lines[len(lines)-1]
		if code != c.code || !strings.HasPrefix(last, "jigbench: score: ") || !strings.Contains(last, c.says) {
			t.Errorf("%s: exit %d, stderr %q; want exit %d and a line saying %q", name, code, stderr, c.code, c.says)
		}
		for _, l := range lines {
			if !strings.HasPrefix(l, "jigbench: ") {
				t.Errorf("%s: stray stderr line %q", name, l)
			}
		}
		// A heatmap the flags leave open fails after the table is printed.
		tableFirst := strings.HasPrefix(name, "heatmap") && strings.HasPrefix(stdout, "condition ")
		if strings.Contains(stderr, "goroutine") || code != 0 && stdout != "" && !tableFirst {
			t.Errorf("%s: stdout %q stderr %q", name, stdout, stderr)
		}
	}
}

// TestScoreConditionOrder: --condition applies to the --pred flags after it;
// those before any --condition take the first one given.
func TestScoreConditionOrder(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--pred", "a=x", "--pred", "b=y"}, "a:shape b:shape"},
		{[]string{"--pred", "a=x", "--pred", "b=y", "--condition", "rect"}, "a:rect b:rect"},
		{[]string{"--pred", "a=x", "--condition", "rect", "--pred", "b=y", "--condition", "shape", "--pred", "c=z"}, "a:rect b:rect c:shape"},
		{[]string{"--condition", "shape", "--pred", "a=x", "--condition", "rect", "--pred", "a=y"}, "a:shape a:rect"},
	} {
		var pf predFlags
		fs := newFlags("score")
		fs.Var(predValue{&pf}, "pred", "")
		fs.Var(conditionValue{&pf}, "condition", "")
		if err := fs.Parse(c.args); err != nil {
			t.Fatal(err)
		}
		srcs, err := pf.sources()
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, s := range srcs {
			got = append(got, s.Model+":"+s.Condition)
		}
		if strings.Join(got, " ") != c.want {
			t.Errorf("%v: %v, want %s", c.args, got, c.want)
		}
	}
}

// score's reports go through the one writer: a device is written, not
// replaced, and a full device is an error that says so.
func TestScoreReportsToDevices(t *testing.T) {
	for _, dev := range []string{"/dev/null", "/dev/full"} {
		if fi, err := os.Stat(dev); err != nil || fi.Mode()&os.ModeCharDevice == 0 {
			t.Skipf("%s is not a character device here", dev)
		}
	}
	truth, good, _, _ := scoreFixture(t)
	code, _, stderr := runCLI("score", "--truth", truth, "--pred", "oracle="+good, "--json", "/dev/null", "--markdown", "/dev/null")
	if code != 0 {
		t.Fatalf("--json /dev/null: exit %d: %s", code, stderr)
	}
	if fi, _ := os.Stat("/dev/null"); fi.Mode()&os.ModeCharDevice == 0 {
		t.Fatal("/dev/null was replaced by a regular file")
	}
	code, _, stderr = runCLI("score", "--truth", truth, "--pred", "oracle="+good, "--csv", "/dev/full")
	if code != 1 || !strings.Contains(stderr, "/dev/full") || !strings.Contains(stderr, "no space") {
		t.Fatalf("--csv /dev/full: exit %d, stderr %q; want 1 and a line saying no space", code, stderr)
	}
}

// TestScoreHeatmapTwoGrids: a truth with two grids and no --heatmap-grid
// draws one heatmap per grid, named by grid, and still prints the table.
func TestScoreHeatmapTwoGrids(t *testing.T) {
	dir := t.TempDir()
	truth := filepath.Join(dir, "truth")
	_, names, _ := runCLI("demo", "list")
	var lines []string
	for _, grid := range []string{"4", "5"} {
		inst := generateCLI(t, truth, "--demo", strings.Fields(names)[0], "--grid", grid, "--seed", "1", "--size", "256")
		var doc struct {
			ID       string          `json:"id"`
			Solution json.RawMessage `json:"solution"`
		}
		data, err := os.ReadFile(filepath.Join(inst, "instance.json"))
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(data, &doc); err != nil {
			t.Fatal(err)
		}
		lines = append(lines, fmt.Sprintf(`{"id": %q, "prediction": %s}`, doc.ID, doc.Solution))
	}
	good := filepath.Join(dir, "oracle.jsonl")
	if err := os.WriteFile(good, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	heat := filepath.Join(dir, "h.png")
	code, stdout, stderr := runCLI("score", "--truth", truth, "--pred", good, "--heatmap", heat, "--heatmap-metric", "pa", "--exchangeable=false")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, want := range []string{"4x4", "5x5", "100.0%", "random baseline"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("table lacks %q:\n%s", want, stdout)
		}
	}
	for _, p := range []string{filepath.Join(dir, "h-4x4.png"), filepath.Join(dir, "h-5x5.png")} {
		f, err := os.Open(p)
		if err != nil {
			t.Fatal(err)
		}
		_, err = png.Decode(f)
		f.Close()
		if err != nil {
			t.Errorf("%s: %v", p, err)
		}
		if !strings.Contains(stderr, p) {
			t.Errorf("stderr does not name %s:\n%s", p, stderr)
		}
	}
	if _, err := os.Stat(heat); err == nil {
		t.Errorf("%s written although there are two grids", heat)
	}
	// One grid chosen: that grid, to the path given.
	code, _, stderr = runCLI("score", "--truth", truth, "--pred", good, "--heatmap", heat, "--heatmap-metric", "pa", "--heatmap-grid", "5", "--exchangeable=false")
	if _, err := os.Stat(heat); code != 0 || err != nil {
		t.Errorf("--heatmap-grid 5: exit %d, %v: %s", code, err, stderr)
	}
}
