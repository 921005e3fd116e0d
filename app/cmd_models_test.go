package app

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/jigbench/jigbench/core/batch"
	"github.com/jigbench/jigbench/core/models"
	"github.com/jigbench/jigbench/core/puzzle"
	"github.com/jigbench/jigbench/core/render"
	"github.com/jigbench/jigbench/core/score"
)

const roundTripKey = "sk-roundtrip-7f3a9c"

// solvingServer answers each request with the true solution of the instance
// whose sheet the request carries, inside prose.
func solvingServer(t *testing.T, ds string) (*httptest.Server, *int) {
	items, err := models.ListInstances(ds, models.SplitAll)
	if err != nil {
		t.Fatal(err)
	}
	answers := map[[32]byte]string{}
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
			answers[sha256.Sum256(png)] = score.MappingJSON(score.TruthOf(inst).Cell, inst.Grid)
		}
	}
	var mu sync.Mutex
	calls := 0
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		calls++
		mu.Unlock()
		if r.Header.Get("Authorization") != "Bearer "+roundTripKey {
			http.Error(w, "no key", 401)
			return
		}
		var body struct {
			Messages []struct {
				Content []struct {
					Type     string `json:"type"`
					ImageURL struct {
						URL string `json:"url"`
					} `json:"image_url"`
				} `json:"content"`
			} `json:"messages"`
		}
		data, _ := io.ReadAll(r.Body)
		if err := json.Unmarshal(data, &body); err != nil || len(body.Messages) != 1 || len(body.Messages[0].Content) != 2 {
			http.Error(w, "bad request body", 400)
			return
		}
		uri := body.Messages[0].Content[1].ImageURL.URL
		png, err := base64.StdEncoding.DecodeString(strings.TrimPrefix(uri, "data:image/png;base64,"))
		answer, ok := answers[sha256.Sum256(png)]
		if err != nil || !ok {
			http.Error(w, "unknown sheet", 400)
			return
		}
		text, _ := json.Marshal("Looking at the tabs and blanks, the pieces go here:\n```json\n" + answer + "\n```\nI hope this helps.")
		fmt.Fprintf(w, `{"id":"c","object":"chat.completion","choices":[{"index":0,"message":{"role":"assistant","content":%s},"finish_reason":"stop"}],"usage":{"prompt_tokens":%d,"completion_tokens":50}}`, text, 1000+len(answer))
	}))
	t.Cleanup(srv.Close)
	return srv, &calls
}

func readReport(t *testing.T, path string) *score.Report {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var rep score.Report
	if err := json.Unmarshal(data, &rep); err != nil {
		t.Fatal(err)
	}
	return &rep
}

