// Package batch holds the OpenAI batch formats jigbench shares with model
// servers (docs/models.md): the request file's lines, the output file's lines,
// and one tolerant reader of output lines written by jigbench, OpenAI's Batch
// API, vLLM's run-batch and other compatible tools.
package batch

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// ChatPath is the request URL of a chat-completions request in a batch file.
const ChatPath = "/v1/chat/completions"

// CustomID joins an instance ID and a condition into the custom_id that
// links a request to its output line.
func CustomID(instanceID, condition string) string { return instanceID + ":" + condition }

// SplitCustomID is the inverse of CustomID. An instance ID never contains ':',
// so the last ':' separates them.
func SplitCustomID(customID string) (instanceID, condition string, ok bool) {
	i := strings.LastIndexByte(customID, ':')
	if i <= 0 || i == len(customID)-1 {
		return "", "", false
	}
	return customID[:i], customID[i+1:], true
}

// Request is one line of a batch request file. Body is sent to the server as
// it is.
type Request struct {
	CustomID string          `json:"custom_id"`
	Method   string          `json:"method"`
	URL      string          `json:"url"`
	Body     json.RawMessage `json:"body"`
}

// ParseRequest reads one request line.
func ParseRequest(line []byte) (Request, error) {
	var r Request
	if err := json.Unmarshal(line, &r); err != nil {
		return Request{}, fmt.Errorf("not a JSON request line: %v", err)
	}
	if r.CustomID == "" {
		return Request{}, errors.New(`the request has no "custom_id"`)
	}
	if len(r.Body) == 0 || r.Body[0] != '{' {
		return Request{}, fmt.Errorf("request %s has no JSON object as its \"body\"", r.CustomID)
	}
	return r, nil
}

// Output is one line of a batch output file.
type Output struct {
	ID       string    `json:"id"`
	CustomID string    `json:"custom_id"`
	Response *Response `json:"response"`
	Error    *Error    `json:"error"`
}

// Response is the server's answer to one request.
type Response struct {
	StatusCode int             `json:"status_code"`
	RequestID  string          `json:"request_id"`
	Body       json.RawMessage `json:"body"`
}

// Error says why a request got no response.
type Error struct {
	Code    string `json:"code"`
	Message string `json:"message"`
}

// Marshal writes o as one line ending in '\n'. A response body is compacted
// so that it cannot break the line.
func (o Output) Marshal() ([]byte, error) {
	if o.Response != nil && len(o.Response.Body) > 0 {
		var b bytes.Buffer
		if err := json.Compact(&b, o.Response.Body); err != nil {
			return nil, fmt.Errorf("the response body of %s is not JSON: %v", o.CustomID, err)
		}
		r := *o.Response
		r.Body = b.Bytes()
		o.Response = &r
	}
	line, err := json.Marshal(o)
	if err != nil {
		return nil, err
	}
	return append(line, '\n'), nil
}

// Answer is what one output line says about one request.
type Answer struct {
	CustomID string
	// OK is true for a status-200 response with at least one choice.
	OK bool
	// Reason says why the line is not OK.
	Reason string
	// Text is the first choice's message content (text parts joined); a
	// model's reasoning fields are not part of it.
	Text         string
	FinishReason string
	// Usage is set when the response reports token counts.
	Usage *Usage
}

// Truncated reports whether the model stopped at its token limit.
func (a *Answer) Truncated() bool { return a.FinishReason == "length" }

// Usage is a response's token counts.
type Usage struct {
	PromptTokens     int64 `json:"prompt_tokens"`
	CompletionTokens int64 `json:"completion_tokens"`
}

// outputLine is the tolerant view of an output line: unknown fields are
// ignored, and the parts whose shape varies between tools stay raw.
type outputLine struct {
	CustomID *string         `json:"custom_id"`
	Response json.RawMessage `json:"response"`
	Error    json.RawMessage `json:"error"`
}

type responseView struct {
	StatusCode *int            `json:"status_code"`
	Body       json.RawMessage `json:"body"`
}

type bodyView struct {
	Choices []struct {
		Message *struct {
			Content json.RawMessage `json:"content"`
		} `json:"message"`
		FinishReason *string `json:"finish_reason"`
	} `json:"choices"`
	Usage *struct {
		PromptTokens     *int64 `json:"prompt_tokens"`
		CompletionTokens *int64 `json:"completion_tokens"`
	} `json:"usage"`
	Error json.RawMessage `json:"error"`
}

// ErrNotOutput marks a line that is not a batch output line at all (no
// custom_id); other errors name what is wrong with an output line.
var ErrNotOutput = errors.New(`not a batch output line (no "custom_id")`)

