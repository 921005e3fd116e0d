package ui

import (
	"context"

	"github.com/jigbench/jigbench/core/vigor"
	"github.com/jigbench/jigbench/ui/ratesession"
)

// Video items in Rate: a process item given as a video has no frames until
// they are taken from it, with ffmpeg, into the cache keyed by the video's
// digest (docs/vigor-campaign.md, "Video outputs in a split"). Opening a
// split takes none; an item's frames are taken when it is first shown, on
// a worker, while its output panel says so, and the next item's in the
// background so it is ready when the rater gets there.

// needsFrames reports whether it is a video item whose frames are not taken yet.
func needsFrames(it *vigor.Item) bool {
	return it.Track == vigor.TrackProcess && it.Video != "" && len(it.Frames) == 0
}

// showExtracting puts the placeholder of a video item whose frames are
// being taken on screen and starts taking them, or says why taking them
// failed before.
func (p *RatePane) showExtracting(it *vigor.Item) {
	p.strip.reset(0)
	p.scrubber.Hide()
	p.frameBox.Show()
	setText(p.output.caption, "Output: video")
	if err := p.frameErrs[it]; err != nil {
		p.showFrameError(err)
		return
	}
	p.output.clear("Extracting frames…")
	p.extractFrames(p.s, it)
}

// showFrameError says in the output panel and the status line why a video
// item has no frames.
func (p *RatePane) showFrameError(err error) {
	msg := err.Error() + " (open the split again to retry)"
	p.output.clear(msg)
	p.status.Set(msg)
}

// extractFrames takes the frames of video item it of session s on a worker,
// once at a time per item and not again after a failure; when they are in,
// the item gets them and, if it is still the one shown, is shown again with
// them.
func (p *RatePane) extractFrames(s *ratesession.Session, it *vigor.Item) {
	if p.extracting == nil {
		p.extracting = map[*vigor.Item]bool{}
	}
	if p.extracting[it] || p.frameErrs[it] != nil {
		return
	}
	p.extracting[it] = true
	sp, item := s.Split, *it // the worker reads a copy; the UI goroutine writes it.Frames
	p.work.Go(func() func() {
		frames, err := sp.VideoFrames(context.Background(), &item, "")
		return func() {
			delete(p.extracting, it)
			if err == nil && len(it.Frames) == 0 {
				it.Frames = frames
			}
			if p.s != s {
				return // another split was opened meanwhile
			}
			if err != nil {
				if p.frameErrs == nil {
					p.frameErrs = map[*vigor.Item]error{}
				}
				p.frameErrs[it] = err
			}
			if s.Item() != it {
				return // not on screen: shown with its frames (or its error) when it is
			}
			if err != nil {
				p.showFrameError(err)
				return
			}
			p.show()
		}
	})
}

// prefetchFrames starts taking the frames of the next video item ahead.
func (p *RatePane) prefetchFrames() {
	s := p.s
	for _, pos := range s.Ahead(1) {
		if it := s.ItemAt(pos); needsFrames(it) {
			p.extractFrames(s, it)
		}
	}
}
