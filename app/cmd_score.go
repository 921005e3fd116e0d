package app

import (
	"context"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/jigbench/jigbench/core/fsutil"
	"github.com/jigbench/jigbench/core/puzzle"
	"github.com/jigbench/jigbench/core/render"
	"github.com/jigbench/jigbench/core/score"
)

const scoreUsage = `usage: jigbench score --truth DIR --pred [NAME=]PATH [--pred …] [--condition shape|rect]
                      [--json FILE] [--csv FILE] [--markdown FILE] [--instances-csv FILE]
                      [--heatmap FILE.png --heatmap-metric pa|aa|sc [--heatmap-grid N]
                       [--heatmap-model NAME] [--heatmap-condition shape|rect]]
                      [--compare A,B] [--plot FILE.png --plot-metric pa|em|aa|sc [--above-chance]]
                      [--ablation-heatmap FILE.png] [--latex FILE.tex] [--paper-markdown FILE.md]
                      [--paper-condition shape|rect] [--bootstrap 2000] [--seed 1] [--exchangeable=false]
    Scores model answers to JigShape puzzles: PA, EM, AA (and AA directed), SC
    per model × grid × condition, with 95% bootstrap intervals and the exact
    random-permutation baselines, and prints a model × grid table.
    --truth: a dataset folder (manifest.jsonl) or a folder of instance folders.
    --pred: a JSONL file ({"id": …, "prediction": {…}} or {"id": …,
      "response": "…"} a line), a folder of <instance id>.json|.txt files, or
      one file for one instance. NAME defaults to the file or folder name;
      several --pred with one NAME and condition are merged.
    --condition: the condition of the --pred flags after it (those before any
      --condition take the first one given); default shape.
    Invalid or missing answers score 0 and stay in the denominators; the
    reasons are in --json. Grids a model never answered are left out.
    --json writes {"format":"jigbench.score-report/v1","groups":[…],
      "instances":[…]}; --csv one row per group; --markdown tables;
      --instances-csv one row per instance.
    PA up to exchangeable pieces (docs/ambiguity-and-hints.md) is reported
      beside PA; it reads each answered instance's solved.png, which
      --exchangeable=false skips. Instances with revealed pieces (--reveal)
      are also scored on the remaining pieces.
    --heatmap draws one model × grid × condition as a PNG (viridis scale,
      legend 0–1); model and condition may be left out when there is only
      one. Without --heatmap-grid every grid is drawn: one grid to FILE.png,
      several to FILE-4x4.png, FILE-8x8.png, … (one per grid).
    Models answered in both conditions get the paired shape − rect ablation
    (docs/analysis.md) and every report the piece-type breakdown, in --json
    ("ablation", "piece_types"), --markdown and the printed table.
    --compare A,B adds model A − model B on their shared instances
      ("comparisons").
    --plot draws the scaling curve of --plot-metric (a line per model ×
      condition, 95% bands, random baseline dashed); --above-chance plots
      (m − b)/(1 − b) instead. --ablation-heatmap draws shape − rect per
      model, grid and metric on a diverging scale.
    --latex writes the paper's Table A (PA, EM) and Table B (AA, SC) as a
      booktabs LaTeX document, --paper-markdown the same tables in Markdown;
      both for --paper-condition (default shape).
`

func init() {
	register(&command{
		name:    "score",
		summary: "score model answers: PA, EM, AA, SC with intervals, baselines, heatmaps",
		usage:   scoreUsage,
		run:     runScore,
	})
}

// predFlags collects --pred and --condition in command-line order.
type predFlags struct {
	specs      []string
	after      []int // how many --condition flags preceded each --pred
	conditions []string
}

type predValue struct{ f *predFlags }

func (v predValue) String() string { return "" }
func (v predValue) Set(s string) error {
	v.f.specs = append(v.f.specs, s)
	v.f.after = append(v.f.after, len(v.f.conditions))
	return nil
}

type conditionValue struct{ f *predFlags }

func (v conditionValue) String() string { return "" }
func (v conditionValue) Set(s string) error {
	if s != puzzle.ConditionShape && s != puzzle.ConditionRect {
		return fmt.Errorf("must be %s or %s", puzzle.ConditionShape, puzzle.ConditionRect)
	}
	v.f.conditions = append(v.f.conditions, s)
	return nil
}

