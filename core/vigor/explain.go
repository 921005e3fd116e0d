package vigor

import "fmt"

// HumanExpertsNote says what the Human experts row of Table 2 is, since
// its MAE of 0 and accuracy of 100 % look like a result and are not.
const HumanExpertsNote = "Human experts: the raters against their own mean, so MAE 0 and accuracy 100 % by construction " +
	"(the paper's reference row); its Var is the raters' spread. The Human ceiling table compares each rater with the others."

// Missing says in words why parts of the report are undefined: fewer than
// two raters, a condition without judge runs, a track without an item
// rated twice. Nothing when every part has data.
func (rep *Report) Missing() []string {
	var out []string
	switch n := len(rep.Annotators); {
	case n == 0:
		out = append(out, "No human ratings: every figure needs them.")
	case n < 2:
		out = append(out, fmt.Sprintf("Only 1 rater (%s): Table 2, the ceiling and the reliability compare raters and need at least 2 ratings of an item, so they are undefined. Add another rater's ratings.", rep.Annotators[0]))
	default:
		for _, t := range Tracks {
			if rep.Table2.HumanExperts.Track(t).Items == 0 && *byTrack(t, &rep.Items.Process, &rep.Items.Result) > 0 {
				out = append(out, fmt.Sprintf("No %s item has 2 human ratings yet, so that track's figures are undefined.", t))
			}
		}
	}
	for _, c := range Conditions {
		if len(*byCond(c, &rep.Runs.WithoutGT, &rep.Runs.WithGT)) == 0 {
			out = append(out, fmt.Sprintf("No judge run loaded %s: its rows are undefined. Add a judge run.", condPhrase(c)))
		}
	}
	return out
}

func condPhrase(c Condition) string {
	if c == WithGT {
		return "with GT"
	}
	return "without GT"
}
