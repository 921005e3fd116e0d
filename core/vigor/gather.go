package vigor

import "slices"

// Sources name what an agreement analysis reads, the same from the command
// line (vigor agree) and the app's Agreement pane.
type Sources struct {
	// HumanFiles are ratings exports (CSV or JSONL).
	HumanFiles []string
	// Stored are ratings already taken from a store, added after the files'.
	Stored []Rating
	// Judge lists the judge-run files, one file a run, in order.
	Judge []JudgeFile
}

// JudgeFile is one judge run's file. With a Condition the file is that
// condition's: a record in it naming another is reported and left out
// (docs/formats.md, "Judge files"); without, each record names its own,
// with_gt where it names none. A record without a run number takes the
// file's position among the files of its condition (1, 2, 3, …).
type JudgeFile struct {
	Path      string
	Condition Condition
}

// JudgeFilesOf lists files given per condition, the paper's two first,
// then the others by name, each condition's in its order.
func JudgeFilesOf(byCond map[Condition][]string) []JudgeFile {
	var conds []Condition
	for c := range byCond {
		if !slices.Contains(Conditions[:], c) {
			conds = append(conds, c)
		}
	}
	slices.Sort(conds)
	conds = slices.Concat(Conditions[:], conds)
	var out []JudgeFile
	for _, c := range conds {
		for _, p := range byCond[c] {
			out = append(out, JudgeFile{Path: p, Condition: c})
		}
	}
	return out
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
	position := make(map[Condition]int)
	for _, f := range src.Judge {
		opt := JudgeOptions{Condition: f.Condition, Fixed: f.Condition != ""}
		if !opt.Fixed {
			opt.Condition = WithGT
		}
		position[opt.Condition]++
		opt.Run = position[opt.Condition]
		recs, probs, err := ReadJudgeFile(f.Path, sp, opt)
		if err != nil {
			return in, nil, err
		}
		in.Judge = append(in.Judge, recs...)
		problems = append(problems, probs...)
	}
	return in, problems, nil
}