func TestModelsRoundTrip(t *testing.T) {
	dir := t.TempDir()
	ds := filepath.Join(dir, "ds")
	if code, _, stderr := runCLI("dataset", "--demo-count", "3", "--grids", "2,3", "--seed", "5", "--size", "256", "--out", ds); code != 0 {
		t.Fatalf("dataset: %s", stderr)
	}
	req := filepath.Join(dir, "requests.jsonl")
	if code, _, stderr := runCLI("requests", "--truth", ds, "--out", req, "--model", "qwen"); code != 0 {
		t.Fatalf("requests: %s", stderr)
	}
	first, _ := os.ReadFile(req)
	if code, stdout, _ := runCLI("requests", "--truth", ds, "--out", "-", "--model", "qwen"); code != 0 || stdout != string(first) {
		t.Fatal("requests are not byte-identical for the same inputs")
	}
	srv, calls := solvingServer(t, ds)
	t.Setenv("JIGBENCH_TEST_KEY", roundTripKey)
	out := filepath.Join(dir, "out.jsonl")
	code, stdout, stderr := runCLI("run", "--requests", req, "--endpoint", srv.URL+"/v1", "--out", out,
		"--api-key-env", "JIGBENCH_TEST_KEY", "--concurrency", "3")
	if code != 0 {
		t.Fatalf("run: %s", stderr)
	}
	if strings.Contains(stdout+stderr, roundTripKey) {
		t.Error("the key is in run's output")
	}
	asked := *calls
	// A second run asks nothing.
	if code, _, stderr := runCLI("run", "--requests", req, "--endpoint", srv.URL+"/v1", "--out", out,
		"--api-key-env", "JIGBENCH_TEST_KEY"); code != 0 || *calls != asked {
		t.Fatalf("rerun asked %d more (%s)", *calls-asked, stderr)
	}
	for _, f := range []string{req, out} {
		if data, _ := os.ReadFile(f); bytes.Contains(data, []byte(roundTripKey)) {
			t.Errorf("the key is in %s", f)
		}
	}

	repPath := filepath.Join(dir, "rep.json")
	if code, _, stderr := runCLI("score", "--truth", ds, "--pred", "qwen="+out, "--json", repPath); code != 0 {
		t.Fatalf("score: %s", stderr)
	}
	rep := readReport(t, repPath)
	items, _ := models.ListInstances(ds, models.SplitAll)
	perGrid := map[int]int{}
	for _, it := range items {
		perGrid[it.Grid]++
	}
	if len(rep.Groups) != 4 {
		t.Fatalf("%d groups, want 2 grids × 2 conditions", len(rep.Groups))
	}
	for _, g := range rep.Groups {
		if g.N != perGrid[g.Grid] || g.Invalid != 0 || g.PA != 1 || g.EM != 1 || g.AA != 1 || g.AADirected != 1 || g.SC != 1 {
			t.Errorf("group %s %d %s: n %d invalid %d metrics %+v, want all 1", g.Model, g.Grid, g.Condition, g.N, g.Invalid, g.Metrics)
		}
	}
	if len(rep.Usage) != 4 {
		t.Fatalf("usage %+v", rep.Usage)
	}
	for _, u := range rep.Usage {
		want := float64(1000 + len(score.MappingJSON(make([]int, u.Grid*u.Grid), u.Grid)))
		if u.N != perGrid[u.Grid] || u.CompletionTokens != 50 || u.PromptTokens < 1000 || u.TotalCompletionTokens != int64(50*u.N) {
			t.Errorf("usage %+v (prompt about %v)", u, want)
		}
	}

	// The exports run from the command line; the report drives the weights.
	hf := filepath.Join(dir, "hf")
	if code, _, stderr := runCLI("export", "hf", "--truth", ds, "--out", hf, "--row-group-mb", "1"); code != 0 {
		t.Fatalf("export hf: %s", stderr)
	}
	if files, _ := filepath.Glob(filepath.Join(hf, "data", "*-00000-of-*.parquet")); len(files) == 0 {
		t.Error("export hf wrote no parquet file")
	}
	sft := filepath.Join(dir, "sft.jsonl")
	if code, _, stderr := runCLI("export", "sft", "--truth", ds, "--out", sft, "--format", "sharegpt",
		"--weights", "inverse-accuracy", "--report", repPath, "--count", "1"); code == 0 || !strings.Contains(stderr, "above 0") {
		// PA is 1 everywhere, so no grid has weight: refused with a reason.
		t.Errorf("export sft with all-perfect weights: exit %d, %s", code, stderr)
	}
	if code, _, stderr := runCLI("export", "sft", "--truth", ds, "--out", sft); code != 0 || !strings.Contains(readFile(t, sft), `"images":["ds/`) {
		t.Errorf("export sft: exit %d, %s", code, stderr)
	}

	// The same answers as vLLM writes them, with its extra fields, parts
	// and a reasoning field that holds a wrong answer, score the same.
	lines := strings.Split(strings.TrimSpace(readFile(t, out)), "\n")
	var vllm strings.Builder
	for i, l := range lines {
		a, err := batch.ParseOutput([]byte(l))
		if err != nil || !a.OK {
			t.Fatalf("line %d: %v %+v", i, err, a)
		}
		half := len(a.Text) / 2
		p1, _ := json.Marshal(a.Text[:half])
		p2, _ := json.Marshal(a.Text[half:])
		fmt.Fprintf(&vllm, `{"id":"vllm-%d","custom_id":%q,"response":{"status_code":200,"request_id":"vllm-batch-%d","body":{"id":"chatcmpl-%d","object":"chat.completion","created":1733000000,"model":"qwen","choices":[{"index":0,"message":{"role":"assistant","reasoning_content":"{\"0\": [9, 9]}","content":[{"type":"text","text":%s},{"type":"text","text":%s}],"tool_calls":[]},"logprobs":null,"finish_reason":"stop","stop_reason":null}],"usage":{"prompt_tokens":%d,"total_tokens":0,"completion_tokens":%d,"prompt_tokens_details":null},"prompt_logprobs":null}},"error":null}`+"\n",
			i, a.CustomID, i, i, p1, p2, a.Usage.PromptTokens, a.Usage.CompletionTokens)
	}
	vllmPath := filepath.Join(dir, "vllm.jsonl")
	os.WriteFile(vllmPath, []byte(vllm.String()), 0o644)
	vrepPath := filepath.Join(dir, "vrep.json")
	if code, _, stderr := runCLI("score", "--truth", ds, "--pred", "qwen="+vllmPath, "--json", vrepPath); code != 0 {
		t.Fatalf("score vllm: %s", stderr)
	}
	vrep := readReport(t, vrepPath)
	for _, pair := range [][2]any{{rep.Groups, vrep.Groups}, {rep.Instances, vrep.Instances}, {rep.Usage, vrep.Usage}} {
		a, _ := json.Marshal(pair[0])
		b, _ := json.Marshal(pair[1])
		if !bytes.Equal(a, b) {
			t.Errorf("the vLLM-style file scores differently:\n%s\n%s", a, b)
		}
	}

	// Error lines, a non-200 response and a truncated answer are invalid,
	// with their reasons; a later answer for an instance beats an earlier error.
	id0, c0, _ := batch.SplitCustomID(mustCustomID(t, lines[0]))
	id1, c1, _ := batch.SplitCustomID(mustCustomID(t, lines[1]))
	id2, c2, _ := batch.SplitCustomID(mustCustomID(t, lines[2]))
	broken := []string{
		fmt.Sprintf(`{"id":"x","custom_id":%q,"response":null,"error":{"code":"timeout","message":"no complete answer"}}`, batch.CustomID(id0, c0)),
		fmt.Sprintf(`{"id":"x","custom_id":%q,"response":{"status_code":500,"body":{"error":{"message":"overloaded"}}},"error":null}`, batch.CustomID(id1, c1)),
		fmt.Sprintf(`{"id":"x","custom_id":%q,"response":{"status_code":200,"body":{"choices":[{"message":{"content":"{\"0\": [0, 1], \"1\": [1"},"finish_reason":"length"}]}},"error":null}`, batch.CustomID(id2, c2)),
		fmt.Sprintf(`{"id":"x","custom_id":%q,"response":null,"error":{"code":"timeout","message":"first try"}}`, mustCustomID(t, lines[3])),
	}
	mixed := strings.Join(append(broken, lines[3:]...), "\n") + "\n"
	mixedPath := filepath.Join(dir, "mixed.jsonl")
	os.WriteFile(mixedPath, []byte(mixed), 0o644)
	mrepPath := filepath.Join(dir, "mrep.json")
	if code, _, stderr := runCLI("score", "--truth", ds, "--pred", "qwen="+mixedPath, "--json", mrepPath); code != 0 {
		t.Fatalf("score mixed: %s", stderr)
	}
	mrep := readReport(t, mrepPath)
	reasons := map[string]string{}
	invalid := 0
	for _, s := range mrep.Instances {
		if !s.Valid {
			invalid++
			reasons[batch.CustomID(s.ID, s.Condition)] = s.Reason
		}
	}
	if invalid != 3 {
		t.Errorf("%d invalid, want 3: %v", invalid, reasons)
	}
	for cid, want := range map[string]string{batch.CustomID(id0, c0): "error: timeout", batch.CustomID(id1, c1): "HTTP status 500: overloaded",
		batch.CustomID(id2, c2): "truncated"} {
		if !strings.HasPrefix(reasons[cid], want) {
			t.Errorf("%s: reason %q, want %q…", cid, reasons[cid], want)
		}
	}
}

