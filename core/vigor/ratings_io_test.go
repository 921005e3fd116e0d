package vigor

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

func handSplit(t testing.TB) *Split {
	t.Helper()
	sp, _ := ParseSplit([]byte(handSplitJSON))
	return sp
}

func TestRatingsRoundTrip(t *testing.T) {
	sp := handSplit(t)
	stamp := time.Date(2026, 2, 3, 4, 5, 6, 700, time.UTC)
	in := []Rating{
		{Split: "hand", Item: "r1", Annotator: "Ana María", Scores: Scores{1, 0, 1, NoScore}, Flagged: true,
			Comment: "line one\nline \"two\", with comma", Updated: stamp},
		{Split: "hand", Item: "p1", Annotator: "Ana María", Scores: Scores{0, 100, 33, 67}, Updated: stamp},
		{Split: "hand", Item: "p2", Annotator: "bo", Scores: Unscored()},
	}
	for _, f := range []RatingsFormat{CSV, JSONL} {
		var buf bytes.Buffer
		if err := WriteRatings(&buf, f, in); err != nil {
			t.Fatal(err)
		}
		if f == CSV && !strings.HasPrefix(buf.String(), "split,item_id,annotator,background_consistency,rule_obey,visual_quality,reasoning,flagged,comment,updated_at\n") {
			t.Errorf("CSV header: %q", strings.SplitN(buf.String(), "\n", 2)[0])
		}
		out, err := ReadRatings(&buf, f, sp)
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		if len(out) != len(in) {
			t.Fatalf("%s: read %d ratings", f, len(out))
		}
		for i := range in {
			a, b := in[i], out[i]
			if a.Item != b.Item || a.Annotator != b.Annotator || a.Scores != b.Scores || a.Flagged != b.Flagged ||
				a.Comment != b.Comment || !a.Updated.Equal(b.Updated) {
				t.Errorf("%s: %+v came back as %+v", f, a, b)
			}
		}
	}
}

func TestRatingsImportRefusals(t *testing.T) {
	sp := handSplit(t)
	const header = "split,item_id,annotator,background_consistency,rule_obey,visual_quality,reasoning,flagged,comment,updated_at\n"
	for _, tc := range []struct {
		name, data string
		f          RatingsFormat
		line       int
		want       string
	}{
		{"result score 2", header + "hand,r1,a,1,1,1,1,,,\nhand,r2,a,2,1,1,1,,,\n", CSV, 3, "result-track scores are 0 or 1"},
		{"process score 101", header + "hand,p1,a,101,1,1,1,,,\n", CSV, 2, "0 to 100"},
		{"negative", header + "hand,p1,a,-1,1,1,1,,,\n", CSV, 2, "not negative"},
		{"JSONL negative", `{"split":"hand","item_id":"p1","annotator":"a","rule_obey":-1}` + "\n", JSONL, 1, "not negative"},
		{"not an integer", header + "hand,p1,a,50.5,1,1,1,,,\n", CSV, 2, "not an integer"},
		{"unknown item", header + "hand,zz,a,1,1,1,1,,,\n", CSV, 2, `item "zz" is not in split`},
		{"other split", header + "other,r1,a,1,1,1,1,,,\n", CSV, 2, "is not this split"},
		{"pair twice", header + "hand,r1,a,1,1,1,1,,,\nhand,r2,a,1,1,1,1,,,\nhand,r1,a,0,0,0,0,,,\n", CSV, 4, "given twice (also on line 2)"},
		{"no annotator", header + "hand,r1,,1,1,1,1,,,\n", CSV, 2, "annotator missing"},
		{"bad flag", header + "hand,r1,a,1,1,1,1,maybe,,\n", CSV, 2, "flagged"},
		{"bad time", header + "hand,r1,a,1,1,1,1,,,yesterday\n", CSV, 2, "updated_at"},
		{"short row", header + "hand,r1,a,1,1,1,1\n", CSV, 2, "fields"},
		{"missing column", "split,item_id,annotator,background_consistency,rule_obey,visual_quality,flagged,comment,updated_at\n", CSV, 1, `lacks column "reasoning"`},
		{"unknown column", strings.TrimSuffix(header, "\n") + ",extra\n", CSV, 1, `unknown column "extra"`},
		{"quoted multi-line row", header + "hand,r1,a,1,1,1,1,,\"a\nb\",\nhand,r1,a,1,1,1,1,,,\n", CSV, 4, "given twice (also on line 2)"},
		{"JSONL off scale", `{"split":"hand","item_id":"r1","annotator":"a","background_consistency":3}` + "\n", JSONL, 1, "0 or 1"},
		{"JSONL unknown key", "\n" + `{"split":"hand","item_id":"r1","annotator":"a","score":3}` + "\n", JSONL, 2, `unknown key "score"`},
		{"JSONL wrong type", `{"split":"hand","item_id":"r1","annotator":"a","rule_obey":"yes"}` + "\n", JSONL, 1, "rule_obey: want an integer"},
		{"JSONL broken", `{"split":"hand",` + "\n", JSONL, 1, "not a JSON object"},
		{"JSONL pair twice", `{"split":"hand","item_id":"r1","annotator":"a"}` + "\n" + `{"split":"hand","item_id":"r1","annotator":"a"}` + "\n", JSONL, 2, "given twice"},
	} {
		_, err := ReadRatings(strings.NewReader(tc.data), tc.f, sp)
		var le *LineError
		if !errors.As(err, &le) || le.Line != tc.line || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v; want line %d saying %q", tc.name, err, tc.line, tc.want)
		}
	}
	// A spreadsheet's BOM and column order do not matter.
	data := "\ufeffitem_id,split,annotator,reasoning,rule_obey,visual_quality,background_consistency,flagged,comment,updated_at\nr1,hand,a,1,0,0,0,TRUE,,\n"
	rs, err := ReadRatings(strings.NewReader(data), CSV, sp)
	if err != nil || len(rs) != 1 || rs[0].Scores != (Scores{0, 0, 0, 1}) || !rs[0].Flagged {
		t.Errorf("reordered columns: %+v %v", rs, err)
	}
}

