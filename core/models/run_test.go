package models

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jigbench/jigbench/core/batch"
	"github.com/jigbench/jigbench/core/progress"
)

const testKey = "sk-test-SECRET-8c1f"

// fakeServer is an OpenAI-compatible chat-completions server whose requests
// carry their custom_id as the user content, and whose behaviour depends on
// that id's prefix.
type fakeServer struct {
	*httptest.Server
	mu       sync.Mutex
	attempts map[string]int
	arrivals []time.Time
	inFlight int
	maxIn    int
	// hold, if > 0, keeps each request until that many are in flight (or
	// two seconds pass), so the concurrency ceiling is reached.
	hold  int
	delay time.Duration
}

func newFakeServer(t *testing.T) *fakeServer {
	s := &fakeServer{attempts: map[string]int{}}
	s.Server = httptest.NewServer(http.HandlerFunc(s.serve))
	t.Cleanup(s.Close)
	return s
}

func chatBody(text, finish string) string {
	c, _ := json.Marshal(text)
	return fmt.Sprintf(`{"id":"chatcmpl-1","object":"chat.completion","choices":[{"index":0,"message":{"role":"assistant","content":%s},"finish_reason":%q}],"usage":{"prompt_tokens":100,"completion_tokens":7,"total_tokens":107}}`, c, finish)
}

func (s *fakeServer) serve(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path != "/v1/chat/completions" || r.Method != http.MethodPost {
		http.Error(w, "not found", 404)
		return
	}
	if r.Header.Get("Authorization") != "Bearer "+testKey {
		http.Error(w, `{"error":{"message":"bad key"}}`, 401)
		return
	}
	var body struct {
		Messages []struct {
			Content string `json:"content"`
		} `json:"messages"`
	}
	data, _ := io.ReadAll(r.Body)
	if json.Unmarshal(data, &body) != nil || len(body.Messages) == 0 {
		http.Error(w, `{"error":{"message":"bad body"}}`, 400)
		return
	}
	id := body.Messages[0].Content
	s.mu.Lock()
	s.attempts[id]++
	n := s.attempts[id]
	s.arrivals = append(s.arrivals, time.Now())
	s.inFlight++
	s.maxIn = max(s.maxIn, s.inFlight)
	hold := s.hold
	s.mu.Unlock()
	defer func() {
		s.mu.Lock()
		s.inFlight--
		s.mu.Unlock()
	}()
	if hold > 0 {
		for deadline := time.Now().Add(2 * time.Second); time.Now().Before(deadline); time.Sleep(5 * time.Millisecond) {
			s.mu.Lock()
			reached := s.maxIn >= hold
			s.mu.Unlock()
			if reached {
				break
			}
		}
	}
	if s.delay > 0 {
		time.Sleep(s.delay)
	}
	answer := func(finish string) {
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("X-Request-Id", "req-"+id)
		io.WriteString(w, chatBody("Here it is: answer-"+id, finish))
	}
	switch kind, _, _ := strings.Cut(id, "-"); kind {
	case "slow": // the first attempt outlasts the client's time-out
		if n == 1 {
			select {
			case <-r.Context().Done():
			case <-time.After(5 * time.Second):
			}
			return
		}
		answer("stop")
	case "limited":
		if n == 1 {
			w.Header().Set("Retry-After", "1")
			http.Error(w, `{"error":{"message":"slow down"}}`, 429)
			return
		}
		answer("stop")
	case "flaky":
		if n <= 2 {
			http.Error(w, "upstream broke", 500)
			return
		}
		answer("stop")
	case "down": // always fails, echoing the key as a careless server might
		http.Error(w, `{"error":{"message":"cannot serve key `+testKey+`"}}`, 503)
	case "bad":
		http.Error(w, `{"error":{"message":"unsupported"}}`, 400)
	case "trunc":
		answer("length")
	default:
		answer("stop")
	}
}