func mustCustomID(t *testing.T, line string) string {
	a, err := batch.ParseOutput([]byte(line))
	if err != nil {
		t.Fatal(err)
	}
	return a.CustomID
}

func readFile(t *testing.T, path string) string {
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

func TestModelsCommandsBadInput(t *testing.T) {
	dir := t.TempDir()
	for _, args := range [][]string{
		{"requests"},
		{"requests", "--truth", dir, "--out", "x", "--condition", "both2"},
		{"requests", "--truth", dir, "--out", "x", "--images", "url"},
		{"run", "--requests", "r"},
		{"run", "--requests", "r", "--endpoint", "localhost:8000", "--out", "o"},
		{"run", "--requests", "r", "--endpoint", "http://x", "--out", "o", "--concurrency", "0"},
		{"export"},
		{"export", "parquet"},
		{"export", "sft", "--truth", dir, "--out", "x", "--weights", "inverse-accuracy"},
	} {
		code, _, stderr := runCLI(args...)
		if code != 2 || !strings.HasPrefix(stderr, "jigbench: ") || strings.Count(stderr, "\n") != 1 {
			t.Errorf("%v: exit %d, stderr %q", args, code, stderr)
		}
	}
	// Work that fails: one line, exit 1.
	t.Setenv("JIGBENCH_EMPTY_KEY", "")
	for _, args := range [][]string{
		{"requests", "--truth", filepath.Join(dir, "missing"), "--out", filepath.Join(dir, "r.jsonl")},
		{"run", "--requests", filepath.Join(dir, "missing.jsonl"), "--endpoint", "http://127.0.0.1:9", "--out", filepath.Join(dir, "o.jsonl")},
		{"run", "--requests", "r", "--endpoint", "http://127.0.0.1:9", "--out", "o", "--api-key-env", "JIGBENCH_EMPTY_KEY"},
		{"export", "hf", "--truth", dir, "--out", filepath.Join(dir, "hf")},
	} {
		code, _, stderr := runCLI(args...)
		if code != 1 || !strings.HasPrefix(stderr, "jigbench: ") || strings.Count(stderr, "\n") != 1 {
			t.Errorf("%v: exit %d, stderr %q", args, code, stderr)
		}
	}
	for _, name := range []string{"requests", "run", "export"} {
		if code, out, _ := runCLI("help", name); code != 0 || !strings.Contains(out, "usage: jigbench "+name) {
			t.Errorf("help %s: %d %q", name, code, out)
		}
	}
}
