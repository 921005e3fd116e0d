package app

import (
	"encoding/json"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestScoreAnalysesCommand: the oracle answers both conditions (its rect
// answers cut short on the second instance), so it has an ablation over one
// pair; the cut model is compared with it; every file is written and read
// back.
func TestScoreAnalysesCommand(t *testing.T) {
	truth, good, truncated, _ := scoreFixture(t)
	out := t.TempDir()
	js, plot, abl, tex, md := filepath.Join(out, "r.json"), filepath.Join(out, "p.png"), filepath.Join(out, "a.png"), filepath.Join(out, "t.tex"), filepath.Join(out, "t.md")
	code, stdout, stderr := runCLI("score", "--truth", truth, "--condition", "shape", "--pred", "oracle="+good, "--pred", "cut="+truncated,
		"--condition", "rect", "--pred", "oracle="+truncated, "--compare", "oracle,cut",
		"--json", js, "--plot", plot, "--plot-metric", "pa", "--above-chance", "--ablation-heatmap", abl, "--latex", tex, "--paper-markdown", md)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, want := range []string{"ablation: shape − rect", "model vs model: A − B", "piece types"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("stdout lacks %q:\n%s", want, stdout)
		}
	}
	var rep struct {
		Ablation []struct {
			Model     string `json:"model"`
			Pairs     int    `json:"pairs"`
			ShapeOnly int    `json:"shape_only"`
			PA        struct {
				Diff float64 `json:"diff"`
			} `json:"pa"`
		} `json:"ablation"`
		Comparisons []struct {
			A, B      string
			Condition string `json:"condition"`
			Pairs     int    `json:"pairs"`
		} `json:"comparisons"`
		PieceTypes []json.RawMessage `json:"piece_types"`
	}
	data, err := os.ReadFile(js)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, &rep); err != nil {
		t.Fatal(err)
	}
	// Both instances were answered in rect (the cut one invalid, scoring 0),
	// so two pairs: d = 1 − 1 and 1 − 0.
	if len(rep.Ablation) != 1 || rep.Ablation[0].Pairs != 2 || rep.Ablation[0].ShapeOnly != 0 || rep.Ablation[0].PA.Diff != 0.5 {
		t.Errorf("ablation %+v", rep.Ablation)
	}
	if len(rep.Comparisons) != 1 || rep.Comparisons[0].Condition != "shape" || rep.Comparisons[0].Pairs != 2 {
		t.Errorf("comparisons %+v", rep.Comparisons)
	}
	if len(rep.PieceTypes) != 3 {
		t.Errorf("%d piece-type groups, want 3", len(rep.PieceTypes))
	}
	for _, p := range []string{plot, abl} {
		f, err := os.Open(p)
		if err != nil {
			t.Fatal(err)
		}
		if img, err := png.Decode(f); err != nil || img.Bounds().Dx() != 900 {
			t.Errorf("%s: %v", p, err)
		}
		f.Close()
	}
	texData, _ := os.ReadFile(tex)
	mdData, _ := os.ReadFile(md)
	if !strings.Contains(string(texData), `\begin{tabular}`) || !strings.Contains(string(mdData), "| **100.00** |") {
		t.Errorf("paper tables:\n%s\n%s", texData, mdData)
	}
	if _, err := exec.LookPath("pdflatex"); err == nil {
		cmd := exec.Command("pdflatex", "-interaction=nonstopmode", "-halt-on-error", "t.tex")
		cmd.Dir = out
		if b, err := cmd.CombinedOutput(); err != nil {
			t.Errorf("pdflatex: %v\n%s", err, b)
		}
	}
}

func TestScoreAnalysesBadFlags(t *testing.T) {
	truth, good, _, _ := scoreFixture(t)
	dir := t.TempDir()
	for name, c := range map[string]struct {
		args []string
		code int
		says string
	}{
		"compare one":      {[]string{"--compare", "oracle"}, 2, "--compare wants two model names"},
		"compare unknown":  {[]string{"--compare", "oracle,nobody"}, 1, `no model "nobody"`},
		"plot no metric":   {[]string{"--plot", filepath.Join(dir, "p.png")}, 2, "--plot needs --plot-metric"},
		"plot bad metric":  {[]string{"--plot", filepath.Join(dir, "p.png"), "--plot-metric", "xx"}, 2, `"xx" is not pa, em, aa or sc`},
		"metric no plot":   {[]string{"--above-chance"}, 2, "need --plot FILE.png"},
		"no ablation":      {[]string{"--ablation-heatmap", filepath.Join(dir, "a.png")}, 2, "no model was answered in both conditions"},
		"paper condition":  {[]string{"--paper-condition", "round"}, 2, "--paper-condition must be shape or rect"},
		"paper rect empty": {[]string{"--latex", filepath.Join(dir, "t.tex"), "--paper-condition", "rect"}, 1, "no scores in the rect condition"},
		"unwritable":       {[]string{"--latex", filepath.Join(dir, "missing", "t.tex")}, 1, "cannot write"},
	} {
		args := append([]string{"score", "--truth", truth, "--pred", "oracle=" + good}, c.args...)
		code, _, stderr := runCLI(args...)
		if code != c.code || !strings.Contains(stderr, c.says) || strings.Count(strings.TrimSpace(stderr), "\n") > 0 && !strings.Contains(stderr, "note:") {
			t.Errorf("%s: exit %d, stderr %q; want exit %d saying %q", name, code, stderr, c.code, c.says)
		}
	}
}