func writeRequestFile(t *testing.T, dir string, ids []string) string {
	t.Helper()
	var b strings.Builder
	for _, id := range ids {
		fmt.Fprintf(&b, `{"custom_id":%q,"method":"POST","url":"/v1/chat/completions","body":{"model":"m","messages":[{"role":"user","content":%q}]}}`+"\n", id, id)
	}
	path := filepath.Join(dir, "requests.jsonl")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func readOutputs(t *testing.T, path string) map[string][]batch.Answer {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(data) > 0 && data[len(data)-1] != '\n' {
		t.Fatalf("%s does not end with a whole line", path)
	}
	out := map[string][]batch.Answer{}
	sc := bufio.NewScanner(strings.NewReader(string(data)))
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		var raw map[string]json.RawMessage
		if err := json.Unmarshal(sc.Bytes(), &raw); err != nil {
			t.Fatalf("output line is not JSON: %q", sc.Text())
		}
		for _, k := range []string{"id", "custom_id", "response", "error"} {
			if _, ok := raw[k]; !ok {
				t.Fatalf("output line lacks %q: %s", k, sc.Text())
			}
		}
		a, err := batch.ParseOutput(sc.Bytes())
		if err != nil {
			t.Fatalf("%v: %s", err, sc.Text())
		}
		out[a.CustomID] = append(out[a.CustomID], a)
	}
	return out
}

func TestRunRetriesTimeoutsAndFailures(t *testing.T) {
	srv := newFakeServer(t)
	dir := t.TempDir()
	ids := []string{"ok-1", "ok-2", "slow-1", "limited-1", "flaky-1", "trunc-1", "bad-1", "down-1"}
	reqs := writeRequestFile(t, dir, ids)
	out := filepath.Join(dir, "out.jsonl")
	var last progress.Report
	prog, err := Run(context.Background(), RunOptions{
		Requests: reqs, Endpoint: srv.URL + "/v1", Out: out, APIKey: testKey,
		Concurrency: 3, Timeout: 300 * time.Millisecond, Retries: 2, BackoffUnit: 5 * time.Millisecond,
		Progress: func(p progress.Report) { last = p },
	})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]int{"ok-1": 1, "ok-2": 1, "slow-1": 2, "limited-1": 2, "flaky-1": 3, "trunc-1": 1, "bad-1": 1, "down-1": 3}
	for id, n := range want {
		if srv.attempts[id] != n {
			t.Errorf("%s asked %d times, want %d", id, srv.attempts[id], n)
		}
	}
	// The last report: every request settled, the counts in its line.
	lastOK := last.Done == 8 && last.Total == 8 && strings.HasPrefix(last.Detail, "6/8 done · ") &&
		strings.HasSuffix(last.Detail, " · tokens 600 in, 42 out · 2 failed, 6 retries")
	if prog.Done != 6 || prog.Failed != 2 || prog.Retries != 6 || !lastOK {
		t.Errorf("progress %+v (last reported %+v), want 6 done, 2 failed, 6 retries", prog, last)
	}
	if prog.PromptTokens != 600 || prog.CompletionTokens != 42 {
		t.Errorf("tokens %d/%d, want 600/42", prog.PromptTokens, prog.CompletionTokens)
	}
	got := readOutputs(t, out)
	for _, id := range ids {
		if len(got[id]) != 1 {
			t.Fatalf("%s has %d output lines, want 1", id, len(got[id]))
		}
		a := got[id][0]
		switch id {
		case "bad-1":
			if a.OK || !strings.HasPrefix(a.Reason, "HTTP status 400") {
				t.Errorf("%s: %+v", id, a)
			}
		case "down-1":
			if a.OK || !strings.HasPrefix(a.Reason, "HTTP status 503") {
				t.Errorf("%s: %+v", id, a)
			}
		default:
			if !a.OK || a.Text != "Here it is: answer-"+id || *a.Usage != (batch.Usage{PromptTokens: 100, CompletionTokens: 7}) {
				t.Errorf("%s: %+v", id, a)
			}
			if a.Truncated() != (id == "trunc-1") {
				t.Errorf("%s: finish reason %q", id, a.FinishReason)
			}
		}
	}
	// Retry-After: 1 was honoured: the retry came a second or more later.
	data, _ := os.ReadFile(out)
	if strings.Contains(string(data), testKey) {
		t.Error("the API key is in the output file")
	}
	if !strings.Contains(string(data), "[api key]") {
		t.Error("the echoed key was not replaced")
	}
	if !strings.Contains(string(data), `"request_id":"req-ok-1"`) {
		t.Error("the server's request id is not kept")
	}

	// A rerun resumes: only the failed requests are asked again.
	before := map[string]int{}
	for k, v := range srv.attempts {
		before[k] = v
	}
	prog, err = Run(context.Background(), RunOptions{Requests: reqs, Endpoint: srv.URL + "/v1", Out: out, APIKey: testKey,
		Timeout: 300 * time.Millisecond, Retries: -1})
	if err != nil {
		t.Fatal(err)
	}
	if prog.Skipped != 6 || prog.Failed != 2 || prog.Done != 0 {
		t.Errorf("rerun: %+v, want 6 skipped and 2 failed again", prog)
	}
	for id, n := range srv.attempts {
		if extra := n - before[id]; extra != map[bool]int{true: 1, false: 0}[id == "bad-1" || id == "down-1"] {
			t.Errorf("rerun asked %s %d more times", id, extra)
		}
	}
}

