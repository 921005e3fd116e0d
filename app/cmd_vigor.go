package app

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/jigbench/jigbench/core/fsutil"
	"github.com/jigbench/jigbench/core/vigor"
	"github.com/jigbench/jigbench/core/vigor/vigordemo"
)

const vigorUsage = `usage: jigbench vigor SUBCOMMAND [flags]

ViGoR-Bench meta-evaluation: splits, ratings, judge runs, agreement.

  jigbench vigor check DIR
      validate a split folder; list every problem with the item it belongs to
  jigbench vigor export --split DIR --annotator NAME --out FILE.csv|FILE.jsonl
                        [--revisions FILE.csv|FILE.jsonl] [--db FILE]
      write one annotator's ratings of the split from the ratings store;
      --revisions also writes every change of them (the audit trail)
  jigbench vigor import --split DIR [--db FILE] FILE...
      add rating exports (.csv or .jsonl) to the ratings store; all or nothing,
      and a newer rating already in the store is kept
  jigbench vigor agree --split DIR --humans FILE... --judge FILE...
                       [--judge-without-gt FILE...] [--json FILE] [--markdown FILE]
                       [--bootstrap 2000] [--seed S] [--sample-variance]
                       [--store] [--db FILE]
      the paper's Table 2 and the statistics beyond it. --humans: rating exports;
      --store adds this machine's stored ratings of the split. --judge: judge-run
      files with ground truth (JSON array or JSONL); --judge-without-gt: files
      without. A record naming the other condition than its file's is reported
      and left out. Output files may be "-" (standard output). Records without a run
      number take the file's position in its list (1, 2, 3, …).
  jigbench vigor irr --data FILE.csv [--metric nominal|ordinal|interval|ratio]
                     [--header] [--labels]
      reliability of any data: one row per coder, one column per unit; an empty
      cell or * is missing. --header: the first row names the units; --labels:
      the first column names the coders. Prints JSON.
  jigbench vigor demo --out DIR
      writes a demo split built from jigbench's own puzzles (DIR/split.json and
      DIR/img/), with three simulated annotators' ratings and three simulated
      judge runs per condition under DIR/simulated/; prints the commands to
      analyse it

--db takes a SQLite file or a PostgreSQL URL (postgres://user[:password]@host[:port]/db,
shared by several laptops); without it, $JIGBENCH_DB, else the app's own store: the user
config folder, jigbench/ratings.db. Passwords are never printed. Commands that only
read (export, and --store) open it read-only and never upgrade its schema: a store an
older jigbench made is refused until it is opened read-write once (import, or the app).
`

func init() {
	register(&command{
		name:    "vigor",
		summary: "ViGoR meta-evaluation: check splits, move ratings, measure judge agreement",
		usage:   vigorUsage + "\nFor a campaign:\n\n" + vigorLeaderboardUsage + vigorDisagreementsUsage,
		run:     runVigor,
	})
}

// vigorSubcommands lists runVigor's subcommands for its messages.
const vigorSubcommands = "check, export, import, agree, irr, demo, leaderboard, conditions or disagreements"

func runVigor(e *env, args []string) error {
	if len(args) == 0 {
		return usagef("missing subcommand: %s", vigorSubcommands)
	}
	sub, rest := args[0], args[1:]
	switch sub {
	case "-h", "--help", "-help", "help":
		return flag.ErrHelp
	case "check":
		return vigorCheck(e, rest)
	case "export":
		return vigorExport(e, rest)
	case "import":
		return vigorImport(e, rest)
	case "agree":
		return vigorAgree(e, rest)
	case "irr":
		return vigorIRR(e, rest)
	case "demo":
		return vigorDemo(e, rest)
	case "leaderboard":
		return vigorLeaderboard(e, rest)
	case "conditions":
		return vigorConditions(e, rest)
	case "disagreements":
		return vigorDisagreements(e, rest)
	}
	return usagef("unknown subcommand %q; want %s", sub, vigorSubcommands)
}