func TestReadRatingsFilesAcrossFiles(t *testing.T) {
	sp := handSplit(t)
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a.csv"), filepath.Join(dir, "b.jsonl")
	WriteRatingsFile(a, []Rating{{Split: "hand", Item: "r1", Annotator: "x", Scores: Scores{1, 1, 1, 1}}})
	WriteRatingsFile(b, []Rating{{Split: "hand", Item: "r2", Annotator: "x", Scores: Scores{1, 1, 1, 1}},
		{Split: "hand", Item: "r1", Annotator: "x", Scores: Scores{0, 1, 1, 1}}})
	_, err := ReadRatingsFiles([]string{a, b}, sp)
	if err == nil || !strings.Contains(err.Error(), "line 2") || !strings.Contains(err.Error(), a+" line 2") {
		t.Errorf("cross-file duplicate: %v", err)
	}
	if _, err := ReadRatingsFiles([]string{filepath.Join(dir, "c.txt")}, sp); err == nil {
		t.Error("unknown extension accepted")
	}
}

func TestImportAllOrNothingNewerWins(t *testing.T) { forEachStore(t, testImportAllOrNothingNewerWins) }

func testImportAllOrNothingNewerWins(t *testing.T, st *Store) {
	ctx := context.Background()
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	st.now = func() time.Time { return t0.Add(time.Hour) }
	// The store holds a rating made at t0+1h.
	if _, err := st.Save(ctx, Rating{Split: "hand", Item: "r1", Annotator: "a", Scores: Scores{1, 1, 1, 1}}); err != nil {
		t.Fatal(err)
	}
	good := []Rating{
		{Split: "hand", Item: "r1", Annotator: "a", Scores: Scores{0, 0, 0, 0}, Updated: t0},                  // older: kept out
		{Split: "hand", Item: "r2", Annotator: "a", Scores: Scores{0, 0, 0, 0}, Updated: t0},                  // new
		{Split: "hand", Item: "r1", Annotator: "b", Scores: Scores{1, 0, 1, 0}, Updated: t0.Add(time.Minute)}, // new
	}
	bad := append(slices.Clone(good), Rating{Split: "hand", Item: "r3", Annotator: "a", Scores: Scores{200, 0, 0, 0}})
	if _, err := st.Import(ctx, bad); err == nil {
		t.Fatal("Import accepted a score of 200")
	}
	if all, _ := st.List(ctx, Query{}); len(all) != 1 {
		t.Fatalf("a failed import left %d ratings, want the 1 from before", len(all))
	}
	res, err := st.Import(ctx, good)
	if err != nil {
		t.Fatal(err)
	}
	if res != (ImportResult{Added: 2, Kept: 1}) {
		t.Errorf("import result %+v", res)
	}
	if r, _ := st.Get(ctx, "hand", "r1", "a"); r.Scores != (Scores{1, 1, 1, 1}) {
		t.Error("an older import overwrote a newer rating")
	}
	newer := []Rating{{Split: "hand", Item: "r1", Annotator: "a", Scores: Scores{0, 1, 0, 1}, Updated: t0.Add(2 * time.Hour)}}
	if res, err := st.Import(ctx, newer); err != nil || res.Replaced != 1 {
		t.Errorf("newer import: %+v %v", res, err)
	}
	r, _ := st.Get(ctx, "hand", "r1", "a")
	if r.Scores != (Scores{0, 1, 0, 1}) || !r.Updated.Equal(t0.Add(2*time.Hour)) || !r.Created.Equal(t0.Add(time.Hour)) {
		t.Errorf("after newer import: %+v", r)
	}

	// Export and re-import into a fresh store gives the same ratings.
	sp := handSplit(t)
	path := filepath.Join(t.TempDir(), "export.jsonl")
	all, _ := st.List(ctx, Query{Split: "hand"})
	if err := WriteRatingsFile(path, all); err != nil {
		t.Fatal(err)
	}
	back, err := ReadRatingsFiles([]string{path}, sp)
	if err != nil {
		t.Fatal(err)
	}
	st2 := openTestStore(t)
	if res, err := st2.Import(ctx, back); err != nil || res.Added != len(all) {
		t.Fatalf("re-import: %+v %v", res, err)
	}
	all2, _ := st2.List(ctx, Query{Split: "hand"})
	for i := range all {
		if all[i].Scores != all2[i].Scores || !all[i].Updated.Equal(all2[i].Updated) {
			t.Errorf("round trip changed %+v into %+v", all[i], all2[i])
		}
	}
	if _, err := os.Stat(path); err != nil {
		t.Fatal(err)
	}
}
