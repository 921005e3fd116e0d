package batch

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestParseOutput(t *testing.T) {
	cases := []struct {
		name, line string
		want       Answer
	}{
		{"jigbench", `{"id":"x","custom_id":"a-g4-s1:shape","response":{"status_code":200,"request_id":"","body":{"choices":[{"message":{"role":"assistant","content":"{\"0\":[0,0]}"},"finish_reason":"stop"}],"usage":{"prompt_tokens":10,"completion_tokens":3}}},"error":null}`,
			Answer{CustomID: "a-g4-s1:shape", OK: true, Text: `{"0":[0,0]}`, FinishReason: "stop", Usage: &Usage{10, 3}}},
		{"vllm parts and reasoning", `{"id":"vllm-1","custom_id":"b:rect","response":{"status_code":200,"request_id":"vllm-batch-1","body":{"id":"cmpl","object":"chat.completion","created":1,"model":"m","choices":[{"index":0,"message":{"role":"assistant","reasoning_content":"think {\"0\":[9,9]}","content":[{"type":"text","text":"ans "},{"type":"text","text":"wer"}],"tool_calls":[]},"logprobs":null,"finish_reason":"length","stop_reason":null}],"usage":{"prompt_tokens":7,"total_tokens":9,"completion_tokens":2,"prompt_tokens_details":null},"prompt_logprobs":null}},"error":null}`,
			Answer{CustomID: "b:rect", OK: true, Text: "ans wer", FinishReason: "length", Usage: &Usage{7, 2}}},
		{"error object", `{"id":"x","custom_id":"c:shape","response":null,"error":{"code":"timeout","message":"no answer in 60s"}}`,
			Answer{CustomID: "c:shape", Reason: "error: timeout: no answer in 60s"}},
		{"status 500", `{"custom_id":"c:shape","response":{"status_code":500,"body":{"error":{"message":"overloaded","type":"server_error"}}}}`,
			Answer{CustomID: "c:shape", Reason: "HTTP status 500: overloaded"}},
		{"no choices", `{"custom_id":"c:shape","response":{"status_code":200,"body":{"choices":[]}}}`,
			Answer{CustomID: "c:shape", Reason: "the response has no choices"}},
		{"null content", `{"custom_id":"c:shape","response":{"status_code":200,"body":{"choices":[{"message":{"content":null},"finish_reason":"stop"}]}}}`,
			Answer{CustomID: "c:shape", OK: true, FinishReason: "stop"}},
	}
	for _, c := range cases {
		got, err := ParseOutput([]byte(c.line))
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		gj, _ := json.Marshal(got)
		wj, _ := json.Marshal(c.want)
		if string(gj) != string(wj) {
			t.Errorf("%s:\n got %s\nwant %s", c.name, gj, wj)
		}
	}
	if _, err := ParseOutput([]byte(`{"id":"a","prediction":{}}`)); err != ErrNotOutput {
		t.Errorf("a plain answer line: err %v, want ErrNotOutput", err)
	}
	if _, err := ParseOutput([]byte(`{"custom_id":`)); err == nil {
		t.Error("a torn line parsed")
	}
}

func TestOutputRoundTrip(t *testing.T) {
	body := "{\n \"choices\": [{\"message\": {\"content\": \"line1\\nline2\"}, \"finish_reason\": \"stop\"}]}"
	line, err := Output{ID: "i", CustomID: "x:shape", Response: &Response{StatusCode: 200, Body: json.RawMessage(body)}}.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	if strings.Count(string(line), "\n") != 1 || !strings.HasSuffix(string(line), "\n") {
		t.Fatalf("not one line: %q", line)
	}
	a, err := ParseOutput(line)
	if err != nil || !a.OK || a.Text != "line1\nline2" {
		t.Fatalf("round trip: %+v %v", a, err)
	}
}

func TestCustomID(t *testing.T) {
	id, cond, ok := SplitCustomID(CustomID("img-g4-s7", "rect"))
	if !ok || id != "img-g4-s7" || cond != "rect" {
		t.Fatalf("got %q %q %v", id, cond, ok)
	}
	for _, bad := range []string{"", ":shape", "abc:", "abc"} {
		if _, _, ok := SplitCustomID(bad); ok {
			t.Errorf("%q split", bad)
		}
	}
}

func TestLooksLikeOutput(t *testing.T) {
	if !LooksLikeOutput([]byte(`{"id":"1","custom_id":"a:shape"`)) {
		t.Error("output head not recognised")
	}
	if LooksLikeOutput([]byte("{\"id\":\"a\",\"response\":\"x\"}\n{\"custom_id\":1}")) {
		t.Error("an answers file taken for an output file")
	}
}

// FuzzParseOutput: any line is either refused or read without panicking, and
// an answer read back from its own re-encoding is the same.
func FuzzParseOutput(f *testing.F) {
	f.Add([]byte(`{"id":"x","custom_id":"a:shape","response":{"status_code":200,"body":{"choices":[{"message":{"content":"hi"},"finish_reason":"stop"}],"usage":{"prompt_tokens":1,"completion_tokens":2}}},"error":null}`))
	f.Add([]byte(`{"custom_id":"a:rect","response":{"status_code":200,"body":{"choices":[{"message":{"content":[{"type":"text","text":"a"},{"type":"image_url"}]}}]}}}`))
	f.Add([]byte(`{"custom_id":"a:rect","error":"boom"}`))
	f.Add([]byte(`{"custom_id":"a:rect","response":{"status_code":429,"body":"x"}}`))
	f.Fuzz(func(t *testing.T, line []byte) {
		a, err := ParseOutput(line)
		if err != nil {
			return
		}
		if a.CustomID == "" {
			t.Fatal("read an answer without custom_id")
		}
		if a.OK != (a.Reason == "") {
			t.Fatalf("OK %v with reason %q", a.OK, a.Reason)
		}
		if !a.OK {
			return
		}
		content, _ := json.Marshal(a.Text)
		body := `{"choices":[{"message":{"content":` + string(content) + `},"finish_reason":` + quote(a.FinishReason) + `}]}`
		out, err := Output{CustomID: a.CustomID, Response: &Response{StatusCode: 200, Body: json.RawMessage(body)}}.Marshal()
		if err != nil {
			t.Fatal(err)
		}
		b, err := ParseOutput(out)
		if err != nil || !b.OK || b.Text != a.Text || b.CustomID != a.CustomID || b.FinishReason != a.FinishReason {
			t.Fatalf("re-read %+v (%v), want %+v", b, err, a)
		}
	})
}

func quote(s string) string { b, _ := json.Marshal(s); return string(b) }
