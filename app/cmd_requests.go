package app

import (
	"context"
	"fmt"

	"github.com/jigbench/jigbench/core/fsutil"
	"github.com/jigbench/jigbench/core/models"
	"github.com/jigbench/jigbench/core/progress"
)

func init() {
	register(&command{
		name:    "requests",
		summary: "write an OpenAI batch request file: one chat request per instance × condition",
		usage: `usage: jigbench requests --truth DIR [--condition shape|rect|both] [--split train|eval|all]
                         [--model NAME] [--max-tokens 4096] [--temperature 0]
                         [--images inline|url --image-base URL] --out FILE.jsonl
    One chat-completions request per instance × condition, in instance-id
    order then shape before rect: the condition's prompt file as the user
    text and its sheet as an image part (a PNG data URI, or with --images url
    the URL <image-base>/<id>/<condition>.png). custom_id is
    <instance id>:<condition>. The same inputs give the same bytes. The file
    is read by 'jigbench run', OpenAI's Batch API, vllm run-batch and others.
    --split needs a dataset folder (manifest.jsonl); default all.
`,
		run: runRequests,
	})
}

func runRequests(e *env, args []string) error {
	fs := newFlags("requests")
	truth := fs.String("truth", "", "dataset folder or folder of instance folders")
	cond := fs.String("condition", "both", "shape, rect or both")
	split := fs.String("split", models.SplitAll, "train, eval or all")
	model := fs.String("model", "model", "the model name the server knows")
	maxTokens := fs.Int("max-tokens", models.DefaultMaxTokens, "completion token budget")
	temp := fs.Float64("temperature", 0, "sampling temperature")
	images := fs.String("images", "inline", "inline or url")
	base := fs.String("image-base", "", "base URL of the sheets for --images url")
	out := fs.String("out", "", "the request file to write")
	if err := parseFlags(fs, args, false); err != nil {
		return err
	}
	conds, err := models.Conditions(*cond)
	switch {
	case *truth == "":
		return usagef("--truth DIR is required")
	case *out == "":
		return usagef("--out FILE.jsonl is required")
	case err != nil:
		return usagef("--condition: %v", err)
	case *images != "inline" && *images != "url":
		return usagef("--images must be inline or url")
	case *images == "url" && *base == "":
		return usagef("--images url needs --image-base URL")
	case *images == "inline" && *base != "":
		return usagef("--image-base needs --images url")
	case *maxTokens < 1:
		return usagef("--max-tokens must be at least 1")
	}
	items, err := models.ListInstances(*truth, *split)
	if err != nil {
		return err
	}
	opt := models.RequestOptions{Conditions: conds, Model: *model, MaxTokens: *maxTokens, Temperature: *temp, ImageBase: *base}
	prog := &statusLine{e: e}
	report := func(r progress.Report) { prog.show(r, fmt.Sprintf("requests: %d/%d", r.Done, r.Total)) }
	var n int
	if *out == "-" {
		n, err = models.WriteRequests(context.Background(), e.stdout, items, opt, report)
	} else {
		var f *fsutil.File
		if f, err = fsutil.Create(*out); err != nil {
			return err
		}
		defer f.Close()
		if n, err = models.WriteRequests(context.Background(), f, items, opt, report); err == nil {
			err = f.Commit()
		}
	}
	prog.done()
	if err != nil {
		return err
	}
	fmt.Fprintf(e.stderr, "%d requests (%d instances × %d conditions) in %s\n", n, len(items), len(conds), *out)
	return nil
}