func TestRetryAfterIsHonoured(t *testing.T) {
	srv := newFakeServer(t)
	dir := t.TempDir()
	reqs := writeRequestFile(t, dir, []string{"limited-1"})
	if _, err := Run(context.Background(), RunOptions{Requests: reqs, Endpoint: srv.URL + "/v1",
		Out: filepath.Join(dir, "out.jsonl"), APIKey: testKey, BackoffUnit: time.Millisecond}); err != nil {
		t.Fatal(err)
	}
	if len(srv.arrivals) != 2 {
		t.Fatalf("%d attempts, want 2", len(srv.arrivals))
	}
	// A lower bound only: the client waited for the server's Retry-After: 1,
	// not its own millisecond back-off.
	if gap := srv.arrivals[1].Sub(srv.arrivals[0]); gap < 950*time.Millisecond {
		t.Errorf("retried after %v, before the Retry-After of 1 s", gap)
	}
}

func TestRunCeilings(t *testing.T) {
	srv := newFakeServer(t)
	srv.hold = 3
	dir := t.TempDir()
	var ids []string
	for i := range 12 {
		ids = append(ids, fmt.Sprintf("ok-%02d", i))
	}
	reqs := writeRequestFile(t, dir, ids)
	if _, err := Run(context.Background(), RunOptions{Requests: reqs, Endpoint: srv.URL + "/v1",
		Out: filepath.Join(dir, "out.jsonl"), APIKey: testKey, Concurrency: 3}); err != nil {
		t.Fatal(err)
	}
	if srv.maxIn != 3 {
		t.Errorf("at most %d requests were in flight at the server, want exactly the ceiling 3", srv.maxIn)
	}

	// The rate ceiling: 600 a minute is one start every 100 ms. Starts are
	// spaced by the client, so at the server any k+1 consecutive arrivals
	// span at least (k-1) × 100 ms, however slow the machine (a lower bound).
	srv2 := newFakeServer(t)
	reqs = writeRequestFile(t, dir, ids[:8])
	if _, err := Run(context.Background(), RunOptions{Requests: reqs, Endpoint: srv2.URL + "/v1",
		Out: filepath.Join(dir, "out2.jsonl"), APIKey: testKey, Concurrency: 8, RPM: 600}); err != nil {
		t.Fatal(err)
	}
	arr := slices.Clone(srv2.arrivals)
	slices.SortFunc(arr, func(a, b time.Time) int { return a.Compare(b) })
	if len(arr) != 8 {
		t.Fatalf("%d arrivals", len(arr))
	}
	for i := range arr {
		for j := i + 2; j < len(arr); j++ {
			if span := arr[j].Sub(arr[i]); span < time.Duration(j-i-1)*100*time.Millisecond {
				t.Errorf("arrivals %d..%d within %v: faster than 600 a minute", i, j, span)
			}
		}
	}
	if span := arr[7].Sub(arr[0]); span < 600*time.Millisecond {
		t.Errorf("8 requests at 600/min took %v at the server, want ≥ 700 ms less one spacing", span)
	}
}

