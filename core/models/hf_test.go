package models

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/jigbench/jigbench/core/puzzle"
	"github.com/jigbench/jigbench/core/render"
	"github.com/jigbench/jigbench/core/score"
)

// testTools is where `.ci/deps test` installs the independent readers.
func testTools() string {
	if d := os.Getenv("JIGBENCH_TESTTOOLS"); d != "" {
		return d
	}
	return "/usr/local/lib/jigbench-testtools"
}

// TestExportHFReadByDuckDB writes a small export with a row group per row
// and a file per two rows, and reads it back with DuckDB, not parquet-go.
func TestExportHFReadByDuckDB(t *testing.T) {
	modules := filepath.Join(testTools(), "node_modules")
	node, err := exec.LookPath("node")
	if _, serr := os.Stat(filepath.Join(modules, "@duckdb", "node-api")); err != nil || serr != nil {
		msg := "node or @duckdb/node-api is not installed (sh .ci/deps test installs them into " + testTools() + ")"
		if os.Getenv("CI") != "" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	ds := testDataset(t)
	out := t.TempDir()
	splits, err := ExportHF(context.Background(), ds, out, HFOptions{RowGroupBytes: 1, FileBytes: 1})
	if err != nil {
		t.Fatal(err)
	}
	items, err := ListInstances(ds, SplitAll)
	if err != nil {
		t.Fatal(err)
	}
	perSplit := map[string]int{}
	for _, it := range items {
		perSplit[it.Split] += 2
	}
	cmd := exec.Command(node, "testdata/duckdb-check.js", modules, out)
	cmd.Stderr = os.Stderr
	raw, err := cmd.Output()
	if err != nil {
		t.Fatalf("duckdb check: %v", err)
	}
	var got struct {
		Splits map[string]struct {
			N     int `json:"n"`
			Files int `json:"files"`
		} `json:"splits"`
		Columns  [][2]string `json:"columns"`
		Metadata *struct {
			Key, Value string
		} `json:"metadata"`
		Images map[string]struct {
			Path, SHA256, Seed, Answer string
			Grid                       int
		} `json:"images"`
	}
	if err := json.Unmarshal(raw, &got); err != nil {
		t.Fatalf("%v: %s", err, raw)
	}
	for _, sp := range splits {
		g := got.Splits[sp.Name]
		if g.N != perSplit[sp.Name] || g.N != sp.Rows || g.Files != len(sp.Files) {
			t.Errorf("split %s: DuckDB reads %d rows in %d files; want %d rows in %d files", sp.Name, g.N, g.Files, perSplit[sp.Name], len(sp.Files))
		}
		if len(sp.Files) < 2 || !strings.HasSuffix(sp.Files[0], "-00000-of-"+pad5(len(sp.Files))+".parquet") {
			t.Errorf("split %s files %v", sp.Name, sp.Files)
		}
	}
	wantCols := [][2]string{{"id", "VARCHAR"}, {"grid", "INTEGER"}, {"condition", "VARCHAR"},
		{"image", "STRUCT(bytes BLOB, path VARCHAR)"}, {"prompt", "VARCHAR"}, {"answer", "VARCHAR"},
		{"source", "VARCHAR"}, {"seed", "BIGINT"}, {"split", "VARCHAR"}}
	if len(got.Columns) != len(wantCols) {
		t.Fatalf("columns %v", got.Columns)
	}
	for i, c := range wantCols {
		if got.Columns[i] != c {
			t.Errorf("column %d is %v, want %v", i, got.Columns[i], c)
		}
	}
	if got.Metadata == nil || got.Metadata.Key != "huggingface" {
		t.Fatalf("metadata %+v", got.Metadata)
	}
	var hf struct {
		Info struct {
			Features map[string]map[string]string `json:"features"`
		} `json:"info"`
	}
	if err := json.Unmarshal([]byte(got.Metadata.Value), &hf); err != nil || hf.Info.Features["image"]["_type"] != "Image" ||
		hf.Info.Features["grid"]["dtype"] != "int32" {
		t.Errorf("huggingface metadata %s (%v)", got.Metadata.Value, err)
	}
	if len(got.Images) != len(items)*2 {
		t.Fatalf("%d image rows, want %d", len(got.Images), len(items)*2)
	}
	for _, it := range items {
		inst, err := puzzle.ReadInstance(filepath.Join(it.Dir, render.FileInstance))
		if err != nil {
			t.Fatal(err)
		}
		for _, cond := range []string{"shape", "rect"} {
			png, err := os.ReadFile(it.SheetPath(cond))
			if err != nil {
				t.Fatal(err)
			}
			sum := sha256.Sum256(png)
			row := got.Images[it.ID+":"+cond]
			if row.SHA256 != hex.EncodeToString(sum[:]) || row.Path != it.ID+"/"+cond+".png" {
				t.Errorf("%s %s: image bytes or path differ from the sheet PNG (%s)", it.ID, cond, row.Path)
			}
			if row.Grid != it.Grid || row.Seed != uitoa(it.Seed) || row.Answer != score.MappingJSON(score.TruthOf(inst).Cell, inst.Grid) {
				t.Errorf("%s %s: row %+v", it.ID, cond, row)
			}
		}
	}
	card, err := os.ReadFile(filepath.Join(out, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"license:", "configs:", "path: data/train-*.parquet", "dtype: image", "num_examples: " + itoa(perSplit["train"])} {
		if !strings.Contains(string(card), want) {
			t.Errorf("the dataset card lacks %q", want)
		}
	}

	// A second export with the default sizes replaces the many small files.
	if _, err := ExportHF(context.Background(), ds, out, HFOptions{}); err != nil {
		t.Fatal(err)
	}
	files, _ := filepath.Glob(filepath.Join(out, "data", "*"))
	for _, f := range files {
		if b := filepath.Base(f); !strings.HasSuffix(b, "-00000-of-00001.parquet") {
			t.Errorf("left behind: %s", b)
		}
	}
}

// The page buffers hold what parquet-go writes across chunk boundaries and
// give it back, whole and from any offset, and their chunks are reused.
func TestPageBufferRoundTrip(t *testing.T) {
	pool := new(pageBufferPool)
	data := make([]byte, 3*pageChunk+12345)
	for i := range data {
		data[i] = byte(i*7 + i>>11)
	}
	for round := range 2 {
		b := pool.GetBuffer()
		for rest, step := data, 1; len(rest) > 0; step = step*3 + 1 {
			k := min(step, len(rest))
			if n, err := b.Write(rest[:k]); n != k || err != nil {
				t.Fatalf("Write = %d, %v", n, err)
			}
			rest = rest[k:]
		}
		if end, _ := b.Seek(0, io.SeekEnd); end != int64(len(data)) {
			t.Fatalf("round %d: size %d, want %d", round, end, len(data))
		}
		b.Seek(0, io.SeekStart)
		var out bytes.Buffer
		if n, err := io.Copy(&out, b); err != nil || n != int64(len(data)) || !bytes.Equal(out.Bytes(), data) {
			t.Fatalf("round %d: copied %d bytes (%v), equal %v", round, n, err, bytes.Equal(out.Bytes(), data))
		}
		at := int64(pageChunk - 3)
		b.Seek(at, io.SeekStart)
		got, err := io.ReadAll(b)
		if err != nil || !bytes.Equal(got, data[at:]) {
			t.Fatalf("round %d: read from %d: %d bytes, %v", round, at, len(got), err)
		}
		pool.PutBuffer(b)
		if len(pool.chunks) != 4 {
			t.Fatalf("round %d: %d chunks back in the pool, want 4", round, len(pool.chunks))
		}
	}
}

// Two exports of one dataset are byte for byte the same, with one row group
// per row and with the default sizes.
func TestExportHFDeterministic(t *testing.T) {
	ds := testDataset(t)
	for _, opt := range []HFOptions{{RowGroupBytes: 1}, {}} {
		var sums [2]map[string]string
		for i := range sums {
			out := t.TempDir()
			if _, err := ExportHF(context.Background(), ds, out, opt); err != nil {
				t.Fatal(err)
			}
			sums[i] = map[string]string{}
			files, _ := filepath.Glob(filepath.Join(out, "data", "*.parquet"))
			for _, f := range append(files, filepath.Join(out, "README.md")) {
				b, err := os.ReadFile(f)
				if err != nil {
					t.Fatal(err)
				}
				s := sha256.Sum256(b)
				sums[i][filepath.Base(f)] = hex.EncodeToString(s[:])
			}
		}
		if len(sums[0]) < 2 || !reflect.DeepEqual(sums[0], sums[1]) {
			t.Errorf("row groups of %d bytes: two exports differ or are missing: %v vs %v", opt.RowGroupBytes, sums[0], sums[1])
		}
	}
}
