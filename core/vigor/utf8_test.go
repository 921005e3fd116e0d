package vigor

import (
	"slices"
	"strings"
	"testing"
)

// Two ids that differ only in invalid bytes used to decode to the same
// U+FFFD string and be reported as duplicates; now the bytes are refused
// where they stand.
func TestParseSplitRefusesInvalidUTF8AndAcceptsABOM(t *testing.T) {
	item := func(id string) string {
		return `{"id":"` + id + `","track":"result","input":"i.png","output":"o.png","gt_text":"t"}`
	}
	bad := "{\"format\":\"jigbench.vigor-split/v1\",\"name\":\"n\",\n\"items\":[" + item("a\xff") + "," + item("a\xfe") + "]}"
	sp, probs := ParseSplit([]byte(bad))
	if sp != nil || !slices.ContainsFunc(probs, func(p Problem) bool {
		return p.Fatal && strings.Contains(p.String(), "line 2") && strings.Contains(p.String(), "not valid UTF-8")
	}) {
		t.Errorf("invalid UTF-8 in ids: split %v, problems %v; want one fatal problem naming line 2", sp != nil, probs)
	}
	good := "\xef\xbb\xbf{\"format\":\"jigbench.vigor-split/v1\",\"name\":\"n\",\"items\":[" + item("a") + "]}"
	if sp, probs := ParseSplit([]byte(good)); sp == nil {
		t.Errorf("split.json with a BOM refused: %v", probs)
	}
}

func TestReadJudgeAndRatingsRefuseInvalidUTF8(t *testing.T) {
	sp, probs := ParseSplit([]byte(`{"format":"jigbench.vigor-split/v1","name":"n","items":[{"id":"a","track":"result","input":"i.png","output":"o.png","gt_text":"t"}]}`))
	if sp == nil {
		t.Fatal(probs)
	}
	_, _, err := ReadJudge(strings.NewReader("{\"item_id\":\"a\xff\",\"run\":1}\n"), sp, JudgeOptions{Source: "judge.jsonl"})
	if err == nil || !strings.Contains(err.Error(), "judge.jsonl") || !strings.Contains(err.Error(), "not valid UTF-8") {
		t.Errorf("judge file with invalid bytes: %v", err)
	}
	rr := ratingsReader{sp: sp, seen: map[[2]string]location{}}
	_, err = rr.readJSONL(strings.NewReader("{\"split\":\"n\",\"item_id\":\"a\",\"annotator\":\"x\xff\"}\n"))
	if err == nil || !strings.Contains(err.Error(), "not valid UTF-8") {
		t.Errorf("ratings line with invalid bytes: %v", err)
	}
}

// Comments and names a spreadsheet would run as formulas are exported as
// text and read back unchanged.
func TestRatingsCSVNeutralisesFormulas(t *testing.T) {
	sp, probs := ParseSplit([]byte(`{"format":"jigbench.vigor-split/v1","name":"n","items":[{"id":"a","track":"result","input":"i.png","output":"o.png","gt_text":"t"}]}`))
	if sp == nil {
		t.Fatal(probs)
	}
	in := []Rating{{Split: "n", Item: "a", Annotator: "@rater", Scores: Scores{1, 0, 1, 1},
		Comment: `=HYPERLINK("http://x","click")`}}
	var b strings.Builder
	if err := WriteRatings(&b, CSV, in); err != nil {
		t.Fatal(err)
	}
	for _, cell := range []string{`'@rater`, `"'=HYPERLINK(""http://x"",""click"")"`} {
		if !strings.Contains(b.String(), ","+cell+",") && !strings.HasSuffix(strings.TrimSpace(b.String()), ","+cell) {
			t.Errorf("export lacks the neutralised cell %s:\n%s", cell, b.String())
		}
	}
	rr := ratingsReader{sp: sp, seen: map[[2]string]location{}}
	out, err := rr.readCSV(strings.NewReader(b.String()))
	if err != nil || len(out) != 1 || out[0].Annotator != in[0].Annotator || out[0].Comment != in[0].Comment {
		t.Fatalf("read back %+v, %v; want %+v", out, err, in)
	}
}
