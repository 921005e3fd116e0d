package ui

import (
	"fmt"
	"strconv"
	"strings"

	"fyne.io/fyne/v2"

	"github.com/jigbench/jigbench/core/vigor"
)

// The Rate pane's key map, one scheme on both tracks (README "Keyboard",
// Help ▸ Keyboard shortcuts and the line above the dimensions say the
// same):
//
//	↑ ↓, Tab, Shift+Tab  choose the dimension (never type)
//	0–9, Backspace        process: type the chosen dimension's score (never choose)
//	1–4                   result: switch that criterion Yes/No
//	Y N                   result: the chosen criterion Yes / No
//	0                     result: every criterion not set is No
//	Enter                 next unrated item, once every dimension is set
//	← →                   previous / next item, everywhere
//
// The rating area (rateArea) holds the keyboard while Rate is shown, so
// these keys reach the pane whatever was clicked or shown before.

// keyHelp is the key scheme as the pane shows it beside the dimensions;
// compact is its one-line form.
func keyHelp(track vigor.Track, compact bool) string {
	switch {
	case compact && track == vigor.TrackResult:
		return "↑↓ Tab choose · 1–4 Yes/No · Y N · 0 rest No · Enter next · ← → items · R rubric"
	case compact:
		return "↑↓ Tab choose · digits type 0–100 · Backspace · Enter next · ← → items · R rubric"
	case track == vigor.TrackResult:
		return "Keys: ↑ ↓ (Tab) choose a criterion · 1–4 switch it Yes/No · Y N set the chosen one · " +
			"0 sets every unset one to No · Enter next unrated · ← → items · F flag · C comment · H hide ground truth · R rubric text"
	}
	return "Keys: ↑ ↓ (Tab) choose a score · digits type it (0–100), Backspace deletes · " +
		"Enter next unrated · ← → items · , . frames · F flag · C comment · H hide ground truth · R rubric text"
}

// TypedRune handles the pane's single-key commands.
func (p *RatePane) TypedRune(r rune) {
	if p.s == nil {
		return
	}
	p.acted()
	it := p.s.Item()
	if it.Track == vigor.TrackProcess && r >= '0' && r <= '9' {
		p.typeDigit(r)
		return
	}
	if it.Track == vigor.TrackResult {
		switch r {
		case '1', '2', '3', '4':
			p.toggleResult(int(r - '1'))
			return
		case '0':
			p.unsetToNo()
			return
		case 'y', 'Y':
			p.setScore(p.active, 1)
			return
		case 'n', 'N':
			p.setScore(p.active, 0)
			return
		}
	}
	switch r {
	case 'f', 'F':
		if p.commitDraft() {
			p.setFlag(!p.s.Rating(p.s.Item()).Flagged)
		}
	case 'c', 'C':
		if p.commitDraft() {
			p.askComment()
		}
	case 'h', 'H':
		p.hideGT.SetChecked(!p.hideGT.Checked)
	case 'r', 'R':
		p.setCompact(!p.compact)
	case 'g', 'G':
		if p.commitDraft() {
			p.askJump()
		}
	case ',':
		p.showFrame(p.s.Frame() - 1)
	case '.':
		p.showFrame(p.s.Frame() + 1)
	}
}

// TypedKey handles Enter, the arrows, Tab and the frame keys.
func (p *RatePane) TypedKey(e *fyne.KeyEvent) {
	if p.s == nil {
		return
	}
	p.acted()
	switch e.Name {
	case fyne.KeyReturn, fyne.KeyEnter:
		p.enter()
	case fyne.KeyLeft:
		p.step(-1)
	case fyne.KeyRight:
		p.step(1)
	case fyne.KeyUp:
		p.chooseDim(p.active-1, false)
	case fyne.KeyDown:
		p.chooseDim(p.active+1, false)
	case fyne.KeyTab:
		p.chooseDim(p.active+1, true)
	case keyBackTab:
		p.chooseDim(p.active-1, true)
	case fyne.KeyBackspace, fyne.KeyDelete:
		p.backspace()
	case fyne.KeyPageUp:
		p.showFrame(p.s.Frame() - 10)
	case fyne.KeyPageDown:
		p.showFrame(p.s.Frame() + 10)
	case fyne.KeyHome:
		p.showFrame(0)
	case fyne.KeyEnd:
		p.showFrame(len(p.s.Item().Frames) - 1)
	case fyne.KeyEscape:
		p.dropDraft()
	}
}

// acted clears the last hint: a hint stays until the rater's next key.
func (p *RatePane) acted() { p.hint("") }

// hint shows msg beside the dimensions until the rater acts.
func (p *RatePane) hint(msg string) {
	setText(p.prompt, msg)
	if msg == "" {
		p.prompt.Hide()
	} else {
		p.prompt.Show()
	}
}