// sources resolves each --pred's condition.
func (f *predFlags) sources() ([]score.Source, error) {
	var out []score.Source
	for i, spec := range f.specs {
		cond := puzzle.ConditionShape
		switch j := f.after[i]; {
		case j > 0:
			cond = f.conditions[j-1]
		case len(f.conditions) > 0:
			cond = f.conditions[0]
		}
		s, err := score.ParseSource(spec, cond)
		if err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, nil
}

func runScore(e *env, args []string) error {
	fs := newFlags("score")
	var preds predFlags
	truthDir := fs.String("truth", "", "dataset folder or folder of instance folders")
	fs.Var(predValue{&preds}, "pred", "[NAME=]PATH of answers (repeatable)")
	fs.Var(conditionValue{&preds}, "condition", "shape or rect, for the --pred flags after it")
	jsonOut := fs.String("json", "", "write the JSON report here")
	csvOut := fs.String("csv", "", "write one CSV row per group here")
	mdOut := fs.String("markdown", "", "write Markdown tables here")
	instOut := fs.String("instances-csv", "", "write one CSV row per instance here")
	heatOut := fs.String("heatmap", "", "draw a heatmap PNG here")
	heatMetric := fs.String("heatmap-metric", "", "pa, aa or sc")
	heatGrid := fs.Int("heatmap-grid", 0, "grid of the heatmap")
	heatModel := fs.String("heatmap-model", "", "model of the heatmap")
	heatCond := fs.String("heatmap-condition", "", "condition of the heatmap")
	compare := fs.String("compare", "", "A,B: model A − model B on shared instances")
	plotOut := fs.String("plot", "", "draw the scaling curve PNG here")
	plotMetric := fs.String("plot-metric", "", "pa, em, aa or sc")
	aboveChance := fs.Bool("above-chance", false, "plot (m − b)/(1 − b)")
	ablationOut := fs.String("ablation-heatmap", "", "draw the shape − rect heatmap PNG here")
	latexOut := fs.String("latex", "", "write the paper tables as LaTeX here")
	paperMD := fs.String("paper-markdown", "", "write the paper tables as Markdown here")
	paperCond := fs.String("paper-condition", puzzle.ConditionShape, "condition of the paper tables")
	reps := fs.Int("bootstrap", score.MinReplicates, "bootstrap replicates")
	seed := fs.Uint64("seed", 1, "bootstrap seed")
	exchangeable := fs.Bool("exchangeable", true, "compute PA up to exchangeable pieces (reads each answered instance's solved.png)")
	if err := parseFlags(fs, args, false); err != nil {
		return err
	}
	switch {
	case *truthDir == "":
		return usagef("--truth DIR is required")
	case len(preds.specs) == 0:
		return usagef("at least one --pred [NAME=]PATH is required")
	case *heatOut != "" && *heatMetric == "":
		return usagef("--heatmap needs --heatmap-metric pa, aa or sc")
	case *heatOut == "" && (*heatMetric != "" || *heatGrid != 0 || *heatModel != "" || *heatCond != ""):
		return usagef("--heatmap-metric, -grid, -model and -condition need --heatmap FILE.png")
	case *reps < score.MinReplicates || *reps > 1_000_000:
		return usagef("--bootstrap %d is outside %d–1000000", *reps, score.MinReplicates)
	case *heatCond != "" && *heatCond != puzzle.ConditionShape && *heatCond != puzzle.ConditionRect:
		return usagef("--heatmap-condition must be shape or rect")
	}
	analyses, err := parseAnalysisFlags(*compare, *plotOut, *plotMetric, *aboveChance, *paperCond)
	if err != nil {
		return err
	}
	analyses.ablation, analyses.latex, analyses.paperMD = *ablationOut, *latexOut, *paperMD
	var metric score.HeatmapMetric
	if *heatOut != "" {
		var err error
		if metric, err = score.ParseHeatmapMetric(*heatMetric); err != nil {
			return usagef("%v", err)
		}
	}
	sources, err := preds.sources()
	if err != nil {
		return usagef("--pred %v", err)
	}

	ctx := context.Background()
	prog := &statusLine{e: e}
	show := prog.stages("scoring")
	truth, err := score.LoadTruth(ctx, *truthDir, show)
	if err != nil {
		prog.done()
		return err
	}
	opt := score.Options{Bootstrap: score.BootstrapOptions{Replicates: *reps, Seed: *seed}}
	if *exchangeable {
		opt.Exchange = render.InstanceExchange
	}
	rep, err := score.Evaluate(ctx, truth, sources, opt, show)
	prog.done()
	if err != nil {
		return err
	}
	for _, p := range rep.Problems {
		fmt.Fprintf(e.stderr, "jigbench: note: %s\n", oneLine(p))
	}
	if len(rep.Groups) == 0 {
		return fmt.Errorf("no answer matched any instance in %s; check that the answers' ids are the instance folders' names", *truthDir)
	}
	if err := analyses.compareModels(ctx, rep); err != nil {
		return err
	}
	for _, out := range []struct {
		path  string
		write func(io.Writer) error
	}{{*jsonOut, rep.WriteJSON}, {*csvOut, rep.WriteCSV}, {*mdOut, rep.WriteMarkdown}, {*instOut, rep.WriteInstancesCSV}} {
		if out.path == "" {
			continue
		}
		if err := fsutil.WriteWith(out.path, out.write); err != nil {
			return err
		}
	}
	if err := analyses.write(rep); err != nil {
		return err
	}
	// The table first: a heatmap the flags leave ambiguous still leaves it printed.
	if err := rep.WriteTable(e.stdout); err != nil {
		return err
	}
	if *heatOut != "" {
		written, err := writeHeatmaps(rep, *heatOut, metric, *heatModel, *heatGrid, *heatCond)
		if len(written) > 1 {
			fmt.Fprintf(e.stderr, "jigbench: one heatmap per grid: %s\n", strings.Join(written, ", "))
		}
		return err
	}
	return nil
}

// heatmapPath names the heatmap of one grid when a run draws several:
// "heat.png" becomes "heat-4x4.png".
func heatmapPath(path string, grid int) string {
	ext := filepath.Ext(path)
	return strings.TrimSuffix(path, ext) + "-" + strconv.Itoa(grid) + "x" + strconv.Itoa(grid) + ext
}

// writeHeatmaps picks the model and condition the flags leave open and
// draws a heatmap per grid: to path when there is one grid (or --heatmap-grid
// chose it), else to heatmapPath(path, grid) for each. It returns the files
// written.
func writeHeatmaps(rep *score.Report, path string, metric score.HeatmapMetric, model string, grid int, cond string) ([]string, error) {
	var models, grids []string
	add := func(list *[]string, v string) {
		if !slices.Contains(*list, v) {
			*list = append(*list, v)
		}
	}
	for _, g := range rep.Groups {
		add(&models, g.Model)
	}
	pick := func(what, flag, given string, options []string) (string, error) {
		if given != "" {
			if !slices.Contains(options, given) {
				return "", fmt.Errorf("heatmap: no %s %q among the scores (%s)", what, given, strings.Join(options, ", "))
			}
			return given, nil
		}
		if len(options) != 1 {
			return "", fmt.Errorf("heatmap: there are several %ss (%s); choose one with %s", what, strings.Join(options, ", "), flag)
		}
		return options[0], nil
	}
	model, err := pick("model", "--heatmap-model", model, models)
	if err != nil {
		return nil, err
	}
	for _, g := range rep.Groups {
		if g.Model == model {
			add(&grids, strconv.Itoa(g.Grid))
		}
	}
	if grid != 0 {
		if !slices.Contains(grids, strconv.Itoa(grid)) {
			return nil, fmt.Errorf("heatmap: no grid %q among the scores (%s)", strconv.Itoa(grid), strings.Join(grids, ", "))
		}
		grids = []string{strconv.Itoa(grid)}
	}
	var written []string
	for _, gs := range grids {
		n, _ := strconv.Atoi(gs)
		var conds []string
		for _, g := range rep.Groups {
			if g.Model == model && g.Grid == n {
				add(&conds, g.Condition)
			}
		}
		c, err := pick("condition", "--heatmap-condition", cond, conds)
		if err != nil {
			return written, fmt.Errorf("%v at grid %s", err, gridLabel(n))
		}
		h, err := rep.Heatmap(metric, model, n, c)
		if err != nil {
			return written, err
		}
		data, err := render.EncodePNG(render.Heatmap(h, render.HeatmapOptions{}))
		if err != nil {
			return written, err
		}
		out := path
		if len(grids) > 1 {
			out = heatmapPath(path, n)
		}
		if err := fsutil.WriteFile(out, data); err != nil {
			return written, err
		}
		written = append(written, out)
	}
	return written, nil
}

func gridLabel(n int) string { return strconv.Itoa(n) + "×" + strconv.Itoa(n) }
