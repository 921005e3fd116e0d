package bench

import "testing"

// The model cases run end to end on a few instances (speed is judged by
// `jigbench bench`, not here).
func TestModelsCasesRun(t *testing.T) {
	res, err := Models(t.TempDir(), 8, 4, 1)
	if err != nil {
		t.Fatal(err)
	}
	if len(res) != 3 {
		t.Fatalf("%d results", len(res))
	}
	for _, r := range res {
		t.Log(r)
		if r.WorkMS <= 0 || r.FloorMS <= 0 {
			t.Errorf("%s: not measured", r.Name)
		}
	}
}

func BenchmarkModels(b *testing.B) {
	for range b.N {
		res, err := Models(b.TempDir(), 200, 50, 3)
		if err != nil {
			b.Fatal(err)
		}
		for _, r := range res {
			b.Log(r)
		}
	}
}

// BenchmarkExportHF is the export hf case alone, for profiling
// (-cpuprofile); each iteration is one export and one copy floor.
func BenchmarkExportHF(b *testing.B) {
	dir := b.TempDir()
	ds, items, err := modelsDataset(dir, 4, ModelsExportCount)
	if err != nil {
		b.Fatal(err)
	}
	c := ExportHF(ds, items, dir)
	b.Run("export", func(b *testing.B) {
		for range b.N {
			if err := c.Work(); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("floor", func(b *testing.B) {
		for range b.N {
			if err := c.Floor(); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkExportHFRatio is jigbench bench's export hf case (Measure, 7
// interleaved runs) on its own; it reports the ratio to the copy floor.
func BenchmarkExportHFRatio(b *testing.B) {
	dir := b.TempDir()
	ds, items, err := modelsDataset(dir, 4, ModelsExportCount)
	if err != nil {
		b.Fatal(err)
	}
	for range b.N {
		r, err := Measure(ExportHF(ds, items, dir), 7)
		if err != nil {
			b.Fatal(err)
		}
		b.Log(r)
		b.ReportMetric(r.Ratio, "ratio")
		b.ReportMetric(r.WorkMS, "export-ms")
		b.ReportMetric(r.FloorMS, "floor-ms")
	}
}
