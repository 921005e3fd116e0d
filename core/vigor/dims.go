// Package vigor implements the ViGoR-Bench meta-evaluation: split folders,
// the durable ratings store, judge-run files and the statistics that compare
// a VLM judge with human raters (the paper's Table 2 and more).
//
// Scores are kept as the integers the raters and the judge gave (0/1 for the
// result track, 0–100 for the process track) and put on a 0–1 scale only for
// the statistics, so bucketing and majorities are exact.
package vigor

import (
	"fmt"
	"strings"
	"unicode"
)

// Track is the kind of output judged.
type Track string

// The two tracks of docs/formats.md, "Ratings".
const (
	TrackResult  Track = "result"  // one final image, binary scores
	TrackProcess Track = "process" // a sequence of frames, 0–100 scores
)

// Tracks lists the tracks in report order (process first, as in Table 2).
var Tracks = [...]Track{TrackProcess, TrackResult}

// Valid reports whether t is a known track.
func (t Track) Valid() bool { return t == TrackResult || t == TrackProcess }

// Max is the top of the track's integer scale: 1 or 100.
func (t Track) Max() int {
	if t == TrackProcess {
		return 100
	}
	return 1
}

// NumDims is the number of rubric dimensions per track.
const NumDims = 4

// Dim indexes the four dimensions; the fourth is reasoning_success on the
// result track and reasoning_accuracy on the process track.
type Dim int

// The dimensions in rubric order.
const (
	BackgroundConsistency Dim = iota
	RuleObey
	VisualQuality
	Reasoning
)

// Dims lists the dimensions in rubric order.
var Dims = [NumDims]Dim{BackgroundConsistency, RuleObey, VisualQuality, Reasoning}

// dimInfo is the one table of dimension names. Index 0 of the per-track
// fields is the result track, index 1 the process track.
var dimInfo = [NumDims]struct {
	name  [2]string // canonical snake_case name per track
	short [2]string
	title [2]string
	// aliases are extra accepted spellings (normalised: lower case,
	// underscores), valid on either track.
	aliases []string
}{
	{name: [2]string{"background_consistency", "background_consistency"}, short: [2]string{"BC", "BC"},
		title: [2]string{"Background Consistency", "Background Consistency"}},
	{name: [2]string{"rule_obey", "rule_obey"}, short: [2]string{"RO", "RO"},
		title: [2]string{"Rule Obey", "Rule Obey"}, aliases: []string{"rule_obedience", "rule_following"}},
	{name: [2]string{"visual_quality", "visual_quality"}, short: [2]string{"VQ", "VQ"},
		title: [2]string{"Visual Quality", "Visual Quality"}},
	{name: [2]string{"reasoning_success", "reasoning_accuracy"}, short: [2]string{"RS", "RA"},
		title: [2]string{"Reasoning Success", "Reasoning Accuracy"},
		// Judge templates call the process dimension "Beneficial Action";
		// the ratings CSV calls it "reasoning" for both tracks.
		aliases: []string{"beneficial_action", "reasoning"}},
}

func trackIndex(t Track) int {
	if t == TrackProcess {
		return 1
	}
	return 0
}

// Name is the dimension's snake_case name on track t.
func (d Dim) Name(t Track) string { return dimInfo[d].name[trackIndex(t)] }

// Short is the two-letter name (BC, RO, VQ, RS/RA).
func (d Dim) Short(t Track) string { return dimInfo[d].short[trackIndex(t)] }

// Title is the human-readable name.
func (d Dim) Title(t Track) string { return dimInfo[d].title[trackIndex(t)] }

// String is the track-neutral name, used where both tracks are meant.
func (d Dim) String() string {
	if d == Reasoning {
		return "reasoning"
	}
	return dimInfo[d].name[0]
}

// dimAliases maps every normalised spelling to its dimension.
var dimAliases = func() map[string]Dim {
	m := make(map[string]Dim)
	for d, info := range dimInfo {
		for i := range 2 {
			m[normKey(info.name[i])] = Dim(d)
			m[normKey(info.short[i])] = Dim(d)
			m[normKey(info.title[i])] = Dim(d)
		}
		for _, a := range info.aliases {
			m[normKey(a)] = Dim(d)
		}
	}
	return m
}()

// ParseDim maps a dimension name in any accepted spelling — snake_case,
// Title Case, the short names, "beneficial_action", "reasoning" — to its
// dimension. Either reasoning name is accepted on either track: the fourth
// dimension is the same column whatever a file calls it.
func ParseDim(s string) (Dim, bool) {
	d, ok := dimAliases[normKey(s)]
	return d, ok
}

// normKey lower-cases s and turns runs of spaces, hyphens and underscores
// into one underscore, so "Rule Obey", "rule-obey" and "RULE_OBEY" agree.
func normKey(s string) string {
	var b strings.Builder
	sep := false
	for _, r := range strings.TrimSpace(s) {
		if r == ' ' || r == '-' || r == '_' {
			sep = true
			continue
		}
		if sep && b.Len() > 0 {
			b.WriteByte('_')
		}
		sep = false
		b.WriteRune(unicode.ToLower(r))
	}
	return b.String()
}

// NoScore marks a dimension that has not been scored (yet).
const NoScore = -1

// Scores holds one score per dimension on the track's integer scale, or
// NoScore.
type Scores [NumDims]int

// Unscored returns Scores with every dimension NoScore.
func Unscored() Scores { return Scores{NoScore, NoScore, NoScore, NoScore} }

// Complete reports whether every dimension is scored.
func (s Scores) Complete() bool {
	for _, v := range s {
		if v == NoScore {
			return false
		}
	}
	return true
}

// Any reports whether at least one dimension is scored.
func (s Scores) Any() bool {
	for _, v := range s {
		if v != NoScore {
			return true
		}
	}
	return false
}

// CheckScale returns an error naming the first score that is off track t's
// scale. NoScore is allowed.
func (s Scores) CheckScale(t Track) error {
	for d, v := range s {
		if err := checkScore(t, Dim(d), v); err != nil {
			return err
		}
	}
	return nil
}

func checkScore(t Track, d Dim, v int) error {
	if v == NoScore {
		return nil
	}
	return checkValue(t, d, v)
}

// checkValue checks a score read from a file, where NoScore's -1 is just
// another negative number.
func checkValue(t Track, d Dim, v int) error {
	if v >= 0 && v <= t.Max() {
		return nil
	}
	if t == TrackResult {
		return fmt.Errorf("%s is %d; result-track scores are 0 or 1", d.Name(t), v)
	}
	return fmt.Errorf("%s is %d; process-track scores are integers from 0 to 100", d.Name(t), v)
}
