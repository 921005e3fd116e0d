package vigor

import (
	"encoding/json"
	"fmt"
	"strings"
)

// Criterion is what a rater reads for one dimension of one item.
type Criterion struct {
	Dim   Dim
	Name  string // snake_case name on the item's track
	Short string // BC, RO, VQ, RS / RA
	Title string
	Scale string // "0 or 1" or "0–100"
	Text  string // how to score it
}

// defaultRubric is our own wording of the four dimensions (docs/formats.md, "Splits"),
// written so a rater can apply it without the paper's per-domain templates.
var defaultRubric = map[Track][NumDims]string{
	TrackResult: {
		"1 if the output keeps the main structure of the input: everything the instruction did not ask " +
			"to change is still there, in place and recognisable. 0 if unrelated regions were altered, " +
			"removed, added to or redrawn.",
		"1 if the output follows the instruction and every explicit rule of the task (for example: each " +
			"piece used exactly once, a path that stays inside the corridors, digits unique per row, column " +
			"and box, objects put in the container the rule names). 0 if any rule is broken, even once.",
		"1 if the image is clean and plausible at normal viewing size: sharp, free of distortions, smears, " +
			"melted shapes, garbled text or physically impossible objects. 0 if degradation is noticeable.",
		"1 only if the final state is a correct solution: it matches the ground-truth image or answer in " +
			"everything that matters for the task. A partial or nearly-right solution scores 0.",
	},
	TrackProcess: {
		"The percentage of the output frames (0–100) in which the main structure of the input is " +
			"preserved: regions the task does not touch stay as they were. 100 = every frame, 0 = none.",
		"The percentage of frames whose edits follow the instruction and the task's rules (each piece " +
			"placed once, moves along open corridors, values allowed by the constraints). A frame that " +
			"breaks a rule does not count.",
		"The percentage of frames that are clean: sharp, free of flicker, noise, distortion and " +
			"artefacts. Judge the sequence as a whole; one glitchy frame costs its share, not everything.",
		"The percentage of frames whose edits make real progress toward the ground-truth solution. Steps " +
			"that are random, undo earlier progress or add wrong content do not count; a sequence that " +
			"ends at the correct answer by valid steps scores 100.",
	},
}

// DefaultRubric returns the built-in criteria for track t.
func DefaultRubric(t Track) [NumDims]Criterion {
	var cs [NumDims]Criterion
	scale := "0 or 1"
	if t == TrackProcess {
		scale = "0–100"
	}
	for _, d := range Dims {
		cs[d] = Criterion{Dim: d, Name: d.Name(t), Short: d.Short(t), Title: d.Title(t), Scale: scale,
			Text: defaultRubric[t][d]}
	}
	return cs
}

// Rubric returns the criteria for it: the defaults of its track with the
// split's per-subdomain overrides applied.
func (s *Split) Rubric(it *Item) [NumDims]Criterion {
	cs := DefaultRubric(it.Track)
	if o, ok := s.overrides[it.Subdomain][it.Track]; ok {
		for d, text := range o {
			if text != "" {
				cs[d].Text = text
			}
		}
	}
	return cs
}

// parseRubrics validates the optional rubrics block:
// {"<subdomain>": {"<track>": {"<dimension>": "text", …}, …}, …}.
// Mistakes are warnings: the rater then sees the default text.
func (s *Split) parseRubrics(raw json.RawMessage) []Problem {
	var probs []Problem
	warn := func(field, format string, a ...any) {
		probs = append(probs, Problem{Field: field, Msg: fmt.Sprintf(format, a...)})
	}
	var block map[string]map[string]map[string]string
	if err := json.Unmarshal(raw, &block); err != nil {
		warn("rubrics", "want {subdomain: {track: {dimension: text}}}; the default rubric is used")
		return probs
	}
	subdomains := make(map[string]bool)
	for i := range s.Items {
		subdomains[s.Items[i].Subdomain] = true
	}
	s.Rubrics = make(map[string]map[Track]map[string]string)
	s.overrides = make(map[string]map[Track][NumDims]string)
	for _, sub := range sortedKeys(block) {
		field := "rubrics." + sub
		if !subdomains[sub] {
			warn(field, "no item has subdomain %q", sub)
		}
		for _, tr := range sortedKeys(block[sub]) {
			t := Track(tr)
			if !t.Valid() {
				warn(field+"."+tr, "unknown track; want %q or %q", TrackResult, TrackProcess)
				continue
			}
			var texts [NumDims]string
			for _, name := range sortedKeys(block[sub][tr]) {
				d, ok := ParseDim(name)
				if !ok {
					warn(field+"."+tr+"."+name, "unknown dimension")
					continue
				}
				texts[d] = strings.TrimSpace(block[sub][tr][name])
			}
			if s.overrides[sub] == nil {
				s.overrides[sub] = make(map[Track][NumDims]string)
				s.Rubrics[sub] = make(map[Track]map[string]string)
			}
			s.overrides[sub][t] = texts
			s.Rubrics[sub][t] = block[sub][tr]
		}
	}
	return probs
}
