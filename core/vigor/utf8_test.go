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