func vigorDemo(e *env, args []string) error {
	fs := newFlags("vigor demo")
	out := fs.String("out", "", "folder to write the demo split into")
	if err := parseFlags(fs, args, false); err != nil {
		return err
	}
	if *out == "" {
		return usagef("--out DIR is required")
	}
	files, err := vigordemo.Write(*out)
	if err != nil {
		return err
	}
	rel := func(ps []string) string {
		q := make([]string, len(ps))
		for i, p := range ps {
			q[i] = filepath.Join(*out, p)
		}
		return strings.Join(q, " ")
	}
	fmt.Fprintf(e.stdout, "%s: %d items, %d simulated annotators, %d simulated judge runs per condition\n",
		filepath.Join(*out, files.Split), files.ItemCount, len(files.Humans), len(files.Judge[vigor.WithGT]))
	fmt.Fprintf(e.stdout, "analyse it with:\n  jigbench vigor agree --split %s --humans %s --judge %s --judge-without-gt %s\n",
		*out, rel(files.Humans), rel(files.Judge[vigor.WithGT]), rel(files.Judge[vigor.WithoutGT]))
	return nil
}

func vigorCheck(e *env, args []string) error {
	fs := newFlags("vigor check")
	if err := parseFlags(fs, args, true); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		return usagef("vigor check takes one split folder")
	}
	dir := fs.Arg(0)
	probs := vigor.Check(dir)
	fatal := 0
	for _, p := range probs {
		if p.Fatal {
			fatal++
			fmt.Fprintf(e.stdout, "error: %s\n", p)
		} else {
			fmt.Fprintf(e.stdout, "warning: %s\n", p)
		}
	}
	if fatal > 0 {
		return fmt.Errorf("split %s has %d error%s (listed above); fix them and check again", dir, fatal, vigorPlural(fatal))
	}
	sp, err := vigor.LoadMeta(dir) // the files were just checked
	if err != nil {
		return err
	}
	fmt.Fprintf(e.stdout, "%s: split %s is usable: %d items (%d process, %d result), %d warning%s\n",
		dir, sp.Name, len(sp.Items), sp.Count(vigor.TrackProcess), sp.Count(vigor.TrackResult), len(probs), vigorPlural(len(probs)))
	return nil
}

func vigorPlural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// maxListedWarnings is how many per-record warnings a command prints before
// it only counts them, as score does.
const maxListedWarnings = 20

// vigorOpenStore opens the ratings store --db names (a SQLite file or a
// postgres:// URL), else $JIGBENCH_DB, else the app's; readers open a
// SQLite file read-only, so they neither wait for a writer nor need write
// access.
func vigorOpenStore(ctx context.Context, db string, readOnly bool) (*vigor.Store, error) {
	loc, err := vigor.StoreLocation(db)
	if err != nil {
		return nil, err
	}
	return vigor.OpenStoreAt(ctx, loc, readOnly)
}

// vigorSplitQuery selects the ratings of sp's identity (its name and the
// digest of its items, docs/formats.md "Split identity"); it reads the
// split's files.
func vigorSplitQuery(sp *vigor.Split) (vigor.Query, error) {
	digest, err := sp.Digest()
	if err != nil {
		return vigor.Query{}, fmt.Errorf("%w (the ratings store keeps a split's ratings under the digest of its files)", err)
	}
	return vigor.Query{Split: sp.Name, Digest: digest}, nil
}

func vigorExport(e *env, args []string) error {
	fs := newFlags("vigor export")
	split := fs.String("split", "", "split folder")
	annotator := fs.String("annotator", "", "annotator name")
	out := fs.String("out", "", "output file (.csv or .jsonl)")
	revisions := fs.String("revisions", "", "also write the annotator's revisions of the split (.csv or .jsonl)")
	db := fs.String("db", "", "ratings store: a SQLite file or postgres:// URL (default: $JIGBENCH_DB, else the app's)")
	if err := parseFlags(fs, args, false); err != nil {
		return err
	}
	switch {
	case *split == "":
		return usagef("--split is required")
	case *annotator == "":
		return usagef("--annotator is required")
	case *out == "":
		return usagef("--out is required")
	}
	for _, f := range []string{*out, *revisions} {
		if _, err := vigor.RatingsFormatOf(f); f != "" && err != nil {
			return usagef("%v", err)
		}
	}
	sp, err := vigor.LoadMeta(*split)
	if err != nil {
		return err
	}
	ctx := context.Background()
	st, err := vigorOpenStore(ctx, *db, true)
	if err != nil {
		return err
	}
	defer st.Close()
	q, err := vigorSplitQuery(sp)
	if err != nil {
		return err
	}
	q.Annotator = *annotator
	rs, err := st.List(ctx, q)
	if err != nil {
		return err
	}
	if len(rs) == 0 {
		names, _ := st.Annotators(ctx, sp.Name)
		known := "nobody has rated it there yet"
		if len(names) > 0 {
			known = "annotators there: " + strings.Join(names, ", ")
		}
		return fmt.Errorf("no ratings by %q of split %s in %s (%s)", *annotator, sp.Name, st.Path(), known)
	}
	sortBySplit(sp, rs)
	if err := vigor.WriteRatingsFile(*out, rs); err != nil {
		return err
	}
	fmt.Fprintf(e.stdout, "wrote %d ratings by %s to %s\n", len(rs), *annotator, *out)
	if *revisions != "" {
		revs, err := st.Revisions(ctx, q)
		if err != nil {
			return err
		}
		if err := vigor.WriteRevisionsFile(*revisions, revs); err != nil {
			return err
		}
		fmt.Fprintf(e.stdout, "wrote %d revisions by %s to %s\n", len(revs), *annotator, *revisions)
	}
	return nil
}

