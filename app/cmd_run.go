package app

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"strings"
	"time"

	"github.com/jigbench/jigbench/core/models"
	"github.com/jigbench/jigbench/core/progress"
)

func init() {
	register(&command{
		name:    "run",
		summary: "send a batch request file to an OpenAI-compatible server, resumably",
		usage: `usage: jigbench run --requests FILE --endpoint URL --out FILE.jsonl [--concurrency 4]
                    [--rpm R] [--api-key-env VAR] [--timeout 10m] [--retries 6]
    Sends each request's body to URL/chat/completions (URL such as
    http://localhost:8000/v1 or https://api.openai.com/v1) and appends one
    line per request to --out in the OpenAI batch output format, synced.
    Never more than --concurrency requests in flight nor --rpm starts a
    minute. 429, 5xx, 408, 409, connection errors and time-outs are retried
    up to --retries times after min(60 s, 2^attempt s) × (0.5 + jitter), or
    after the server's Retry-After; other failures are written as failed
    lines. Resumable: requests --out already answers with status 200 are
    skipped, so rerunning the same command after a crash or Ctrl-C goes on
    where it stopped, and retries failed ones.
    --api-key-env names the environment variable holding the key (sent as a
    Bearer token); the key itself is never written to a file or message.
    A progress line (done, rate, ETA, tokens, failures) is shown when stderr
    is a terminal. Exits 1 when some requests failed.
`,
		run: runRun,
	})
}

func runRun(e *env, args []string) error {
	fs := newFlags("run")
	reqs := fs.String("requests", "", "the batch request file")
	endpoint := fs.String("endpoint", "", "the server's base URL")
	out := fs.String("out", "", "the batch output file (appended to)")
	conc := fs.Int("concurrency", 4, "requests in flight at most")
	rpm := fs.Float64("rpm", 0, "request starts a minute at most (0: no limit)")
	keyEnv := fs.String("api-key-env", "", "environment variable holding the API key")
	timeout := fs.Duration("timeout", 10*time.Minute, "time-out of one attempt")
	retries := fs.Int("retries", models.DefaultRetries, "retries of a failed request")
	if err := parseFlags(fs, args, false); err != nil {
		return err
	}
	switch {
	case *reqs == "" || *endpoint == "" || *out == "":
		return usagef("--requests FILE, --endpoint URL and --out FILE are required")
	case !strings.HasPrefix(*endpoint, "http://") && !strings.HasPrefix(*endpoint, "https://"):
		return usagef("--endpoint must be an http:// or https:// URL")
	case *conc < 1 || *conc > 1024:
		return usagef("--concurrency must be 1–1024")
	case *rpm < 0:
		return usagef("--rpm must not be negative")
	case *timeout <= 0:
		return usagef("--timeout must be positive")
	case *retries < 0:
		return usagef("--retries must not be negative")
	}
	key := ""
	if *keyEnv != "" {
		key = os.Getenv(*keyEnv)
		if key == "" {
			return fmt.Errorf("the environment variable %s named by --api-key-env is empty or unset", *keyEnv)
		}
	}
	n := *retries
	if n == 0 {
		n = -1 // models.Run reads 0 as its default
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	prog := &statusLine{e: e}
	p, err := models.Run(ctx, models.RunOptions{
		Requests: *reqs, Endpoint: *endpoint, Out: *out, APIKey: key,
		Concurrency: *conc, RPM: *rpm, Timeout: *timeout, Retries: n,
		Progress: func(r progress.Report) { prog.show(r, "run: "+r.Detail) },
	})
	prog.done()
	if p.Total > 0 {
		fmt.Fprintf(e.stderr, "run: %s\n", p)
	}
	if err != nil {
		return fmt.Errorf("%s", models.Redact(key, err.Error()))
	}
	if p.Failed > 0 {
		return fmt.Errorf("%d requests failed (their lines in %s say why); rerun the same command to retry them", p.Failed, *out)
	}
	return nil
}
