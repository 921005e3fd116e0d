package bench

import (
	"fmt"

	"github.com/jigbench/jigbench/core/puzzle"
	"github.com/jigbench/jigbench/core/render"
)

// PreviewTarget is issue #5's bound: re-rendering the Generate pane's preview
// after a seed change costs less than encoding the sheet as PNG once.
const PreviewTarget = 1.0

// Preview measures the app's preview update after a seed change for a 16×16
// puzzle at size 1024 — both sheets, the solved image with its edge overlay,
// and their zoom pyramids, from the already scaled source the app keeps —
// against the floor of encoding the shape sheet as PNG once.
func Preview(src []byte) (Case, error) {
	const n = 16
	opt := puzzle.DefaultOptions()
	s, err := render.DecodeSource("bench.jpg", "bench", src)
	if err != nil {
		return Case{}, err
	}
	prep, err := render.Prepare(s, opt.Size, n)
	if err != nil {
		return Case{}, err
	}
	first, err := render.NewPreview(s, prep, n, 1, opt)
	if err != nil {
		return Case{}, err
	}
	seed := uint64(1)
	return Case{
		Name:      fmt.Sprintf("preview after a seed change, %d×%d", n, n),
		FloorName: "encode the shape sheet as PNG once",
		Target:    PreviewTarget,
		Work: func() error {
			seed++
			_, err := render.NewPreview(s, prep, n, seed, opt)
			return err
		},
		Floor: func() error {
			_, err := encodeStd(first.Gen.Shape)
			return err
		},
	}, nil
}
