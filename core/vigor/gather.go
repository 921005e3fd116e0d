package vigor

// Sources name what an agreement analysis reads, the same from the command
// line (vigor agree) and the app's Agreement pane.
type Sources struct {
	// HumanFiles are ratings exports (CSV or JSONL).
	HumanFiles []string
	// Stored are ratings already taken from a store, added after the files'.
	Stored []Rating
	// Judge lists each condition's judge runs, one file a run, in run order.
	// A file given as one condition is that condition's: a record in it
	// naming the other condition is reported and left out (docs/formats.md,
	// "Judge files").
	Judge map[Condition][]string
}

// Gather reads src for split sp into an agreement input. Judge records that
// cannot be used are returned as problems and left out; a file that cannot
// be read at all is an error.
func Gather(sp *Split, src Sources) (Input, []JudgeProblem, error) {
	in := Input{Split: sp}
	if len(src.HumanFiles) > 0 {
		rs, err := ReadRatingsFiles(src.HumanFiles, sp)
		if err != nil {
			return in, nil, err
		}
		in.Humans = rs
	}
	in.Humans = append(in.Humans, src.Stored...)
	var problems []JudgeProblem
	for _, c := range Conditions {
		for k, f := range src.Judge[c] {
			recs, probs, err := ReadJudgeFile(f, sp, JudgeOptions{Condition: c, Fixed: true, Run: k + 1})
			if err != nil {
				return in, nil, err
			}
			in.Judge = append(in.Judge, recs...)
			problems = append(problems, probs...)
		}
	}
	return in, problems, nil
}