// sortBySplit puts ratings in the split's item order (ratings of items no
// longer in the split last), the order a person reads the export in.
func sortBySplit(sp *vigor.Split, rs []vigor.Rating) {
	pos := make(map[string]int, len(sp.Items))
	for i, it := range sp.Items {
		pos[it.ID] = i
	}
	at := func(id string) int {
		if i, ok := pos[id]; ok {
			return i
		}
		return len(sp.Items)
	}
	slices.SortStableFunc(rs, func(a, b vigor.Rating) int { return cmp.Compare(at(a.Item), at(b.Item)) })
}

func vigorImport(e *env, args []string) error {
	fs := newFlags("vigor import")
	split := fs.String("split", "", "split folder")
	db := fs.String("db", "", "ratings store: a SQLite file or postgres:// URL (default: $JIGBENCH_DB, else the app's)")
	if err := parseFlags(fs, args, true); err != nil {
		return err
	}
	if *split == "" {
		return usagef("--split is required")
	}
	if fs.NArg() == 0 {
		return usagef("give the rating files to import")
	}
	sp, err := vigor.LoadMeta(*split)
	if err != nil {
		return err
	}
	rs, err := vigor.ReadRatingsFiles(fs.Args(), sp)
	if err != nil {
		return fmt.Errorf("%v; nothing was imported", err)
	}
	q, err := vigorSplitQuery(sp)
	if err != nil {
		return fmt.Errorf("%v; nothing was imported", err)
	}
	for i := range rs {
		rs[i].SplitDigest = q.Digest
	}
	ctx := context.Background()
	st, err := vigorOpenStore(ctx, *db, false)
	if err != nil {
		return err
	}
	defer st.Close()
	var changed *vigor.SplitChangedError
	if err := st.BindSplit(ctx, sp); errors.As(err, &changed) {
		fmt.Fprintf(e.stderr, "warning: %v\n", err)
	} else if err != nil {
		return fmt.Errorf("%v; nothing was imported", err)
	}
	res, err := st.Import(ctx, rs)
	if err != nil {
		return fmt.Errorf("%v; nothing was imported", err)
	}
	fmt.Fprintf(e.stdout, "imported %d ratings into %s: %d added, %d replaced older ones, %d kept (the store's copy was as new or newer)\n",
		len(rs), st.Path(), res.Added, res.Replaced, res.Kept)
	return nil
}

// vigorList collects a flag given several times.
type vigorList []string

func (l *vigorList) String() string     { return strings.Join(*l, " ") }
func (l *vigorList) Set(s string) error { *l = append(*l, s); return nil }

// expandLists lets a list flag take several values in a row, as docs/cli.md
// writes them (--judge a.jsonl b.jsonl): each following argument that is not
// a flag becomes another --name value.
func vigorExpandLists(args []string, names ...string) []string {
	isList := func(a string) (string, bool) {
		n := strings.TrimLeft(a, "-")
		if n == a || strings.Contains(n, "=") {
			return "", false
		}
		for _, name := range names {
			if n == name {
				return name, true
			}
		}
		return "", false
	}
	var out []string
	current := ""
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			return append(out, args[i:]...)
		}
		if name, ok := isList(a); ok {
			current = name
			out = append(out, a)
			if i+1 < len(args) {
				out = append(out, args[i+1])
				i++
			}
			continue
		}
		if strings.HasPrefix(a, "-") {
			current = ""
			out = append(out, a)
			continue
		}
		if current != "" {
			out = append(out, "--"+current, a)
			continue
		}
		out = append(out, a)
	}
	return out
}

