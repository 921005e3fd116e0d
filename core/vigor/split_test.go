package vigor

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"hash/crc32"
	"image"
	"image/png"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
)

// tinyPNG is a valid 2×2 PNG.
func tinyPNG(t testing.TB) []byte {
	var buf bytes.Buffer
	if err := png.Encode(&buf, image.NewGray(image.Rect(0, 0, 2, 2))); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// pngHeader is a PNG signature and an IHDR chunk (correct CRC) claiming
// w×h pixels, with no image data: enough for image.DecodeConfig.
func pngHeader(w, h uint32) []byte {
	var b bytes.Buffer
	b.WriteString("\x89PNG\r\n\x1a\n")
	ihdr := make([]byte, 13)
	binary.BigEndian.PutUint32(ihdr[0:], w)
	binary.BigEndian.PutUint32(ihdr[4:], h)
	ihdr[8], ihdr[9] = 8, 6 // 8-bit RGBA
	binary.Write(&b, binary.BigEndian, uint32(len(ihdr)))
	crc := crc32.NewIEEE()
	crc.Write([]byte("IHDR"))
	crc.Write(ihdr)
	b.WriteString("IHDR")
	b.Write(ihdr)
	binary.Write(&b, binary.BigEndian, crc.Sum32())
	return b.Bytes()
}

// splitDir writes a split folder with the given items and image files.
func splitDir(t *testing.T, items []Item, files map[string][]byte) string {
	t.Helper()
	dir := t.TempDir()
	for name, data := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	sp := &Split{Format: SplitFormat, Name: "test-split", Items: items}
	if err := WriteSplit(dir, sp); err != nil {
		t.Fatal(err)
	}
	return dir
}

func goodItems() []Item {
	return []Item{
		{ID: "r-0001", Track: TrackResult, Domain: "Symbolic", Subdomain: "Jigsaw Puzzle", Model: "model-a",
			Instruction: "solve", Input: "img/in.png", Output: "img/out.png", GTImage: "img/gt.png"},
		{ID: "p-0001", Track: TrackProcess, Domain: "Physical", Subdomain: "Sorting", Model: "model-b",
			Instruction: "sort", Input: "img/in.png", Frames: []string{"img/p/000.png", "img/p/001.png"}, GTText: "bins"},
	}
}

func goodFiles(t *testing.T) map[string][]byte {
	p := tinyPNG(t)
	return map[string][]byte{"img/in.png": p, "img/out.png": p, "img/gt.png": p, "img/p/000.png": p, "img/p/001.png": p}
}

func TestLoadGoodSplit(t *testing.T) {
	dir := splitDir(t, goodItems(), goodFiles(t))
	if probs := Check(dir); len(probs) != 0 {
		t.Fatalf("problems in a good split: %v", probs)
	}
	sp, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	if sp.Name != "test-split" || len(sp.Items) != 2 || sp.Count(TrackProcess) != 1 || sp.Dir != dir {
		t.Fatalf("loaded %+v", sp)
	}
	it, ok := sp.Item("p-0001")
	if !ok || len(it.Frames) != 2 {
		t.Fatalf("item lookup: %+v %v", it, ok)
	}
	// A symlink that stays inside the folder is fine.
	if runtime.GOOS != "windows" {
		if err := os.Symlink("gt.png", filepath.Join(dir, "img", "alias.png")); err != nil {
			t.Fatal(err)
		}
		items := goodItems()
		items[0].GTImage = "img/alias.png"
		if err := WriteSplit(dir, &Split{Name: "test-split", Items: items}); err != nil {
			t.Fatal(err)
		}
		if _, err := Load(dir); err != nil {
			t.Errorf("symlink inside the folder refused: %v", err)
		}
	}
}

func TestHostileSplits(t *testing.T) {
	outside := t.TempDir()
	if err := os.WriteFile(filepath.Join(outside, "secret.png"), tinyPNG(t), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name  string
		edit  func(items []Item, files map[string][]byte, dir string)
		item  string
		field string
		want  string
	}{
		{"dot-dot path", func(it []Item, _ map[string][]byte, _ string) { it[0].Output = "../secret.png" },
			"r-0001", "output", "leaves the split folder"},
		{"dot-dot inside a path", func(it []Item, _ map[string][]byte, _ string) { it[1].Frames[1] = "img/../../x.png" },
			"p-0001", "frames[1]", "leaves the split folder"},
		{"absolute path", func(it []Item, _ map[string][]byte, _ string) { it[0].Input = "/etc/passwd" },
			"r-0001", "input", "absolute"},
		{"drive letter", func(it []Item, _ map[string][]byte, _ string) { it[0].GTImage = "C:/x.png" },
			"r-0001", "gt_image", "absolute"},
		{"backslashes", func(it []Item, _ map[string][]byte, _ string) { it[0].GTImage = `img\gt.png` },
			"r-0001", "gt_image", "forward slashes"},
		{"missing file", func(it []Item, f map[string][]byte, _ string) { delete(f, "img/p/001.png") },
			"p-0001", "frames[1]", "does not exist"},
		{"not an image", func(it []Item, f map[string][]byte, _ string) { f["img/gt.png"] = []byte("hello") },
			"r-0001", "gt_image", "not a readable"},
		{"100+ megapixel header", func(it []Item, f map[string][]byte, _ string) { f["img/out.png"] = pngHeader(20000, 20000) },
			"r-0001", "output", "megapixels"},
		{"just over the limit", func(it []Item, f map[string][]byte, _ string) { f["img/out.png"] = pngHeader(10001, 10000) },
			"r-0001", "output", "megapixels"},
		{"symlink out of the folder", func(it []Item, f map[string][]byte, dir string) {
			os.Symlink(filepath.Join(outside, "secret.png"), filepath.Join(dir, "img", "link.png"))
			it[0].Output = "img/link.png"
		}, "r-0001", "output", "symbolic link"},
		{"symlinked folder out of the split", func(it []Item, f map[string][]byte, dir string) {
			os.Symlink(outside, filepath.Join(dir, "ext"))
			it[1].Input = "ext/secret.png"
		}, "p-0001", "input", "symbolic link"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if strings.Contains(tc.name, "symlink") && runtime.GOOS == "windows" {
				t.Skip("symlinks need privileges on Windows")
			}
			items, files := goodItems(), goodFiles(t)
			dir := t.TempDir()
			if err := os.MkdirAll(filepath.Join(dir, "img"), 0o755); err != nil {
				t.Fatal(err)
			}
			tc.edit(items, files, dir)
			for name, data := range files {
				p := filepath.Join(dir, filepath.FromSlash(name))
				os.MkdirAll(filepath.Dir(p), 0o755)
				if err := os.WriteFile(p, data, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			if err := WriteSplit(dir, &Split{Name: "hostile", Items: items}); err != nil {
				t.Fatal(err)
			}
			_, err := Load(dir)
			var se *SplitError
			if !errors.As(err, &se) {
				t.Fatalf("Load accepted a hostile split (err %v)", err)
			}
			msg := err.Error()
			if !strings.Contains(msg, "item "+tc.item) || !strings.Contains(msg, tc.want) || !strings.Contains(msg, SplitFile) {
				t.Errorf("error %q should name %s, the file and say %q", msg, tc.item, tc.want)
			}
			probs := Check(dir)
			if !slices.ContainsFunc(probs, func(p Problem) bool { return p.Fatal && p.Item == tc.item && p.Field == tc.field }) {
				t.Errorf("Check did not report %s %s: %v", tc.item, tc.field, probs)
			}
		})
	}
}

func TestCheckListsEveryProblem(t *testing.T) {
	items := goodItems()
	items[0].Output = "../a.png"
	items[0].GTImage = ""                            // and no gt_text either
	items[1].Frames = []string{"img/nope.png", "/x"} // missing, absolute
	items = append(items, Item{ID: "r-0001", Track: "video", Input: "img/in.png"})
	dir := splitDir(t, items, goodFiles(t))
	probs := Check(dir)
	var fatal []string
	for _, p := range probs {
		if p.Fatal {
			fatal = append(fatal, p.String())
		}
	}
	for _, want := range []string{
		"item r-0001: output:", "item r-0001: gt_image: neither", "item p-0001: frames[0]:",
		"item p-0001: frames[1]:", "id: used by items #1 and #3", "track: is \"video\"",
	} {
		if !slices.ContainsFunc(fatal, func(s string) bool { return strings.Contains(s, want) }) {
			t.Errorf("no problem %q in %q", want, fatal)
		}
	}
	_, err := Load(dir)
	if err == nil || !strings.Contains(err.Error(), "more problems") {
		t.Errorf("Load error %v should say there are more problems", err)
	}
}

func TestParseSplitStructure(t *testing.T) {
	for _, tc := range []struct {
		name, json, want string
		fatal            bool
	}{
		{"not JSON", `{`, "not a JSON object", true},
		{"wrong format", `{"format":"x","name":"n","items":[]}`, "format: is \"x\"", true},
		{"no name", `{"format":"jigbench.vigor-split/v1","items":[]}`, "name: missing", true},
		{"no items", `{"format":"jigbench.vigor-split/v1","name":"n","items":[]}`, "no items", true},
		{"item not an object", `{"format":"jigbench.vigor-split/v1","name":"n","items":[3]}`, "item #1: want an item object", true},
		{"frames not a list", `{"format":"jigbench.vigor-split/v1","name":"n","items":[{"id":"a","track":"process","frames":"x"}]}`,
			"item a: frames: want a list of paths", true},
		{"process without frames", `{"format":"jigbench.vigor-split/v1","name":"n","items":[{"id":"a","track":"process","input":"i.png","gt_text":"t"}]}`,
			"item a: frames: missing", true},
		{"unknown item field", `{"format":"jigbench.vigor-split/v1","name":"n","items":[{"id":"a","track":"result","input":"i.png","output":"o.png","gt_text":"t","gt_imgae":"x"}]}`,
			"item a: gt_imgae: unknown field", false},
		{"unknown top field", `{"format":"jigbench.vigor-split/v1","name":"n","extra":1,"items":[{"id":"a","track":"result","input":"i.png","output":"o.png","gt_text":"t"}]}`,
			"extra: unknown field", false},
	} {
		_, probs := ParseSplit([]byte(tc.json))
		ok := slices.ContainsFunc(probs, func(p Problem) bool { return strings.Contains(p.String(), tc.want) && p.Fatal == tc.fatal })
		if !ok {
			t.Errorf("%s: want problem %q (fatal %v), got %v", tc.name, tc.want, tc.fatal, probs)
		}
	}
}

func TestRubrics(t *testing.T) {
	data := `{"format":"jigbench.vigor-split/v1","name":"n",
	 "items":[{"id":"a","track":"result","subdomain":"Sudoku","input":"i.png","output":"o.png","gt_text":"t"},
	          {"id":"b","track":"process","subdomain":"Maze","input":"i.png","frames":["f.png"],"gt_text":"t"}],
	 "rubrics":{"Sudoku":{"result":{"Rule Obey":"Digits unique per row, column and box.","nonsense":"x"}},
	            "Nowhere":{"result":{"RO":"x"}}}}`
	sp, probs := ParseSplit([]byte(data))
	if sp == nil {
		t.Fatal(probs)
	}
	a, _ := sp.Item("a")
	b, _ := sp.Item("b")
	ra, rb := sp.Rubric(a), sp.Rubric(b)
	if ra[RuleObey].Text != "Digits unique per row, column and box." {
		t.Errorf("override not applied: %q", ra[RuleObey].Text)
	}
	if ra[Reasoning].Name != "reasoning_success" || ra[Reasoning].Scale != "0 or 1" || ra[Reasoning].Text != DefaultRubric(TrackResult)[Reasoning].Text {
		t.Errorf("result defaults: %+v", ra[Reasoning])
	}
	if rb[Reasoning].Name != "reasoning_accuracy" || rb[Reasoning].Short != "RA" || rb[Reasoning].Scale != "0–100" {
		t.Errorf("process criterion: %+v", rb[Reasoning])
	}
	for _, want := range []string{"rubrics.Sudoku.result.nonsense: unknown dimension", "rubrics.Nowhere: no item has subdomain"} {
		if !slices.ContainsFunc(probs, func(p Problem) bool { return !p.Fatal && strings.Contains(p.String(), want) }) {
			t.Errorf("no warning %q in %v", want, probs)
		}
	}
	for _, tr := range Tracks {
		for _, c := range DefaultRubric(tr) {
			if len(c.Text) < 60 {
				t.Errorf("%s %s: rubric text too thin for a rater: %q", tr, c.Name, c.Text)
			}
		}
	}
	// The overrides survive a write and a re-read.
	out, err := json.Marshal(sp)
	if err != nil {
		t.Fatal(err)
	}
	sp2, _ := ParseSplit(out)
	if a2, _ := sp2.Item("a"); sp2.Rubric(a2)[RuleObey].Text != ra[RuleObey].Text {
		t.Error("rubric override lost in a round trip")
	}
}

func TestOrderPerAnnotator(t *testing.T) {
	sp := SyntheticSplit("s", 50, 20)
	a1, a2, b := sp.Order("alice"), sp.Order("alice"), sp.Order("bob")
	if !slices.Equal(a1, a2) {
		t.Error("order is not reproducible")
	}
	if slices.Equal(a1, b) {
		t.Error("two annotators got the same order")
	}
	sorted := slices.Clone(a1)
	slices.Sort(sorted)
	for i, v := range sorted {
		if v != i {
			t.Fatal("order is not a permutation")
		}
	}
}

func TestParseDimAliases(t *testing.T) {
	for s, want := range map[string]Dim{
		"background_consistency": BackgroundConsistency, "Background Consistency": BackgroundConsistency, "BC": BackgroundConsistency,
		"rule_obey": RuleObey, "Rule Obey": RuleObey, "ro": RuleObey,
		"Visual Quality": VisualQuality, "VQ": VisualQuality,
		"reasoning_success": Reasoning, "Reasoning Accuracy": Reasoning, "RS": Reasoning, "RA": Reasoning,
		"beneficial_action": Reasoning, "Beneficial Action": Reasoning, "reasoning": Reasoning,
	} {
		if got, ok := ParseDim(s); !ok || got != want {
			t.Errorf("ParseDim(%q) = %v, %v; want %v", s, got, ok, want)
		}
	}
	for _, s := range []string{"", "overall", "quality", "b c"} {
		if d, ok := ParseDim(s); ok {
			t.Errorf("ParseDim(%q) = %v, want no match", s, d)
		}
	}
}
