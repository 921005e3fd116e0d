package app

import (
	"context"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/jigbench/jigbench/core/fsutil"
	"github.com/jigbench/jigbench/core/models"
	"github.com/jigbench/jigbench/core/progress"
)

const exportUsage = `usage: jigbench export hf --truth DATASET --out DIR [--row-group-mb 100] [--file-mb 1024]
       jigbench export sft --truth DATASET --out FILE.jsonl [--format messages|sharegpt]
                           [--condition shape|rect] [--grids 4,8,…] [--count N]
                           [--weights uniform|inverse-accuracy --report REPORT.json [--model NAME]]
                           [--seed S]
    hf: a Hugging Face dataset: DIR/data/<split>-NNNNN-of-MMMMM.parquet (one
      row per instance × condition: id, grid, condition, image, prompt,
      answer, source, seed, split; row groups of about 100 MB) and
      DIR/README.md, the dataset card (fill in its license). A row group
      is held in memory while it is written, so --row-group-mb bounds memory.
    sft: fine-tuning conversations from the train split only (eval instances
      are never exported): the prompt with the sheet, the answer JSON as the
      assistant turn; "messages" for TRL / Hugging Face, "sharegpt" for
      LLaMA-Factory; image paths relative to FILE. Without --count every
      train instance of the grids once; with it, N draws: a grid by weight
      (uniform, or 1 − PA of the report's model in the shape condition),
      then one of its instances without replacement; seeded.
`

func init() {
	register(&command{
		name:    "export",
		summary: "export a dataset for Hugging Face (parquet) or for fine-tuning (JSONL)",
		usage:   exportUsage,
		run:     runExport,
	})
}

func runExport(e *env, args []string) error {
	if len(args) == 0 {
		return usagef("say what to export: hf or sft")
	}
	switch args[0] {
	case "hf":
		return runExportHF(e, args[1:])
	case "sft":
		return runExportSFT(e, args[1:])
	case "-h", "--help", "-help":
		return parseFlags(newFlags("export"), []string{"-h"}, false)
	}
	return usagef("unknown export %q; want hf or sft", args[0])
}

func runExportHF(e *env, args []string) error {
	fs := newFlags("export hf")
	truth := fs.String("truth", "", "dataset folder")
	out := fs.String("out", "", "output folder")
	groupMB := fs.Int("row-group-mb", 100, "close a row group past this many MB")
	fileMB := fs.Int("file-mb", 1024, "close a parquet file past this many MB")
	if err := parseFlags(fs, args, false); err != nil {
		return err
	}
	switch {
	case *truth == "" || *out == "":
		return usagef("export hf needs --truth DATASET and --out DIR")
	case *groupMB < 1 || *fileMB < 1:
		return usagef("--row-group-mb and --file-mb must be at least 1")
	}
	prog := &statusLine{e: e}
	splits, err := models.ExportHF(context.Background(), *truth, *out, models.HFOptions{
		RowGroupBytes: int64(*groupMB) << 20, FileBytes: int64(*fileMB) << 20,
		Progress: func(r progress.Report) { prog.show(r, fmt.Sprintf("export hf: %d/%d rows", r.Done, r.Total)) },
	})
	prog.done()
	if err != nil {
		return err
	}
	for _, s := range splits {
		fmt.Fprintf(e.stderr, "%s: %d rows, %d bytes in %d files\n", s.Name, s.Rows, s.Bytes, len(s.Files))
	}
	fmt.Fprintln(e.stdout, *out)
	return nil
}

func runExportSFT(e *env, args []string) error {
	fs := newFlags("export sft")
	truth := fs.String("truth", "", "dataset folder")
	out := fs.String("out", "", "output JSONL file")
	layout := fs.String("format", models.LayoutMessages, "messages or sharegpt")
	cond := fs.String("condition", "shape", "shape or rect")
	gridList := fs.String("grids", "", "comma-separated grids (default all)")
	count := fs.Int("count", 0, "samples to draw (default: every train instance once)")
	weights := fs.String("weights", "uniform", "uniform or inverse-accuracy")
	report := fs.String("report", "", "score report for --weights inverse-accuracy")
	model := fs.String("model", "", "the report's model (when it has several)")
	seed := fs.Uint64("seed", 1, "sampling seed")
	if err := parseFlags(fs, args, false); err != nil {
		return err
	}
	switch {
	case *truth == "" || *out == "":
		return usagef("export sft needs --truth DATASET and --out FILE.jsonl")
	case *weights != "uniform" && *weights != "inverse-accuracy":
		return usagef("--weights must be uniform or inverse-accuracy")
	case *weights == "inverse-accuracy" && *report == "":
		return usagef("--weights inverse-accuracy needs --report REPORT.json")
	case *weights == "uniform" && (*report != "" || *model != ""):
		return usagef("--report and --model go with --weights inverse-accuracy")
	case *count < 0:
		return usagef("--count must not be negative")
	}
	var grids []int
	if *gridList != "" {
		for _, g := range strings.Split(*gridList, ",") {
			n, err := strconv.Atoi(strings.TrimSpace(g))
			if err != nil {
				return usagef("--grids %q is not a list of numbers", *gridList)
			}
			grids = append(grids, n)
		}
	}
	opt := models.SFTOptions{Layout: *layout, Condition: *cond, Grids: grids, Count: *count, Seed: *seed}
	if *weights == "inverse-accuracy" {
		rep, err := models.ReadReport(*report)
		if err != nil {
			return err
		}
		if opt.GridWeights, err = models.InverseAccuracy(rep, *model, grids); err != nil {
			return fmt.Errorf("%s: %v", *report, err)
		}
		if opt.Count == 0 {
			return usagef("--weights inverse-accuracy needs --count N")
		}
	}
	dir := "."
	if *out != "-" {
		dir = filepath.Dir(*out)
	}
	var n int
	var err error
	if *out == "-" {
		n, err = models.ExportSFT(context.Background(), e.stdout, *truth, dir, opt)
	} else {
		var f *fsutil.File
		if f, err = fsutil.Create(*out); err != nil {
			return err
		}
		defer f.Close()
		if n, err = models.ExportSFT(context.Background(), f, *truth, dir, opt); err == nil {
			err = f.Commit()
		}
	}
	if err != nil {
		return err
	}
	fmt.Fprintf(e.stderr, "%d samples in %s\n", n, *out)
	return nil
}
