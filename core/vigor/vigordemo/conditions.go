package vigordemo

import (
	"hash/fnv"

	"github.com/jigbench/jigbench/core/vigor"
)

// MixedCondition makes the runs of a third, made-up judge condition named
// name from the demo's two: for every with-GT record that has a without-GT
// record of the same item and run, each dimension's score is taken from
// one of the two, chosen by a hash of the item and dimension. It shows
// how the app lays out more than two conditions (the screenshot tour); it
// is not a model of any real template variant.
func MixedCondition(judge []vigor.JudgeRecord, name vigor.Condition) []vigor.JudgeRecord {
	type key struct {
		item string
		run  int
	}
	without := map[key]vigor.JudgeRecord{}
	for _, r := range judge {
		if r.Condition == vigor.WithoutGT {
			without[key{r.Item, r.Run}] = r
		}
	}
	var out []vigor.JudgeRecord
	for _, r := range judge {
		w, ok := without[key{r.Item, r.Run}]
		if r.Condition != vigor.WithGT || !ok {
			continue
		}
		m := r
		m.Condition, m.Source, m.Line = name, "mixed", 0
		for d := range m.Scores {
			h := fnv.New32a()
			h.Write([]byte{byte(d)})
			h.Write([]byte(r.Item))
			if h.Sum32()%2 == 0 {
				m.Scores[d] = w.Scores[d]
			}
		}
		out = append(out, m)
	}
	return out
}
