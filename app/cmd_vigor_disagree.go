package app

import (
	"bufio"
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/jigbench/jigbench/core/fsutil"
	"github.com/jigbench/jigbench/core/vigor"
)

const vigorDisagreementsUsage = `  jigbench vigor disagreements --split DIR --humans FILE... --judge [COND=]FILE...
                       [--dimension D] [--model M] [--condition C] [--track T]
                       [--top 20] [--csv FILE] [--store] [--db FILE]
      the item × dimension × condition cells the judge and the humans both
      scored, the largest |judge − humans| first, as the app's Disagreements
      tab lists them; --top: rows printed (0: all); --csv: every listed cell
`

func vigorDisagreements(e *env, args []string) error {
	var dim, model, cond, track *string
	var top *int
	f, err := vigorCampaignParse("vigor disagreements", args, func(fs *vigorFlagSet) {
		dim = fs.String("dimension", "", "keep one dimension")
		model = fs.String("model", "", "keep one model")
		cond = fs.String("condition", "", "keep one judge condition")
		track = fs.String("track", "", "keep one track (process or result)")
		top = fs.Int("top", 20, "rows to print (0: all)")
	})
	if err != nil {
		return err
	}
	filter := vigor.AnyDisagreement
	filter.Model = *model
	if *dim != "" {
		d, ok := vigor.ParseDim(*dim)
		if !ok {
			return usagef("--dimension %q is not a ViGoR dimension", *dim)
		}
		filter.Dim = d
	}
	if *cond != "" {
		c, ok := vigor.ParseCondition(*cond)
		if !ok {
			return usagef("--condition %q is not a condition name (letters, digits, underscores)", *cond)
		}
		filter.Condition = c
	}
	if *track != "" {
		if filter.Track = vigor.Track(*track); !filter.Track.Valid() {
			return usagef("--track %q: want process or result", *track)
		}
	}
	if *top < 0 {
		return usagef("--top must be 0 or more")
	}
	in, err := f.input(e)
	if err != nil {
		return err
	}
	all, err := vigor.Disagreements(in)
	if err != nil {
		return err
	}
	ds := vigor.FilterDisagreements(all, filter)
	if f.csvOut != "" {
		if err := fsutil.WriteWith(f.csvOut, func(w io.Writer) error { return vigor.WriteDisagreementsCSV(w, ds) }); err != nil {
			return err
		}
	}
	bw := bufio.NewWriter(e.stdout)
	tw := tabwriter.NewWriter(bw, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "Disagreements — split %s: %d of %d item × dimension × condition cells, largest |judge − humans| first (0–1 scale)\n\n",
		in.Split.Name, len(ds), len(all))
	fmt.Fprintln(tw, "Rank\tItem\tModel\tDimension\tCondition\tHumans\tJudge\tGap\tRaters\tJudge scores")
	for i := range ds {
		if *top > 0 && i == *top {
			fmt.Fprintf(tw, "… %d more (--top 0 prints every one)\n", len(ds)-i)
			break
		}
		d := &ds[i]
		fmt.Fprintf(tw, "%d\t%s\t%s\t%s\t%s\t%.3f\t%.3f\t%.3f\t%d\t%d\n", i+1, d.Item, d.Model, d.Dimension(), d.Condition,
			d.Human, d.Judge, d.Gap(), d.Raters, d.Runs)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	return bw.Flush()
}
