package app

import (
	"bytes"
	"encoding/json"
	"image"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/jigbench/jigbench/core/vigor"
)

// vigorTestSplit writes a small split folder with real images and returns
// its path and the split.
func vigorTestSplit(t *testing.T) (string, *vigor.Split) {
	t.Helper()
	dir := t.TempDir()
	var buf bytes.Buffer
	png.Encode(&buf, image.NewGray(image.Rect(0, 0, 4, 4)))
	os.MkdirAll(filepath.Join(dir, "img"), 0o755)
	for _, n := range []string{"in.png", "out.png", "f0.png", "f1.png"} {
		if err := os.WriteFile(filepath.Join(dir, "img", n), buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	sp := &vigor.Split{Name: "cli-split"}
	for i := range 12 {
		it := vigor.Item{ID: "r-" + string(rune('a'+i)), Track: vigor.TrackResult, Domain: "Symbolic", Subdomain: "Maze",
			Model: "m", Instruction: "solve", Input: "img/in.png", Output: "img/out.png", GTText: "the answer"}
		if i%3 == 0 {
			it.ID, it.Track, it.Output, it.Frames = "p-"+string(rune('a'+i)), vigor.TrackProcess, "", []string{"img/f0.png", "img/f1.png"}
		}
		sp.Items = append(sp.Items, it)
	}
	if err := vigor.WriteSplit(dir, sp); err != nil {
		t.Fatal(err)
	}
	loaded, err := vigor.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	return dir, loaded
}

func TestVigorCheck(t *testing.T) {
	dir, _ := vigorTestSplit(t)
	code, out, errs := runCLI("vigor", "check", dir)
	if code != 0 || !strings.Contains(out, "is usable: 12 items (4 process, 8 result)") {
		t.Fatalf("check of a good split: exit %d, %q %q", code, out, errs)
	}
	os.Remove(filepath.Join(dir, "img", "f1.png"))
	code, out, errs = runCLI("vigor", "check", dir)
	if code != 1 || !strings.Contains(out, `error: item p-a: frames[1]: "img/f1.png" does not exist`) ||
		strings.Count(strings.TrimSpace(errs), "\n") != 0 || !strings.HasPrefix(errs, "jigbench: vigor: split ") {
		t.Fatalf("check of a broken split: exit %d, stdout %q, stderr %q", code, out, errs)
	}
}

func TestVigorImportExportAgree(t *testing.T) {
	dir, sp := vigorTestSplit(t)
	tmp := t.TempDir()
	db := filepath.Join(tmp, "ratings.db")
	humans, judge := vigor.Simulate(sp, vigor.SimConfig{Seed: 5})

	// Import two annotators' ratings (one CSV, one JSONL), export one back.
	var a, b []vigor.Rating
	for _, r := range humans {
		switch r.Annotator {
		case vigor.SimAnnotator(0):
			a = append(a, r)
		case vigor.SimAnnotator(1):
			b = append(b, r)
		}
	}
	fa, fb := filepath.Join(tmp, "a.csv"), filepath.Join(tmp, "b.jsonl")
	vigor.WriteRatingsFile(fa, a)
	vigor.WriteRatingsFile(fb, b)
	code, out, errs := runCLI("vigor", "import", "--split", dir, "--db", db, fa, fb)
	if code != 0 || !strings.Contains(out, "24 added") {
		t.Fatalf("import: exit %d %q %q", code, out, errs)
	}
	exp := filepath.Join(tmp, "export.csv")
	revs := filepath.Join(tmp, "revisions.jsonl")
	code, out, errs = runCLI("vigor", "export", "--split", dir, "--annotator", vigor.SimAnnotator(0), "--out", exp,
		"--revisions", revs, "--db", db)
	if code != 0 || !strings.Contains(out, "wrote 12 ratings") || !strings.Contains(out, "wrote 12 revisions") {
		t.Fatalf("export: exit %d %q %q", code, out, errs)
	}
	if data, _ := os.ReadFile(revs); bytes.Count(data, []byte(`"action":"import"`)) != 12 {
		t.Errorf("revisions export:\n%s", data)
	}
	orig, _ := os.ReadFile(fa)
	back, _ := os.ReadFile(exp)
	if !bytes.Equal(orig, back) {
		t.Errorf("export differs from what was imported:\n%s\n---\n%s", orig, back)
	}
	code, _, errs = runCLI("vigor", "export", "--split", dir, "--annotator", "nobody", "--out", exp, "--db", db)
	if code != 1 || !strings.Contains(errs, "annotators there: "+vigor.SimAnnotator(0)) {
		t.Errorf("export of an unknown annotator: exit %d %q", code, errs)
	}
	// A bad file is refused whole, naming the line.
	bad := filepath.Join(tmp, "bad.csv")
	os.WriteFile(bad, []byte(strings.Join(vigor.RatingsColumns[:], ",")+"\ncli-split,r-b,x,1,1,1,1,,,\ncli-split,r-b,x,1,1,1,7,,,\n"), 0o644)
	code, _, errs = runCLI("vigor", "import", "--split", dir, "--db", db, bad)
	if code != 1 || !strings.Contains(errs, "line 3") || !strings.Contains(errs, "nothing was imported") {
		t.Errorf("bad import: exit %d %q", code, errs)
	}

	// Judge runs: with GT in one file per run (run taken from the file's
	// position), without GT in one file holding all runs.
	var with [3][]vigor.JudgeRecord
	var without []vigor.JudgeRecord
	for _, r := range judge {
		if r.Condition == vigor.WithGT {
			with[r.Run-1] = append(with[r.Run-1], r)
		} else {
			without = append(without, r)
		}
	}
	var withFiles []string
	for i, recs := range with {
		p := filepath.Join(tmp, "with"+string(rune('1'+i))+".jsonl")
		vigor.WriteJudgeFile(p, sp, recs)
		withFiles = append(withFiles, p)
	}
	wo := filepath.Join(tmp, "without.jsonl")
	vigor.WriteJudgeFile(wo, sp, without)
	// One unreadable record: reported with its line, left out.
	f, _ := os.OpenFile(wo, os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString("{broken\n")
	f.Close()

	c := filepath.Join(tmp, "c.csv")
	var cr []vigor.Rating
	for _, r := range humans {
		if r.Annotator == vigor.SimAnnotator(2) {
			cr = append(cr, r)
		}
	}
	vigor.WriteRatingsFile(c, cr)
	jsonOut, mdOut := filepath.Join(tmp, "agree.json"), filepath.Join(tmp, "agree.md")
	args := append([]string{"vigor", "agree", "--split", dir, "--humans", c, "--store", "--db", db, "--judge"}, withFiles...)
	args = append(args, "--judge-without-gt", wo, "--bootstrap", "300", "--seed", "9", "--json", jsonOut, "--markdown", mdOut)
	code, out, errs = runCLI(args...)
	if code != 0 {
		t.Fatalf("agree: exit %d\n%s\n%s", code, out, errs)
	}
	for _, want := range []string{"Human experts", "Judge without GT", "Judge with GT", "MAE", "Acc", "Var", "Human ceiling"} {
		if !strings.Contains(out, want) {
			t.Errorf("agree output lacks %q:\n%s", want, out)
		}
	}
	if !strings.Contains(errs, "without.jsonl:37: not a JSON object") {
		t.Errorf("the broken record was not reported by line: %q", errs)
	}
	var rep struct {
		Format string `json:"format"`
		Table2 map[string]map[string]struct {
			MAE      any `json:"mae"`
			Accuracy any `json:"accuracy"`
			Variance any `json:"variance"`
		} `json:"table2"`
		Annotators []string       `json:"annotators"`
		Runs       map[string]any `json:"runs"`
		CI         struct {
			Replicates int    `json:"replicates"`
			Seed       uint64 `json:"seed"`
		} `json:"ci"`
	}
	data, _ := os.ReadFile(jsonOut)
	if err := json.Unmarshal(data, &rep); err != nil {
		t.Fatal(err)
	}
	if rep.Format != "jigbench.vigor-agreement/v1" || len(rep.Annotators) != 3 || rep.CI.Replicates != 300 || rep.CI.Seed != 9 {
		t.Errorf("report header: %+v", rep)
	}
	for _, row := range []string{"human_experts", "judge_without_gt", "judge_with_gt"} {
		for _, tr := range []string{"process", "result"} {
			if _, ok := rep.Table2[row][tr].MAE.(float64); !ok {
				t.Errorf("table2.%s.%s.mae = %v", row, tr, rep.Table2[row][tr].MAE)
			}
		}
	}
	if md, _ := os.ReadFile(mdOut); !bytes.Contains(md, []byte("## Table 2")) {
		t.Error("no Markdown report")
	}
}

func TestVigorIRR(t *testing.T) {
	// Krippendorff (2011), section C: interval alpha = 0.849 (951/1120).
	data := filepath.Join(t.TempDir(), "k.csv")
	os.WriteFile(data, []byte("coder,u1,u2,u3,u4,u5,u6,u7,u8,u9,u10,u11,u12\n"+
		"A,1,2,3,3,2,1,4,1,2,*,*,*\nB,1,2,3,3,2,2,4,1,2,5,*,3\nC,*,3,3,3,2,3,4,2,2,5,1,*\nD,1,2,3,3,2,4,4,1,2,5,1,\n"), 0o644)
	code, out, errs := runCLI("vigor", "irr", "--data", data, "--metric", "interval", "--header", "--labels")
	if code != 0 {
		t.Fatalf("irr: exit %d %q", code, errs)
	}
	var res map[string]any
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatalf("irr printed %q: %v", out, err)
	}
	if a := res["krippendorff_alpha"].(float64); a < 0.8490 || a > 0.8492 || res["fleiss_kappa"] != nil ||
		res["units"].(float64) != 12 || res["coders"].(float64) != 4 {
		t.Errorf("irr = %v", res)
	}
	code, out, _ = runCLI("vigor", "irr", "--data", data, "--header", "--labels")
	if code != 0 || !strings.Contains(out, `"fleiss_kappa":0.`) || !strings.Contains(out, `"krippendorff_alpha":0.743`) {
		t.Errorf("nominal irr: %s", out)
	}
	// No variation: "undefined", never 0 or 1.
	os.WriteFile(data, []byte("1,1,1\n1,1,1\n"), 0o644)
	code, out, _ = runCLI("vigor", "irr", "--data", data)
	if code != 0 || !strings.Contains(out, `"krippendorff_alpha":"undefined"`) || !strings.Contains(out, `"fleiss_kappa":"undefined"`) {
		t.Errorf("irr without variation: %s", out)
	}
	// A label where a number belongs: one line, with a hint.
	os.WriteFile(data, []byte("A,1,2\nB,1,3\n"), 0o644)
	code, _, errs = runCLI("vigor", "irr", "--data", data, "--metric", "interval")
	if code != 1 || !strings.Contains(errs, "--labels") || strings.Count(strings.TrimSpace(errs), "\n") != 0 {
		t.Errorf("irr of labelled data: exit %d %q", code, errs)
	}
}

func TestVigorUsageErrors(t *testing.T) {
	for _, args := range [][]string{
		{"vigor"},
		{"vigor", "frobnicate"},
		{"vigor", "demo"},
		{"vigor", "check"},
		{"vigor", "agree", "--split", "x"},
		{"vigor", "irr", "--data", "x", "--metric", "cubic"},
		{"vigor", "export", "--split", "x", "--annotator", "a", "--out", "x.txt"},
	} {
		code, _, errs := runCLI(args...)
		if code != 2 || !strings.HasPrefix(errs, "jigbench: vigor: ") || strings.Count(strings.TrimSpace(errs), "\n") != 0 {
			t.Errorf("%v: exit %d, stderr %q; want a one-line usage error (exit 2)", args, code, errs)
		}
	}
	code, out, _ := runCLI("vigor", "-h")
	if code != 0 || !strings.Contains(out, "jigbench vigor agree") {
		t.Errorf("vigor -h: exit %d %q", code, out)
	}
}

func TestVigorExpandLists(t *testing.T) {
	got := vigorExpandLists([]string{"--split", "d", "--humans", "a", "b", "--bootstrap", "5", "-judge", "x", "y", "--json=o", "--judge=z"},
		"humans", "judge")
	want := "--split d --humans a --humans b --bootstrap 5 -judge x --judge y --json=o --judge=z"
	if strings.Join(got, " ") != want {
		t.Errorf("got  %q\nwant %q", strings.Join(got, " "), want)
	}
}

// Without --db the commands use $JIGBENCH_DB; a postgres:// URL there that
// cannot be reached fails naming the server, without its password.
func TestVigorStoreFromEnvironment(t *testing.T) {
	dir, sp := vigorTestSplit(t)
	tmp := t.TempDir()
	humans, _ := vigor.Simulate(sp, vigor.SimConfig{Seed: 5})
	f := filepath.Join(tmp, "a.csv")
	vigor.WriteRatingsFile(f, humans)
	db := filepath.Join(tmp, "env.db")
	t.Setenv(vigor.StoreEnv, db)
	if code, out, errs := runCLI("vigor", "import", "--split", dir, f); code != 0 || !strings.Contains(out, "into "+db) {
		t.Fatalf("import into $%s: exit %d %q %q", vigor.StoreEnv, code, out, errs)
	}
	if _, err := os.Stat(db); err != nil {
		t.Fatal(err)
	}
	t.Setenv(vigor.StoreEnv, "postgres://rater:Hunter2-secret@127.0.0.1:1/ratings?connect_timeout=5")
	code, _, errs := runCLI("vigor", "import", "--split", dir, f)
	if code != 1 || !strings.Contains(errs, "postgres://rater:xxxxx@127.0.0.1:1/ratings") || strings.Contains(errs, "Hunter2") {
		t.Errorf("import into an unreachable server: exit %d %q", code, errs)
	}
}
