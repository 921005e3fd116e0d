package app

import (
	"context"
	"errors"
	"fmt"

	"github.com/jigbench/jigbench/core/vigor"
)

// vigorGather reads an analysis input for the vigor commands through
// vigor.Gather, as the app's Agreement pane does: the split, the rating
// exports, the store's ratings of the split when asked, and the judge
// runs. Records left out are warned about on stderr.
func vigorGather(e *env, split, db string, useStore bool, humans []string, judge []vigor.JudgeFile) (vigor.Input, error) {
	sp, err := vigor.LoadMeta(split)
	if err != nil {
		return vigor.Input{}, err
	}
	src := vigor.Sources{HumanFiles: humans, Judge: judge}
	if useStore {
		ctx := context.Background()
		st, err := vigorOpenStore(ctx, db, true)
		if err != nil {
			return vigor.Input{}, err
		}
		q, err := vigorSplitQuery(sp)
		if err != nil {
			st.Close()
			return vigor.Input{}, err
		}
		src.Stored, err = st.List(ctx, q)
		st.Close()
		if err != nil {
			return vigor.Input{}, err
		}
	}
	in, probs, err := vigor.Gather(sp, src)
	if err != nil {
		return in, err
	}
	if len(in.Judge) == 0 {
		if len(probs) > 0 {
			return in, fmt.Errorf("no judge record could be read (%d problem%s; the first: %s)", len(probs), vigorPlural(len(probs)), probs[0])
		}
		return in, errors.New("the judge files hold no records")
	}
	for i, p := range probs {
		if i == maxListedWarnings { // 100k bad lines must not become 100k lines of output
			break
		}
		fmt.Fprintf(e.stderr, "jigbench: vigor: warning: record left out: %s\n", p)
	}
	switch skipped := len(probs); {
	case skipped > maxListedWarnings:
		fmt.Fprintf(e.stderr, "jigbench: vigor: warning: %d judge records left out (the first %d listed above)\n", skipped, maxListedWarnings)
	case skipped > 0:
		fmt.Fprintf(e.stderr, "jigbench: vigor: warning: %d judge record%s left out (listed above)\n", skipped, vigorPlural(skipped))
	}
	return in, nil
}
