package vigordemo

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"github.com/jigbench/jigbench/core/vigor"
)

func TestDemoSplitIsCompleteAndDeterministic(t *testing.T) {
	if testing.Short() {
		t.Skip("renders 27 puzzle items")
	}
	dir := t.TempDir()
	files, err := Write(dir)
	if err != nil {
		t.Fatal(err)
	}
	if probs := vigor.Check(dir); len(probs) > 0 {
		t.Fatalf("the demo split has problems: %v", probs)
	}
	sp, err := vigor.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	if sp.Count(vigor.TrackResult) != demoResultItems || sp.Count(vigor.TrackProcess) != demoProcessItems {
		t.Fatalf("%d result and %d process items", sp.Count(vigor.TrackResult), sp.Count(vigor.TrackProcess))
	}
	for _, it := range sp.Items {
		if it.Track == vigor.TrackProcess && len(it.Frames) != demoFrames {
			t.Fatalf("%s has %d frames", it.ID, len(it.Frames))
		}
	}
	if len(files.Humans) != 3 || len(files.Judge[vigor.WithGT]) != 3 || len(files.Judge[vigor.WithoutGT]) != 3 {
		t.Fatalf("files %+v", files)
	}
	for _, f := range append(files.Humans, append(files.Judge[vigor.WithGT], files.Judge[vigor.WithoutGT]...)...) {
		if !bytes.Contains([]byte(f), []byte("simulated")) {
			t.Errorf("%s is not named as simulated", f)
		}
	}

	// The simulated study analyses, and the judge with ground truth agrees
	// better with the humans than without.
	abs := func(ps []string) []string {
		out := make([]string, len(ps))
		for i, p := range ps {
			out[i] = filepath.Join(dir, p)
		}
		return out
	}
	humans, err := vigor.ReadRatingsFiles(abs(files.Humans), sp)
	if err != nil {
		t.Fatal(err)
	}
	var judge []vigor.JudgeRecord
	for _, cond := range vigor.Conditions {
		for i, p := range abs(files.Judge[cond]) {
			recs, probs, err := vigor.ReadJudgeFile(p, sp, vigor.JudgeOptions{Condition: cond, Fixed: true, Run: i + 1})
			if err != nil || len(probs) > 0 {
				t.Fatalf("%s: %v %v", p, err, probs)
			}
			judge = append(judge, recs...)
		}
	}
	rep, err := vigor.Analyze(context.Background(), vigor.Input{Split: sp, Humans: humans, Judge: judge}, vigor.Options{})
	if err != nil {
		t.Fatal(err)
	}
	with, without := rep.Table2.JudgeWithGT.Result.MAE, rep.Table2.JudgeWithoutGT.Result.MAE
	if !with.OK() || !without.OK() || with.Or(0) >= without.Or(1) {
		t.Errorf("result MAE with GT %v, without %v: the simulation should favour ground truth", with, without)
	}

	// The output is pinned to Version: the app caches the demo under it.
	if got := demoDigest(t, dir); got != demoDigests[Version] {
		t.Errorf("the demo's output changed (digest %s): increase Version and add the digest to demoDigests", got)
	}

	// Writing it again gives the same bytes.
	again := t.TempDir()
	if _, err := Write(again); err != nil {
		t.Fatal(err)
	}
	for _, rel := range []string{"split.json", sp.Items[0].Output, sp.Items[len(sp.Items)-1].Frames[2], files.Humans[0], files.Judge[vigor.WithGT][1]} {
		a, err := os.ReadFile(filepath.Join(dir, rel))
		if err != nil {
			t.Fatal(err)
		}
		b, err := os.ReadFile(filepath.Join(again, rel))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(a, b) {
			t.Errorf("%s differs between two runs", rel)
		}
	}
}

// demoDigests pins Demo's output for each Version.
var demoDigests = map[int]string{
	1: "1ccf161a89bc151049f05ada05d4c88dd39d6f235f789cfb2bd0115ac610c1e4",
	2: "00c96e91c0259757d8cf92141890571e7cc1559510adc94496e265f8ce6e2381", // subdomains by cut
	3: "d7a9a9b4a939176e743a9fb5da6fa2b248e28b2843010f2b9a23b96740df3d78", // PNGs by render.EncodePNG's own writer
}

// demoDigest hashes every file of the demo folder, by relative path.
func demoDigest(t *testing.T, dir string) string {
	t.Helper()
	h := sha256.New()
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, path)
		fmt.Fprintf(h, "%s %d\n", filepath.ToSlash(rel), len(data))
		h.Write(data)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return hex.EncodeToString(h.Sum(nil))
}

func TestMixedCondition(t *testing.T) {
	judge := []vigor.JudgeRecord{
		{Item: "a", Run: 1, Condition: vigor.WithGT, Scores: vigor.Scores{1, 1, 1, 1}},
		{Item: "a", Run: 1, Condition: vigor.WithoutGT, Scores: vigor.Scores{0, 0, 0, 0}},
		{Item: "b", Run: 2, Condition: vigor.WithGT, Scores: vigor.Scores{1, 1, 1, 1}}, // no without-GT partner
	}
	mixed := MixedCondition(judge, "text_gt_only")
	if len(mixed) != 1 || mixed[0].Item != "a" || mixed[0].Run != 1 || mixed[0].Condition != "text_gt_only" {
		t.Fatalf("mixed %+v", mixed)
	}
	ones := 0
	for _, v := range mixed[0].Scores {
		if v != 0 && v != 1 {
			t.Fatalf("score %d is neither condition's", v)
		}
		ones += v
	}
	if judge[0].Scores != (vigor.Scores{1, 1, 1, 1}) {
		t.Error("the with-GT record was changed")
	}
	if again := MixedCondition(judge, "text_gt_only"); again[0].Scores != mixed[0].Scores {
		t.Error("not deterministic")
	}
	if ones == 0 || ones == 4 {
		t.Errorf("%d of 4 dimensions from with_gt; want some from each condition", ones)
	}
}
