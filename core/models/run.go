package models

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"net/http"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/jigbench/jigbench/core/batch"
	"github.com/jigbench/jigbench/core/fsutil"
	"github.com/jigbench/jigbench/core/progress"
)

// RunOptions say where to send a request file and how hard.
type RunOptions struct {
	Requests string // the batch request file
	Endpoint string // the server's base URL; requests go to <Endpoint>/chat/completions
	Out      string // the batch output file, appended to and resumed from
	// APIKey, if set, is sent as "Authorization: Bearer <key>". It is never
	// written to the output or to any message.
	APIKey      string
	Concurrency int           // requests in flight at most; default 4
	RPM         float64       // request starts a minute at most; 0 is no limit
	Timeout     time.Duration // per attempt; default 10 minutes
	Retries     int           // further attempts after a retryable failure; default DefaultRetries, <0 none
	// BackoffUnit is the back-off's time unit (the wait before retry a is
	// min(60, 2^a) units × (0.5 + jitter)); default one second. Tests shorten it.
	BackoffUnit time.Duration
	Client      *http.Client // default: a client sized for Concurrency
	// Progress, if set, is called after every finished request, one call
	// at a time, counting requests (those answered before the run began
	// and those given up on count as done); Detail is RunResult.String.
	Progress progress.Func
}

// DefaultRetries is how often a failed request is retried by default.
const DefaultRetries = 6

// RunResult is what a run has done: its progress while it runs, its
// result when it returns.
type RunResult struct {
	Total   int // requests in the file
	Skipped int // already answered in the output when the run began
	Done    int // answered (status 200) in this run
	Failed  int // given up on in this run (written as failed lines)
	Retries int
	// Token usage reported by this run's answers.
	PromptTokens, CompletionTokens int64
	Elapsed                        time.Duration
}

// Remaining is how many requests are left.
func (p RunResult) Remaining() int { return p.Total - p.Skipped - p.Done - p.Failed }

// String is a one-line summary: done, rate, ETA, tokens, failures, e.g.
// "120/400 done (20 before) · 2.10/s · ETA 2m13s · tokens 96k in, 12k out".
func (p RunResult) String() string {
	s := fmt.Sprintf("%d/%d done", p.Skipped+p.Done, p.Total)
	if p.Skipped > 0 {
		s += fmt.Sprintf(" (%d before)", p.Skipped)
	}
	if sec := p.Elapsed.Seconds(); p.Done+p.Failed > 0 && sec > 0 {
		rate := float64(p.Done+p.Failed) / sec
		s += fmt.Sprintf(" · %.2f/s", rate)
		if left := p.Remaining(); left > 0 {
			s += " · ETA " + (time.Duration(float64(left)/rate) * time.Second / time.Second * time.Second).String()
		}
	}
	s += fmt.Sprintf(" · tokens %s in, %s out", compact(p.PromptTokens), compact(p.CompletionTokens))
	if p.Failed > 0 || p.Retries > 0 {
		s += fmt.Sprintf(" · %d failed, %d retries", p.Failed, p.Retries)
	}
	return s
}

// compact writes a token count in at most four characters or so: 950,
// 9500, 95k, 9.5M.
func compact(n int64) string {
	switch {
	case n >= 1e6:
		return fmt.Sprintf("%.1fM", float64(n)/1e6)
	case n >= 1e4:
		return fmt.Sprintf("%.0fk", float64(n)/1e3)
	}
	return fmt.Sprint(n)
}

// requestRef is where a request line is in the request file.
type requestRef struct {
	customID string
	off      int64
	size     int
}

