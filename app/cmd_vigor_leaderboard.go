package app

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/jigbench/jigbench/core/fsutil"
	"github.com/jigbench/jigbench/core/progress"
	"github.com/jigbench/jigbench/core/vigor"
)

const vigorLeaderboardUsage = `  jigbench vigor leaderboard --split DIR --humans FILE... --judge [COND=]FILE...
                       [--condition NAME] [--json FILE] [--markdown FILE] [--csv FILE]
                       [--bootstrap 2000] [--seed S] [--store] [--db FILE]
      the paper's Table 3 for the judge and for the humans, per model, track and
      dimension (and per domain and subdomain), with item-bootstrap intervals;
      Kendall's τ-b and Spearman's ρ between the two rankings of the models; τ-b
      between every pair of judge runs. --condition: the judge condition ranked
      (default with_gt when present). COND=FILE: every record of FILE is COND.
  jigbench vigor conditions --split DIR --humans FILE... --judge [COND=]FILE...
                       [--diff A,B]... [--json FILE] [--markdown FILE] [--csv FILE]
                       [--bootstrap 2000] [--seed S] [--sample-variance] [--store] [--db FILE]
      Table 2 with a row per judge condition (names read from the records or
      given as COND=FILE) and the paired difference A − B of each --diff
      (default: every condition minus the first)
`

// vigorCampaignFlags are the inputs and outputs the leaderboard and the
// per-condition report share.
type vigorCampaignFlags struct {
	split, db, jsonOut, mdOut, csvOut string
	humans, judge, judgeWithout       vigorList
	replicates                        int
	seed                              uint64
	useStore                          bool
}

// vigorFlagSet is the flag set a command adds its own flags to.
type vigorFlagSet = flag.FlagSet

// vigorCampaignParse declares the shared flags on a new flag set, lets
// extra declare the command's own, and parses args.
func vigorCampaignParse(name string, args []string, extra func(*vigorFlagSet)) (*vigorCampaignFlags, error) {
	fs := newFlags(name)
	f := &vigorCampaignFlags{}
	fs.StringVar(&f.split, "split", "", "split folder")
	fs.Var(&f.humans, "humans", "rating exports")
	fs.Var(&f.judge, "judge", "judge-run files, each FILE or COND=FILE")
	fs.Var(&f.judgeWithout, "judge-without-gt", "judge-run files without ground truth")
	fs.StringVar(&f.jsonOut, "json", "", "write the JSON report here")
	fs.StringVar(&f.mdOut, "markdown", "", "write the Markdown report here")
	fs.StringVar(&f.csvOut, "csv", "", "write the CSV report here")
	fs.IntVar(&f.replicates, "bootstrap", vigor.DefaultReplicates, "bootstrap replicates (0: no intervals)")
	fs.Uint64Var(&f.seed, "seed", 1, "bootstrap seed")
	fs.BoolVar(&f.useStore, "store", false, "add the ratings store's ratings of the split")
	fs.StringVar(&f.db, "db", "", "ratings store: a SQLite file or postgres:// URL (default: $JIGBENCH_DB, else the app's)")
	if extra != nil {
		extra(fs)
	}
	if err := parseFlags(fs, vigorExpandLists(args, "humans", "judge", "judge-without-gt"), false); err != nil {
		return nil, err
	}
	switch {
	case f.split == "":
		return nil, usagef("--split is required")
	case len(f.humans) == 0 && !f.useStore:
		return nil, usagef("give the human ratings with --humans FILE... (or --store)")
	case len(f.judge) == 0 && len(f.judgeWithout) == 0:
		return nil, usagef("give the judge runs with --judge FILE...")
	case f.replicates < 0:
		return nil, usagef("--bootstrap must be 0 or more")
	}
	return f, nil
}

// judgeSpec splits "COND=FILE" into the condition and the file; a plain
// FILE (or one whose name merely contains "=") has no condition.
func judgeSpec(arg string) (vigor.Condition, string) {
	if c, path, ok := strings.Cut(arg, "="); ok && vigor.ValidConditionName(c) {
		if _, err := os.Stat(arg); err != nil { // not a file literally named so
			return vigor.Condition(c), path
		}
	}
	return "", arg
}