// chooseDim makes d the chosen dimension, first saving what was typed
// into the one before. wrap makes Tab go round; the arrows stop at the ends.
func (p *RatePane) chooseDim(d int, wrap bool) {
	if !p.commitDraft() {
		return
	}
	if wrap {
		d = (d + vigor.NumDims) % vigor.NumDims
	}
	d = min(max(d, 0), vigor.NumDims-1)
	p.active = d
	p.showScores()
	p.scrollToDim(d)
}

// toggleResult is key 1–4 on a result item.
func (p *RatePane) toggleResult(d int) {
	p.active = d
	if p.s.Rating(p.s.Item()).Scores[d] == 1 {
		p.setScore(d, 0)
	} else {
		p.setScore(d, 1)
	}
	p.scrollToDim(d)
}

// unsetToNo is key 0 on a result item: the explicit "the rest are No".
func (p *RatePane) unsetToNo() {
	if p.s.Rating(p.s.Item()).Scores.Complete() {
		return
	}
	p.edit(func(r *vigor.Rating) {
		for d, v := range r.Scores {
			if v == vigor.NoScore {
				r.Scores[d] = 0
			}
		}
	})
}

// maxScoreDigits is the longest score a field takes ("100").
const maxScoreDigits = 3

// typeDigit types r into the chosen process field. The first digit after
// choosing a dimension replaces what the field showed; a key that would
// make the text something other than a whole number from 0 to 100 is
// refused, and the field keeps exactly what it held.
func (p *RatePane) typeDigit(r rune) {
	d := p.active
	cur := ""
	if p.drafting {
		cur = p.draft
	}
	next := cur + string(r)
	c := p.s.Split.Rubric(p.s.Item())[d]
	why := ""
	switch v, _ := strconv.Atoi(next); {
	case len(next) > maxScoreDigits:
		why = "a score has at most three digits"
	case len(next) > 1 && next[0] == '0':
		why = "a score does not start with 0"
	case v > vigor.MaxProcessScore:
		why = fmt.Sprintf("%s is over %d", next, vigor.MaxProcessScore)
	}
	if why != "" {
		p.refused = true
		p.drafting = true
		p.draft = cur
		p.showScores()
		p.hint(fmt.Sprintf("%s: %q refused, %s. Scores are whole numbers from 0 to %d; the field holds %q (Backspace edits, Esc drops it).",
			c.Short, next, why, vigor.MaxProcessScore, cur))
		return
	}
	p.refused = false
	p.drafting = true
	p.draft = next
	p.showScores()
}

// backspace deletes the last typed digit of the chosen process field.
func (p *RatePane) backspace() {
	if p.s.Item().Track != vigor.TrackProcess {
		return
	}
	if !p.drafting {
		p.drafting = true
		p.draft = p.fieldText(p.active)
	}
	if p.draft != "" {
		p.draft = p.draft[:len(p.draft)-1]
	}
	p.refused = false
	p.showScores()
}

// dropDraft forgets what was typed and shows the stored score again.
func (p *RatePane) dropDraft() {
	p.drafting, p.draft, p.refused = false, "", false
	if p.s != nil {
		p.showScores()
	}
}

// fieldText is the saved score of dimension d as its field shows it.
func (p *RatePane) fieldText(d int) string {
	v := p.s.Rating(p.s.Item()).Scores[d]
	if v == vigor.NoScore {
		return ""
	}
	return strconv.Itoa(v)
}

// commitDraft saves what was typed into the chosen field. It reports
// false, saving nothing, while the field shows a refused key: the rater
// fixes the field first.
func (p *RatePane) commitDraft() bool {
	if !p.drafting {
		return true
	}
	if p.refused {
		c := p.s.Split.Rubric(p.s.Item())[p.active]
		p.hint(fmt.Sprintf("%s holds a refused key: fix it (Backspace, then type) or press Esc to drop what was typed.", c.Short))
		return false
	}
	text := p.draft
	p.drafting, p.draft = false, ""
	if text == "" { // emptied: the stored score stays
		p.showScores()
		return true
	}
	v, err := strconv.Atoi(text)
	if err != nil || v < 0 || v > vigor.MaxProcessScore { // typeDigit lets nothing else through
		p.showScores()
		return true
	}
	if v != p.s.Rating(p.s.Item()).Scores[p.active] {
		p.setScore(p.active, v)
	} else {
		p.showScores()
	}
	return true
}

// missing names the dimensions of the current item not set yet.
func (p *RatePane) missing() (first int, names string) {
	it := p.s.Item()
	r := p.s.Rating(it)
	rubric := p.s.Split.Rubric(it)
	first = -1
	var parts []string
	for d, v := range r.Scores {
		if v == vigor.NoScore {
			if first < 0 {
				first = d
			}
			parts = append(parts, fmt.Sprintf("%d %s", d+1, rubric[d].Short))
		}
	}
	return first, strings.Join(parts, ", ")
}
