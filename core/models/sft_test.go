package models

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/jigbench/jigbench/core/score"
)

func TestExportSFT(t *testing.T) {
	ds := testDataset(t)
	items, err := ListInstances(ds, SplitAll)
	if err != nil {
		t.Fatal(err)
	}
	split := map[string]string{}
	train := map[int]int{}
	for _, it := range items {
		split[it.ID] = it.Split
		if it.Split == SplitTrain {
			train[it.Grid]++
		}
	}
	if train[2] == 0 || train[3] == 0 || len(items) == train[2]+train[3] {
		t.Fatalf("the test dataset needs train instances of both grids and some eval ones: %v of %d", train, len(items))
	}
	export := func(opt SFTOptions) []byte {
		t.Helper()
		var b bytes.Buffer
		if _, err := ExportSFT(context.Background(), &b, ds, filepath.Dir(ds), opt); err != nil {
			t.Fatal(err)
		}
		return b.Bytes()
	}
	// All train instances once: no eval instance, images relative and present.
	all := export(SFTOptions{})
	lines := strings.Split(strings.TrimSpace(string(all)), "\n")
	if len(lines) != train[2]+train[3] {
		t.Fatalf("%d samples, want %d", len(lines), train[2]+train[3])
	}
	for _, l := range lines {
		var c struct {
			Messages []struct {
				Role    string
				Content []struct{ Type, Text string }
			}
			Images []string
		}
		if err := json.Unmarshal([]byte(l), &c); err != nil {
			t.Fatal(err)
		}
		id := strings.Split(c.Images[0], "/")[1]
		if split[id] != SplitTrain {
			t.Errorf("exported %s from split %q", id, split[id])
		}
		if _, err := os.Stat(filepath.Join(filepath.Dir(ds), c.Images[0])); err != nil {
			t.Errorf("image path %s: %v", c.Images[0], err)
		}
		if len(c.Messages) != 2 || c.Messages[0].Content[0].Type != "image" || !strings.HasPrefix(c.Messages[1].Content[0].Text, `{"0": [`) {
			t.Errorf("messages layout: %s", l)
		}
	}
	share := export(SFTOptions{Layout: LayoutShareGPT})
	if !strings.Contains(string(share), `"content":"\u003cimage\u003eYou are given`) && !strings.Contains(string(share), `"content":"<image>You are given`) {
		t.Errorf("sharegpt layout: %.200s", share)
	}

	// Inverse accuracy: PA 1 on 2×2 gives it no weight, so every draw is 3×3.
	rep := &score.Report{Groups: []score.Group{{Model: "m", Grid: 2, Condition: "shape", Metrics: score.Metrics{PA: 1}},
		{Model: "m", Grid: 3, Condition: "shape", Metrics: score.Metrics{PA: 0.25}}}}
	w, err := InverseAccuracy(rep, "", nil)
	if err != nil || w[2] != 0 || w[3] != 0.75 {
		t.Fatalf("weights %v, %v", w, err)
	}
	draw := export(SFTOptions{Count: train[3], GridWeights: w, Seed: 3})
	if strings.Contains(string(draw), "-g2-") || strings.Count(string(draw), "\n") != train[3] {
		t.Errorf("weighted draw: %s", draw)
	}
	if _, err := ExportSFT(context.Background(), &bytes.Buffer{}, ds, ds, SFTOptions{Count: train[3] + 1, GridWeights: w}); err == nil {
		t.Error("drew more samples than the weighted grids hold")
	}
	// Seeded: the same seed gives the same bytes, another seed another order.
	a, b := export(SFTOptions{Count: 4, Seed: 1}), export(SFTOptions{Count: 4, Seed: 1})
	if !bytes.Equal(a, b) {
		t.Error("the same seed gave different samples")
	}
	differs := false
	for s := uint64(2); s < 6; s++ {
		differs = differs || !bytes.Equal(a, export(SFTOptions{Count: 4, Seed: s}))
	}
	if !differs {
		t.Error("four other seeds all gave the same samples")
	}
}