// input reads the split, the ratings and the judge runs: a plain FILE's
// records name their condition (with_gt where they do not), COND=FILE's are
// COND's, --judge-without-gt's are without_gt's.
func (f *vigorCampaignFlags) input(e *env) (vigor.Input, error) {
	var files []vigor.JudgeFile
	for _, a := range f.judge {
		c, path := judgeSpec(a)
		files = append(files, vigor.JudgeFile{Path: path, Condition: c})
	}
	for _, a := range f.judgeWithout {
		files = append(files, vigor.JudgeFile{Path: a, Condition: vigor.WithoutGT})
	}
	return vigorGather(e, f.split, f.db, f.useStore, f.humans, files)
}

// report writes the JSON, Markdown and CSV files asked for, then the text
// to stdout.
func (f *vigorCampaignFlags) report(e *env, text, js, md, csv func(io.Writer) error) error {
	for _, o := range []struct {
		path  string
		write func(io.Writer) error
	}{{f.jsonOut, js}, {f.mdOut, md}, {f.csvOut, csv}} {
		if o.path != "" {
			if err := fsutil.WriteWith(o.path, o.write); err != nil {
				return err
			}
		}
	}
	return text(e.stdout)
}

// vigorProgress shows a bootstrap's progress on stderr when it is a
// terminal and on is true: "what done/total", erased when done.
func vigorProgress(e *env, what string, on bool) progress.Func {
	if !e.progress || !on {
		return nil
	}
	p := &statusLine{e: e}
	return func(r progress.Report) {
		p.show(r, fmt.Sprintf("%s %d/%d", what, r.Done, r.Total))
		if r.Done == r.Total {
			p.done()
		}
	}
}

func vigorLeaderboard(e *env, args []string) error {
	var cond *string
	f, err := vigorCampaignParse("vigor leaderboard", args, func(fs *vigorFlagSet) {
		cond = fs.String("condition", "", "judge condition to rank (default with_gt when present)")
	})
	if err != nil {
		return err
	}
	c := vigor.Condition("")
	if *cond != "" {
		var ok bool
		if c, ok = vigor.ParseCondition(*cond); !ok {
			return usagef("--condition %q is not a condition name (letters, digits, underscores)", *cond)
		}
	}
	in, err := f.input(e)
	if err != nil {
		return err
	}
	lb, err := vigor.BuildLeaderboard(context.Background(), in, vigor.LeaderboardOptions{Condition: c,
		Replicates: f.replicates, Seed: f.seed, Progress: vigorProgress(e, "bootstrap groups", f.replicates > 0)})
	if err != nil {
		return err
	}
	return f.report(e, lb.WriteText, lb.WriteJSON, lb.WriteMarkdown, lb.WriteCSV)
}

func vigorConditions(e *env, args []string) error {
	var diffs vigorList
	var sample *bool
	f, err := vigorCampaignParse("vigor conditions", args, func(fs *vigorFlagSet) {
		fs.Var(&diffs, "diff", "a paired difference A,B (A − B); may be repeated")
		sample = fs.Bool("sample-variance", false, "divide variances by n−1 instead of n")
	})
	if err != nil {
		return err
	}
	var pairs [][2]vigor.Condition
	for _, d := range diffs {
		p, err := vigor.ParseConditionPair(d)
		if err != nil {
			return usagef("--diff: %v", err)
		}
		pairs = append(pairs, p)
	}
	in, err := f.input(e)
	if err != nil {
		return err
	}
	opt := vigor.Options{Replicates: f.replicates, Seed: f.seed, SampleVariance: *sample}
	cr, err := vigor.AnalyzeConditions(context.Background(), in, opt, pairs)
	if err != nil {
		return err
	}
	return f.report(e, cr.WriteText, cr.WriteJSON, cr.WriteMarkdown, cr.WriteCSV)
}

// vigorOtherConditions lists the conditions of records other than the
// paper's two, in order.
func vigorOtherConditions(records []vigor.JudgeRecord) []string {
	var out []string
	for _, c := range vigor.OrderConditions(records) {
		if c != vigor.WithGT && c != vigor.WithoutGT {
			out = append(out, string(c))
		}
	}
	return out
}