// Run sends every request of the file that the output does not already
// answer with status 200, and appends one output line per request. Each line
// is written with one write and synced, so after a kill the output holds
// every answer received and nothing torn; a rerun resumes. It returns an
// error only when the run as a whole cannot go on (files, cancellation); a
// request that keeps failing is written as a failed line and counted.
func Run(ctx context.Context, opt RunOptions) (RunResult, error) {
	if opt.Concurrency <= 0 {
		opt.Concurrency = 4
	}
	if opt.Timeout <= 0 {
		opt.Timeout = 10 * time.Minute
	}
	if opt.Retries == 0 {
		opt.Retries = DefaultRetries
	}
	opt.Retries = max(opt.Retries, 0)
	if opt.BackoffUnit <= 0 {
		opt.BackoffUnit = time.Second
	}
	if opt.Client == nil {
		tr := http.DefaultTransport.(*http.Transport).Clone()
		tr.MaxIdleConnsPerHost = opt.Concurrency
		opt.Client = &http.Client{Transport: tr}
	}
	url := strings.TrimRight(opt.Endpoint, "/") + "/chat/completions"
	red := redactor(opt.APIKey)

	refs, err := indexRequests(opt.Requests)
	if err != nil {
		return RunResult{}, err
	}
	done, err := answeredIn(opt.Out)
	if err != nil {
		return RunResult{}, err
	}
	out, err := os.OpenFile(opt.Out, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		return RunResult{}, fmt.Errorf("cannot open %s: %v", opt.Out, fsutil.WithoutPath(err))
	}
	defer out.Close()
	reqFile, err := fsutil.Open(opt.Requests)
	if err != nil {
		return RunResult{}, err
	}
	defer reqFile.Close()

	start := time.Now()
	prog := RunResult{Total: len(refs)}
	var todo []requestRef
	for _, r := range refs {
		if done[r.customID] {
			prog.Skipped++
		} else {
			todo = append(todo, r)
		}
	}
	var mu sync.Mutex // guards prog
	report := func(f func(*RunResult)) {
		mu.Lock()
		defer mu.Unlock()
		f(&prog)
		prog.Elapsed = time.Since(start)
		opt.Progress.Call(progress.Report{Done: int64(prog.Skipped + prog.Done + prog.Failed), Total: int64(prog.Total), Detail: prog.String()})
	}
	report(func(*RunResult) {})

	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	w := newLineWriter(out)
	defer w.close()
	var fatal error
	var fatalOnce sync.Once
	fail := func(err error) {
		fatalOnce.Do(func() { fatal = err; cancel() })
	}
	lim := &limiter{}
	if opt.RPM > 0 {
		lim.every = time.Duration(float64(time.Minute) / opt.RPM)
	}
	jobs := make(chan requestRef)
	var wg sync.WaitGroup
	for range min(opt.Concurrency, max(len(todo), 1)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			buf := make([]byte, 0, 64<<10)
			for ref := range jobs {
				if cap(buf) < ref.size {
					buf = make([]byte, ref.size)
				}
				buf = buf[:ref.size]
				if _, err := reqFile.ReadAt(buf, ref.off); err != nil {
					fail(fmt.Errorf("read %s: %v", opt.Requests, fsutil.WithoutPath(err)))
					return
				}
				req, err := batch.ParseRequest(buf)
				if err != nil {
					fail(fmt.Errorf("%s: %v", opt.Requests, err))
					return
				}
				res := send(ctx, &opt, url, lim, req)
				if ctx.Err() != nil {
					return // cancelled: this request stays unanswered
				}
				line, err := res.output.Marshal()
				if err != nil {
					res.output = batch.Output{ID: res.output.ID, CustomID: req.CustomID,
						Error: &batch.Error{Code: "invalid_response", Message: err.Error()}}
					res.ok = false
					line, _ = res.output.Marshal()
				}
				line = []byte(red(string(line)))
				if err := w.write(line); err != nil {
					fail(fmt.Errorf("cannot append to %s: %v", opt.Out, fsutil.WithoutPath(err)))
					return
				}
				report(func(p *RunResult) {
					p.Retries += res.retries
					if res.ok {
						p.Done++
						if res.usage != nil {
							p.PromptTokens += res.usage.PromptTokens
							p.CompletionTokens += res.usage.CompletionTokens
						}
					} else {
						p.Failed++
					}
				})
			}
		}()
	}
feed:
	for _, r := range todo {
		select {
		case jobs <- r:
		case <-ctx.Done():
			break feed
		}
	}
	close(jobs)
	wg.Wait()
	if err := w.close(); err != nil && fatal == nil {
		fatal = fmt.Errorf("cannot write %s: %v", opt.Out, fsutil.WithoutPath(err))
	}
	mu.Lock()
	defer mu.Unlock()
	prog.Elapsed = time.Since(start)
	if fatal != nil {
		return prog, fatal
	}
	return prog, ctx.Err()
}

// result is the outcome of one request after its retries.
type result struct {
	output  batch.Output
	ok      bool
	retries int
	usage   *batch.Usage
}

// send makes the attempts of one request.
func send(ctx context.Context, opt *RunOptions, url string, lim *limiter, req batch.Request) result {
	id := "jigbench_req_" + shortHash(req.CustomID)
	rng := rand.New(rand.NewPCG(seedOf(req.CustomID), 0))
	var res result
	for attempt := 0; ; attempt++ {
		if err := lim.wait(ctx); err != nil {
			return res
		}
		out, retryable, after := attemptOnce(ctx, opt, url, req.Body)
		out.ID, out.CustomID = id, req.CustomID
		res.output = out
		if out.Response != nil && out.Response.StatusCode == http.StatusOK && out.Error == nil {
			res.ok = true
			var b struct {
				Usage *batch.Usage `json:"usage"`
			}
			if json.Unmarshal(out.Response.Body, &b) == nil {
				res.usage = b.Usage
			}
			return res
		}
		if !retryable || attempt >= opt.Retries || ctx.Err() != nil {
			return res
		}
		wait := after
		if wait < 0 {
			wait = time.Duration(float64(min(60, math.Exp2(float64(attempt)))*float64(opt.BackoffUnit)) * (0.5 + rng.Float64()))
		}
		res.retries++
		t := time.NewTimer(wait)
		select {
		case <-t.C:
		case <-ctx.Done():
			t.Stop()
			return res
		}
	}
}