// TestRunChild is the child process of TestRunResumeAfterKill.
func TestRunChild(t *testing.T) {
	spec := os.Getenv("JIGBENCH_RUN_CHILD")
	if spec == "" {
		t.Skip("only runs as the child of TestRunResumeAfterKill")
	}
	parts := strings.Split(spec, "\n")
	Run(context.Background(), RunOptions{Requests: parts[0], Endpoint: parts[1], Out: parts[2],
		APIKey: os.Getenv("JIGBENCH_TEST_KEY"), Concurrency: 4})
}

func TestRunResumeAfterKill(t *testing.T) {
	srv := newFakeServer(t)
	srv.delay = 15 * time.Millisecond
	dir := t.TempDir()
	var ids []string
	for i := range 60 {
		ids = append(ids, fmt.Sprintf("ok-%02d", i))
	}
	reqs := writeRequestFile(t, dir, ids)
	out := filepath.Join(dir, "out.jsonl")
	cmd := exec.Command(os.Args[0], "-test.run=^TestRunChild$", "-test.count=1")
	cmd.Env = append(os.Environ(), "JIGBENCH_RUN_CHILD="+reqs+"\n"+srv.URL+"/v1\n"+out, "JIGBENCH_TEST_KEY="+testKey)
	var childOut strings.Builder
	cmd.Stdout, cmd.Stderr = &childOut, &childOut
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	// Kill once some answers are in, at a moment the child does not choose.
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(2 * time.Millisecond) {
		data, _ := os.ReadFile(out)
		if strings.Count(string(data), "\n") >= 12 {
			break
		}
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			t.Fatalf("the child wrote no answers: %s", childOut.String())
		}
	}
	if err := cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	cmd.Wait()
	killed := readOutputs(t, out)
	if len(killed) >= len(ids) {
		t.Skip("the child finished before the kill; nothing to resume")
	}
	srv.mu.Lock()
	atKill := map[string]int{}
	for k, v := range srv.attempts {
		atKill[k] = v
	}
	srv.mu.Unlock()

	prog, err := Run(context.Background(), RunOptions{Requests: reqs, Endpoint: srv.URL + "/v1", Out: out, APIKey: testKey, Concurrency: 4})
	if err != nil {
		t.Fatal(err)
	}
	if prog.Skipped != len(killed) || prog.Done != len(ids)-len(killed) {
		t.Errorf("resume: %+v, with %d answered before the kill", prog, len(killed))
	}
	final := readOutputs(t, out)
	twice := 0
	for _, id := range ids {
		if len(final[id]) != 1 || !final[id][0].OK {
			t.Errorf("%s: %d output lines after resume, want one answer", id, len(final[id]))
		}
		if _, answered := killed[id]; answered && srv.attempts[id] != 1 {
			t.Errorf("%s was answered before the kill but asked %d times", id, srv.attempts[id])
		}
		if srv.attempts[id] > 1 {
			twice++
			if atKill[id] != 1 {
				t.Errorf("%s asked twice though it was not in flight at the kill", id)
			}
		}
	}
	if twice > 4 {
		t.Errorf("%d requests asked twice; at most the 4 in flight may be", twice)
	}
}

func TestRunResultLine(t *testing.T) {
	for _, c := range []struct {
		p    RunResult
		want string
	}{
		{RunResult{Total: 10}, "0/10 done · tokens 0 in, 0 out"},
		{RunResult{Total: 400, Skipped: 20, Done: 100, PromptTokens: 96_400, CompletionTokens: 9_999, Elapsed: 50 * time.Second},
			"120/400 done (20 before) · 2.00/s · ETA 2m20s · tokens 96k in, 9999 out"},
		{RunResult{Total: 8, Done: 6, Failed: 2, Retries: 6, PromptTokens: 2_500_000, Elapsed: 4 * time.Second},
			"6/8 done · 2.00/s · tokens 2.5M in, 0 out · 2 failed, 6 retries"},
	} {
		if got := c.p.String(); got != c.want {
			t.Errorf("%+v: %q, want %q", c.p, got, c.want)
		}
	}
}