// ParseOutput reads one output line. A line that is an output line but not a
// usable answer (an error, a status other than 200, no choices) is returned
// with OK false and the reason, and a nil error; an error means the line
// cannot be read (then the CustomID is set when it could be found).
func ParseOutput(line []byte) (Answer, error) {
	var l outputLine
	if err := json.Unmarshal(line, &l); err != nil {
		return Answer{}, fmt.Errorf("not valid JSON: %v", err)
	}
	if l.CustomID == nil || *l.CustomID == "" {
		return Answer{}, ErrNotOutput
	}
	a := Answer{CustomID: *l.CustomID}
	if msg := errorText(l.Error); msg != "" {
		a.Reason = "error: " + msg
		return a, nil
	}
	if isNull(l.Response) {
		a.Reason = "the line has neither a response nor an error"
		return a, nil
	}
	var r responseView
	if err := json.Unmarshal(l.Response, &r); err != nil {
		a.Reason = fmt.Sprintf("the response is not an object: %v", err)
		return a, nil
	}
	var b bodyView
	bodyErr := error(nil)
	if !isNull(r.Body) {
		bodyErr = json.Unmarshal(r.Body, &b)
	}
	if b.Usage != nil && (b.Usage.PromptTokens != nil || b.Usage.CompletionTokens != nil) {
		a.Usage = &Usage{}
		if b.Usage.PromptTokens != nil {
			a.Usage.PromptTokens = *b.Usage.PromptTokens
		}
		if b.Usage.CompletionTokens != nil {
			a.Usage.CompletionTokens = *b.Usage.CompletionTokens
		}
	}
	switch {
	case r.StatusCode == nil:
		a.Reason = "the response has no status_code"
		return a, nil
	case *r.StatusCode != 200:
		a.Reason = "HTTP status " + strconv.Itoa(*r.StatusCode)
		if msg := errorText(b.Error); msg != "" {
			a.Reason += ": " + msg
		}
		return a, nil
	case bodyErr != nil:
		a.Reason = fmt.Sprintf("the response body is not a chat completion: %v", bodyErr)
		return a, nil
	case len(b.Choices) == 0:
		a.Reason = "the response has no choices"
		return a, nil
	}
	c := b.Choices[0]
	if c.FinishReason != nil {
		a.FinishReason = *c.FinishReason
	}
	if c.Message == nil {
		a.Reason = "the first choice has no message"
		return a, nil
	}
	text, err := contentText(c.Message.Content)
	if err != nil {
		a.Reason = err.Error()
		return a, nil
	}
	a.Text, a.OK = text, true
	return a, nil
}

// contentText reads a message content: a string, null, or a list of parts
// whose text parts are joined.
func contentText(raw json.RawMessage) (string, error) {
	if isNull(raw) {
		return "", nil
	}
	switch raw[0] {
	case '"':
		var s string
		if err := json.Unmarshal(raw, &s); err != nil {
			return "", fmt.Errorf("the message content is not a string: %v", err)
		}
		return s, nil
	case '[':
		var parts []struct {
			Type string  `json:"type"`
			Text *string `json:"text"`
		}
		if err := json.Unmarshal(raw, &parts); err != nil {
			return "", fmt.Errorf("the message content is not a list of parts: %v", err)
		}
		var b strings.Builder
		for _, p := range parts {
			if p.Text != nil && (p.Type == "text" || p.Type == "") {
				b.WriteString(*p.Text)
			}
		}
		return b.String(), nil
	}
	return "", errors.New("the message content is neither text nor a list of parts")
}

// errorText describes an "error" value: null or absent is "", a string is
// itself, an object gives its code and message.
func errorText(raw json.RawMessage) string {
	if isNull(raw) {
		return ""
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		if s == "" {
			return "(empty)"
		}
		return s
	}
	var e struct {
		Code    any    `json:"code"`
		Message string `json:"message"`
	}
	if json.Unmarshal(raw, &e) != nil {
		return string(raw)
	}
	code := ""
	if e.Code != nil {
		code = fmt.Sprint(e.Code)
	}
	switch {
	case code != "" && e.Message != "":
		return code + ": " + e.Message
	case e.Message != "":
		return e.Message
	case code != "":
		return code
	}
	return "(no message)"
}

func isNull(raw json.RawMessage) bool {
	t := bytes.TrimSpace(raw)
	return len(t) == 0 || string(t) == "null"
}

// LooksLikeOutput reports whether the start of a file is a batch output
// file: its first line is a JSON object with a "custom_id" key. head may end
// inside the first line.
func LooksLikeOutput(head []byte) bool {
	head = bytes.TrimPrefix(head, []byte("\xef\xbb\xbf"))
	if i := bytes.IndexByte(head, '\n'); i >= 0 {
		head = head[:i]
	}
	head = bytes.TrimSpace(head)
	return len(head) > 0 && head[0] == '{' && bytes.Contains(head, []byte(`"custom_id"`))
}