func vigorAgree(e *env, args []string) error {
	fs := newFlags("vigor agree")
	split := fs.String("split", "", "split folder")
	var humans, judge, judgeWithout vigorList
	fs.Var(&humans, "humans", "rating exports")
	fs.Var(&judge, "judge", "judge-run files")
	fs.Var(&judgeWithout, "judge-without-gt", "judge-run files without ground truth")
	jsonOut := fs.String("json", "", "write the JSON report here")
	mdOut := fs.String("markdown", "", "write the Markdown report here")
	replicates := fs.Int("bootstrap", vigor.DefaultReplicates, "bootstrap replicates (0: no intervals)")
	seed := fs.Uint64("seed", 1, "bootstrap seed")
	sample := fs.Bool("sample-variance", false, "divide variances by n−1 instead of n")
	useStore := fs.Bool("store", false, "add the ratings store's ratings of the split")
	db := fs.String("db", "", "ratings store: a SQLite file or postgres:// URL (default: $JIGBENCH_DB, else the app's)")
	if err := parseFlags(fs, vigorExpandLists(args, "humans", "judge", "judge-without-gt"), false); err != nil {
		return err
	}
	switch {
	case *split == "":
		return usagef("--split is required")
	case len(humans) == 0 && !*useStore:
		return usagef("give the human ratings with --humans FILE... (or --store)")
	case len(judge) == 0 && len(judgeWithout) == 0:
		return usagef("give the judge runs with --judge FILE... and/or --judge-without-gt FILE...")
	case *replicates < 0:
		return usagef("--bootstrap must be 0 or more")
	}
	in, err := vigorGather(e, *split, *db, *useStore, humans,
		vigor.JudgeFilesOf(map[vigor.Condition][]string{vigor.WithGT: judge, vigor.WithoutGT: judgeWithout}))
	if err != nil {
		return err
	}
	if others := vigorOtherConditions(in.Judge); len(others) > 0 {
		fmt.Fprintf(e.stderr, "jigbench: vigor: warning: records of condition %s are not in this with/without-GT report; 'jigbench vigor conditions' compares every condition\n",
			strings.Join(others, ", "))
	}

	opt := vigor.Options{Replicates: *replicates, Seed: *seed, SampleVariance: *sample}
	opt.Progress = vigorProgress(e, "bootstrap", *replicates > 0)
	rep, err := vigor.Analyze(context.Background(), in, opt)
	if err != nil {
		return err
	}
	if *jsonOut != "" {
		if err := fsutil.WriteWith(*jsonOut, rep.WriteJSON); err != nil {
			return err
		}
	}
	if *mdOut != "" {
		if err := fsutil.WriteWith(*mdOut, rep.WriteMarkdown); err != nil {
			return err
		}
	}
	return rep.WriteText(e.stdout)
}

func vigorIRR(e *env, args []string) error {
	fs := newFlags("vigor irr")
	data := fs.String("data", "", "reliability data CSV")
	metric := fs.String("metric", "nominal", "nominal, ordinal, interval or ratio")
	header := fs.Bool("header", false, "the first row names the units")
	labels := fs.Bool("labels", false, "the first column names the coders")
	if err := parseFlags(fs, args, false); err != nil {
		return err
	}
	if *data == "" {
		return usagef("--data is required")
	}
	m, err := vigor.ParseMetric(*metric)
	if err != nil {
		return usagef("%v", err)
	}
	text, err := fsutil.ReadFile(*data, vigor.MaxReliabilityBytes)
	if err != nil {
		return err
	}
	if err := fsutil.CheckUTF8(text); err != nil {
		return fmt.Errorf("read %s: %w", *data, err)
	}
	res, err := vigor.IRR(bytes.NewReader(fsutil.TrimBOM(text)), vigor.IRROptions{Metric: m, Header: *header, Labels: *labels})
	if err != nil {
		return fmt.Errorf("read %s: %w", *data, err)
	}
	b, err := json.Marshal(res)
	if err != nil {
		return err
	}
	fmt.Fprintf(e.stdout, "%s\n", b)
	return nil
}