// attemptOnce sends one request. after is the server's Retry-After (-1 when
// absent).
func attemptOnce(ctx context.Context, opt *RunOptions, url string, body []byte) (out batch.Output, retryable bool, after time.Duration) {
	after = -1
	ctx, cancel := context.WithTimeout(ctx, opt.Timeout)
	defer cancel()
	hr, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		return batch.Output{Error: &batch.Error{Code: "bad_request", Message: err.Error()}}, false, after
	}
	hr.Header.Set("Content-Type", "application/json")
	if opt.APIKey != "" {
		hr.Header.Set("Authorization", "Bearer "+opt.APIKey)
	}
	resp, err := opt.Client.Do(hr)
	var data []byte
	if err == nil {
		data, err = io.ReadAll(io.LimitReader(resp.Body, 64<<20))
		resp.Body.Close()
	}
	if err != nil {
		code := "connection_error"
		if errors.Is(ctx.Err(), context.DeadlineExceeded) {
			code = "timeout"
			err = fmt.Errorf("no complete answer within %s", opt.Timeout)
		}
		return batch.Output{Error: &batch.Error{Code: code, Message: err.Error()}}, true, after
	}
	r := &batch.Response{StatusCode: resp.StatusCode, RequestID: resp.Header.Get("X-Request-Id")}
	if json.Valid(data) {
		r.Body = data
	} else {
		msg, _ := json.Marshal(map[string]any{"error": map[string]string{"message": clip(string(data), 2000)}})
		r.Body = msg
	}
	out = batch.Output{Response: r}
	switch s := resp.StatusCode; {
	case s == http.StatusOK && !json.Valid(data):
		out.Error = &batch.Error{Code: "invalid_json", Message: "the server answered 200 with a body that is not JSON"}
		return out, true, after
	case s == http.StatusOK:
		return out, false, after
	case s == http.StatusTooManyRequests || s == http.StatusRequestTimeout || s == http.StatusConflict || s >= 500:
		return out, true, retryAfter(resp.Header.Get("Retry-After"))
	}
	return out, false, after
}

// retryAfter reads a Retry-After header: seconds or an HTTP date; -1 when
// absent or unreadable.
func retryAfter(h string) time.Duration {
	h = strings.TrimSpace(h)
	if h == "" {
		return -1
	}
	if s, err := strconv.ParseFloat(h, 64); err == nil && s >= 0 && s < 86400 {
		return time.Duration(s * float64(time.Second))
	}
	if t, err := http.ParseTime(h); err == nil {
		return max(time.Until(t), 0)
	}
	return -1
}

// limiter spaces request starts at least every apart (none when every is 0).
type limiter struct {
	every time.Duration
	mu    sync.Mutex
	next  time.Time
}

