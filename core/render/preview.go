package render

import (
	"image"
	"sync"

	"github.com/jigbench/jigbench/core/puzzle"
)

// Preview is what the app shows of an instance: the instance and its images
// as pyramids ready for zooming. The solved image with the edge overlay is
// made only when asked for (Edges), since it is shown only on request.
type Preview struct {
	Gen                 *Generated
	Shape, Rect, Solved *Pyramid

	edgesOnce sync.Once
	edges     *Pyramid
}

// NewPreview renders the instance of an already prepared source (see
// GenerateFrom) and its pyramids, the pyramids in parallel. It is the work
// behind every preview update.
func NewPreview(src *Source, prep *Prepared, n int, seed uint64, opt puzzle.Options) (*Preview, error) {
	gen, err := GenerateFrom(src, prep, n, seed, opt)
	if err != nil {
		return nil, err
	}
	return PreviewOf(gen), nil
}

// PreviewOf builds the pyramids of an instance already in memory.
func PreviewOf(gen *Generated) *Preview {
	p := &Preview{Gen: gen}
	var wg sync.WaitGroup
	for dst, img := range map[**Pyramid]*image.RGBA{&p.Shape: gen.Shape, &p.Rect: gen.Rect, &p.Solved: gen.Solved} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			*dst = NewPyramid(img)
		}()
	}
	wg.Wait()
	return p
}

// Edges is the solved image with the edge overlay (EdgeOverlay), made on the
// first call; nil when the instance's geometry is unknown. Call it off the UI
// thread the first time.
func (p *Preview) Edges() *Pyramid {
	p.edgesOnce.Do(func() {
		if p.Gen.Puzzle != nil {
			p.edges = NewPyramid(EdgeOverlay(p.Gen.Puzzle, p.Gen.Solved))
		}
	})
	return p.edges
}