func (l *limiter) wait(ctx context.Context) error {
	if l.every <= 0 {
		return ctx.Err()
	}
	l.mu.Lock()
	now := time.Now()
	at := l.next
	if at.Before(now) {
		at = now
	}
	l.next = at.Add(l.every)
	l.mu.Unlock()
	d := time.Until(at)
	if d <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// lineWriter appends whole lines from many goroutines: each line is one
// write; lines that queue up while a sync runs share the next sync, and write
// returns once its line is synced.
type lineWriter struct {
	f       *os.File
	mu      sync.Mutex
	cond    *sync.Cond
	queue   [][]byte
	waiters []chan error
	closed  bool
	err     error
	done    chan struct{}
}

func newLineWriter(f *os.File) *lineWriter {
	w := &lineWriter{f: f, done: make(chan struct{})}
	w.cond = sync.NewCond(&w.mu)
	go w.loop()
	return w
}

func (w *lineWriter) write(line []byte) error {
	ch := make(chan error, 1)
	w.mu.Lock()
	if w.closed || w.err != nil {
		err := w.err
		w.mu.Unlock()
		if err == nil {
			err = errors.New("the output is closed")
		}
		return err
	}
	w.queue = append(w.queue, line)
	w.waiters = append(w.waiters, ch)
	w.cond.Signal()
	w.mu.Unlock()
	return <-ch
}

func (w *lineWriter) loop() {
	defer close(w.done)
	for {
		w.mu.Lock()
		for len(w.queue) == 0 && !w.closed {
			w.cond.Wait()
		}
		if len(w.queue) == 0 {
			w.mu.Unlock()
			return
		}
		lines, waiters := w.queue, w.waiters
		w.queue, w.waiters = nil, nil
		w.mu.Unlock()
		var err error
		for _, l := range lines {
			if _, err = w.f.Write(l); err != nil {
				break
			}
		}
		if err == nil {
			err = w.f.Sync()
		}
		if err != nil {
			w.mu.Lock()
			w.err = err
			w.mu.Unlock()
		}
		for _, ch := range waiters {
			ch <- err
		}
	}
}

func (w *lineWriter) close() error {
	w.mu.Lock()
	w.closed = true
	w.cond.Signal()
	w.mu.Unlock()
	<-w.done
	return w.err
}

// indexRequests finds each request line's custom_id and place, refusing a
// file with a custom_id twice.
func indexRequests(path string) ([]requestRef, error) {
	f, err := fsutil.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	br := bufio.NewReaderSize(f, 1<<20)
	var refs []requestRef
	seen := map[string]int{}
	var off int64
	for lineNo := 1; ; {
		line, err := nextLine(br)
		if t := bytes.TrimSpace(line); len(t) > 0 {
			req, perr := batch.ParseRequest(t)
			if perr != nil {
				return nil, fmt.Errorf("%s line %d: %v", path, lineNo, perr)
			}
			id := req.CustomID
			if first, dup := seen[id]; dup {
				return nil, fmt.Errorf("%s line %d: custom_id %q is on line %d already", path, lineNo, id, first)
			}
			seen[id] = lineNo
			refs = append(refs, requestRef{customID: id, off: off, size: len(line)})
		}
		off += int64(len(line))
		lineNo++
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("read %s: %v", path, err)
		}
	}
	if len(refs) == 0 {
		return nil, fmt.Errorf("%s holds no requests", path)
	}
	return refs, nil
}

// nextLine returns the next line with its '\n' (none at the end of the
// file), however long.
func nextLine(br *bufio.Reader) ([]byte, error) {
	var long []byte
	for {
		chunk, err := br.ReadSlice('\n')
		if errors.Is(err, bufio.ErrBufferFull) {
			long = append(long, chunk...)
			continue
		}
		if long != nil {
			return append(long, chunk...), err
		}
		return chunk, err
	}
}

// answeredIn lists the custom_ids an existing output answers with status
// 200. A torn last line (a crash during its write) is cut off so the next
// line starts clean.
func answeredIn(path string) (map[string]bool, error) {
	done := map[string]bool{}
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if errors.Is(err, os.ErrNotExist) {
		return done, nil
	}
	if err != nil {
		return nil, fmt.Errorf("cannot open %s: %v", path, fsutil.WithoutPath(err))
	}
	defer f.Close()
	br := bufio.NewReaderSize(f, 1<<20)
	var off, good int64
	for {
		line, err := nextLine(br)
		off += int64(len(line))
		if err == nil {
			good = off
			if t := bytes.TrimSpace(line); len(t) > 0 {
				a, perr := batch.ParseOutput(t)
				if perr != nil && !errors.Is(perr, batch.ErrNotOutput) {
					return nil, fmt.Errorf("%s is not a batch output file (a line: %v); give another --out", path, perr)
				}
				if perr != nil {
					return nil, fmt.Errorf("%s is not a batch output file (a line without custom_id); give another --out", path)
				}
				if a.OK {
					done[a.CustomID] = true
				}
			}
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("read %s: %v", path, err)
		}
	}
	if good < off {
		if err := f.Truncate(good); err != nil {
			return nil, fmt.Errorf("cannot cut the torn last line of %s: %v", path, fsutil.WithoutPath(err))
		}
	}
	return done, nil
}

// redactor replaces the key wherever it appears (an error may echo a URL or
// header), so that it reaches no file or message.
func redactor(key string) func(string) string {
	if key == "" {
		return func(s string) string { return s }
	}
	return func(s string) string { return strings.ReplaceAll(s, key, "[api key]") }
}

// Redact is the redactor for messages outside the run (the CLI's).
func Redact(key, s string) string { return redactor(key)(s) }

func shortHash(s string) string {
	h := sha256.Sum256([]byte(s))
	return hex.EncodeToString(h[:8])
}

func seedOf(s string) uint64 {
	h := sha256.Sum256([]byte(s))
	return binary.LittleEndian.Uint64(h[:8])
}

func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}
