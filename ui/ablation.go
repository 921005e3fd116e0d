package ui

import (
	"fmt"
	"image"
	"image/color"
	"sync/atomic"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/jigbench/jigbench/core/puzzle"
	"github.com/jigbench/jigbench/core/render"
	"github.com/jigbench/jigbench/core/score"
)

// Highlight colours: hover, pinned selection, and the pieces of the
// marked type (corner, border or interior).
var (
	hoverColour  = color.NRGBA{R: 255, G: 196, B: 0, A: 255}
	pinnedColour = color.NRGBA{R: 0, G: 200, B: 255, A: 255}
	kindColour   = color.NRGBA{R: 230, G: 60, B: 200, A: 255}
)

// Choices of the piece-type marks.
const (
	markNone     = "No piece marks"
	markCorner   = "Mark corners"
	markBorder   = "Mark border pieces"
	markInterior = "Mark interior pieces"
)

var markKinds = map[string]score.PieceType{markCorner: score.Corner, markBorder: score.Border, markInterior: score.Interior}

// AblationPane shows one instance's shape and rectangular sheets side by
// side with one zoom and pan, and where each piece truly belongs.
type AblationPane struct {
	deps
	// generated is the puzzle the Generate pane shows, if any: the pane
	// opens on it.
	generated func() *render.Generated

	zoom        *ZoomState
	shape, rect *ZoomView
	solved      *ZoomView
	position    *widget.Label
	pieceInfo   *widget.Label
	gridFilter  *widget.Select
	prev, next  *widget.Button
	sheets      *fyne.Container
	overlay     *widget.Check  // grid and IDs over the solved image
	kinds       *widget.Select // which piece type to mark

	refs     []puzzle.InstanceRef // the open folder's instances
	filtered []int                // indices into refs shown by the filter
	pos      int                  // index into filtered
	current  *loadedInstance
	hovered  int // piece ID under the pointer, -1 none
	pinned   int // piece ID clicked, -1 none

	request atomic.Uint64
}

// loadedInstance is an instance ready to show.
type loadedInstance struct {
	*render.Preview
	solved *render.Pyramid // with the edge overlay when the geometry is known
	grid   *render.Pyramid // solved, with the grid and each cell's piece ID
	note   string          // why the edge overlay is missing, if it is
}

// newAblationPane makes the pane; it opens on the Generate pane's puzzle.
func newAblationPane(d deps, generated func() *render.Generated) *AblationPane {
	return &AblationPane{deps: d, generated: generated, hovered: -1, pinned: -1}
}

// Title implements Pane.
func (a *AblationPane) Title() string { return "Ablation" }

// Icon implements Pane.
func (a *AblationPane) Icon() fyne.Resource { return theme.ViewRestoreIcon() }

// View implements Pane.
func (a *AblationPane) View() fyne.CanvasObject {
	a.zoom = NewZoomState()
	a.shape, a.rect = NewZoomView(a.zoom), NewZoomView(a.zoom)
	a.solved = NewZoomView(nil)
	for _, z := range []*ZoomView{a.shape, a.rect} {
		z.OnHover = a.hoverSheet
		z.OnTap = a.tapSheet
	}
	a.solved.OnHover = a.hoverSolved
	a.solved.OnTap = a.tapSolved

	openOne := widget.NewButtonWithIcon("Open instance…", theme.FolderOpenIcon(), func() { a.openDialog("Open an instance folder") })
	openMany := widget.NewButtonWithIcon("Open folder of instances…", theme.FolderIcon(), func() { a.openDialog("Open a folder of instances") })
	a.gridFilter = widget.NewSelect([]string{"All grids"}, func(string) { a.applyFilter() })
	a.prev = widget.NewButtonWithIcon("", theme.NavigateBackIcon(), a.Previous)
	a.next = widget.NewButtonWithIcon("", theme.NavigateNextIcon(), a.Next)
	a.position = widget.NewLabel("")
	a.position.Truncation = fyne.TextTruncateEllipsis
	top := container.NewVBox(
		container.NewBorder(nil, nil,
			container.NewHBox(openOne, openMany, widget.NewLabel("Grid"), a.gridFilter, a.prev, a.next),
			zoomToolbar(func() *ZoomState { return a.zoom })),
		a.position)

	caption := func(s string) fyne.CanvasObject {
		return widget.NewLabelWithStyle(s, fyne.TextAlignCenter, fyne.TextStyle{Bold: true})
	}
	a.sheets = container.New(&sheetPairLayout{aspect: a.sheetAspect},
		container.NewBorder(caption("Shape sheet"), nil, nil, nil, a.shape),
		container.NewBorder(caption("Rectangular sheet"), nil, nil, nil, a.rect),
	)
	a.pieceInfo = widget.NewLabel("")
	a.pieceInfo.Wrapping = fyne.TextWrapWord
	a.overlay = widget.NewCheck("Grid and piece IDs", func(bool) { a.showSolvedImage() })
	a.kinds = widget.NewSelect([]string{markNone, markCorner, markBorder, markInterior}, func(string) { a.highlight() })
	a.kinds.SetSelected(markNone)
	side := container.New(&fixedWidthLayout{width: 280}, container.NewBorder(
		container.NewVBox(caption("Solved, with edges"), a.overlay, a.kinds),
		a.pieceInfo, nil, nil, a.solved))

	a.gridFilter.SetSelected("All grids")
	a.updateNav()
	if a.current == nil {
		if g := a.generated(); g != nil {
			a.ShowGenerated(g)
		}
	}
	return container.NewBorder(top, nil, nil, container.NewPadded(side), a.sheets)
}

func (a *AblationPane) openDialog(title string) {
	a.openFolder(title, a.Open)
}

// Open shows the instance folder dir, or steps through the instance folders inside it.
func (a *AblationPane) Open(dir string) {
	a.status.Set("Looking for instances in " + dir + "…")
	id := a.request.Add(1) // anything loading before is no longer wanted
	a.work.Go(func() func() {
		refs, err := puzzle.FindInstances(dir)
		return func() {
			if a.request.Load() != id {
				return
			}
			if err != nil && len(refs) == 0 {
				a.showError(err)
				return
			}
			if err != nil {
				a.status.Set(capitalise(err.Error()) + ".")
			}
			a.recent(dir)
			a.refs = refs
			grids := map[int]bool{}
			options := []string{"All grids"}
			for _, r := range refs {
				if !grids[r.Grid] {
					grids[r.Grid] = true
				}
			}
			for n := puzzle.MinGrid; n <= puzzle.MaxGrid; n++ {
				if grids[n] {
					options = append(options, fmt.Sprintf("%d×%d", n, n))
				}
			}
			a.gridFilter.Options = options
			a.gridFilter.SetSelected("All grids") // may not fire if unchanged
			a.applyFilter()
		}
	})
}

// applyFilter rebuilds the list of shown instances and shows the first.
func (a *AblationPane) applyFilter() {
	if a.gridFilter == nil {
		return
	}
	want := 0
	if sel := a.gridFilter.Selected; sel != "" && sel != "All grids" {
		fmt.Sscanf(sel, "%d×", &want)
	}
	a.filtered = a.filtered[:0]
	for i, r := range a.refs {
		if want == 0 || r.Grid == want {
			a.filtered = append(a.filtered, i)
		}
	}
	a.pos = 0
	a.updateNav()
	if len(a.filtered) > 0 {
		a.load(a.refs[a.filtered[0]].Dir)
	}
}

// Next shows the next instance of the open folder.
func (a *AblationPane) Next() { a.step(1) }

// Previous shows the previous instance.
func (a *AblationPane) Previous() { a.step(-1) }

func (a *AblationPane) step(d int) {
	if len(a.filtered) == 0 {
		return
	}
	a.pos = (a.pos + d + len(a.filtered)) % len(a.filtered)
	a.updateNav()
	a.load(a.refs[a.filtered[a.pos]].Dir)
}

func (a *AblationPane) updateNav() {
	if a.prev == nil {
		return
	}
	if len(a.filtered) > 1 {
		a.prev.Enable()
		a.next.Enable()
	} else {
		a.prev.Disable()
		a.next.Disable()
	}
}

// load reads an instance folder off the UI goroutine and shows it.
func (a *AblationPane) load(dir string) {
	id := a.request.Add(1)
	a.work.Go(func() func() {
		gen, err := render.LoadInstance(dir)
		var li *loadedInstance
		if gen != nil {
			li = prepareInstance(gen)
			if err != nil {
				li.note = err.Error()
			}
		}
		return func() {
			if a.request.Load() != id {
				return
			}
			if li == nil {
				a.showError(err)
				return
			}
			a.show(li)
		}
	})
}

// prepareInstance builds what the views need; it runs on a worker goroutine.
func prepareInstance(gen *render.Generated) *loadedInstance {
	li := &loadedInstance{Preview: render.PreviewOf(gen)}
	li.solved = li.Edges()
	if li.solved == nil {
		li.solved = li.Solved
	}
	inst := gen.Instance
	li.grid = render.NewPyramid(render.GridOverlay(li.solved.Image(), inst.Grid, inst.Piece.Width, inst.Piece.Height, inst.Solution))
	return li
}

// ShowGenerated shows an instance that is only in memory (from the Generate pane).
func (a *AblationPane) ShowGenerated(gen *render.Generated) {
	a.refs, a.filtered, a.pos = nil, nil, 0
	a.updateNav()
	id := a.request.Add(1)
	a.work.Go(func() func() {
		li := prepareInstance(gen)
		return func() {
			if a.request.Load() == id {
				a.show(li)
			}
		}
	})
}

func (a *AblationPane) show(li *loadedInstance) {
	a.current = li
	a.hovered, a.pinned = -1, -1
	a.shape.SetImage(li.Shape)
	a.rect.SetImage(li.Rect)
	a.showSolvedImage()
	a.sheets.Refresh() // side by side or stacked, by the sheets' shape
	a.zoom.Fit()
	a.solved.state.Fit()
	inst := li.Gen.Instance
	where := ""
	if len(a.filtered) > 0 {
		where = fmt.Sprintf("%d of %d · ", a.pos+1, len(a.filtered))
	}
	a.position.SetText(fmt.Sprintf("%s%s · %d×%d · %s tabs", where, inst.ID, inst.Grid, inst.Grid, inst.Options.TabStyle))
	a.highlight()
	status := "Showing " + inst.ID + "."
	if li.note != "" {
		status += " No edge overlay: " + li.note
	}
	a.status.Set(status)
}

// showSolvedImage shows the solved image, with the grid and IDs if asked.
func (a *AblationPane) showSolvedImage() {
	if a.current == nil {
		return
	}
	if a.overlay.Checked {
		a.solved.SetImage(a.current.grid)
	} else {
		a.solved.SetImage(a.current.solved)
	}
}

// sheetAspect is the sheets' width over their height (1 before any).
func (a *AblationPane) sheetAspect() float32 {
	if a.current == nil {
		return 1
	}
	sz := a.current.Shape.Size()
	if sz.Y == 0 {
		return 1
	}
	return float32(sz.X) / float32(sz.Y)
}

// Current is the instance on screen, or nil.
func (a *AblationPane) Current() *render.Generated {
	if a.current == nil {
		return nil
	}
	return a.current.Gen
}

func (a *AblationPane) hoverSheet(x, y float64, ok bool) {
	id := -1
	if ok && a.current != nil {
		inst := a.current.Gen.Instance
		if k, in := inst.Layout.SlotAt(x, y, inst.Grid); in {
			id = k
		}
	}
	if id != a.hovered {
		a.hovered = id
		a.highlight()
	}
}

func (a *AblationPane) tapSheet(x, y float64) {
	a.hoverSheet(x, y, true)
	if a.pinned == a.hovered {
		a.pinned = -1 // a second click releases
	} else {
		a.pinned = a.hovered
	}
	a.highlight()
}

// hoverSolved points at a cell of the solved view: the piece that belongs there.
func (a *AblationPane) hoverSolved(x, y float64, ok bool) {
	id := -1
	if ok && a.current != nil {
		inst := a.current.Gen.Instance
		c, r := int(x)/max(1, inst.Piece.Width), int(y)/max(1, inst.Piece.Height)
		if x >= 0 && y >= 0 && r < inst.Grid && c < inst.Grid {
			for k, cell := range inst.Solution {
				if cell == (puzzle.Cell{Row: r, Col: c}) {
					id = k
				}
			}
		}
	}
	if id != a.hovered {
		a.hovered = id
		a.highlight()
	}
}

func (a *AblationPane) tapSolved(x, y float64) {
	a.hoverSolved(x, y, true)
	a.pinned = a.hovered
	a.highlight()
}

// Highlighted is the piece ID the pane describes: the one under the
// pointer, else the pinned one, else -1.
func (a *AblationPane) Highlighted() int {
	if a.hovered >= 0 {
		return a.hovered
	}
	return a.pinned
}

// highlight marks the pinned and the hovered piece (each in its colour) in
// both sheets and at its true cell, and every piece of the marked type.
func (a *AblationPane) highlight() {
	var sheet, solved []Mark
	if a.current != nil {
		inst := a.current.Gen.Instance
		pw, ph := inst.Piece.Width, inst.Piece.Height
		add := func(id int, c color.Color, fill bool) {
			if id < 0 || id >= len(inst.Pieces) {
				return
			}
			x, y := inst.Layout.SlotOrigin(id, inst.Grid)
			sheet = append(sheet, Mark{Rect: image.Rect(x, y, x+inst.Layout.SlotWidth, y+inst.Layout.SlotHeight), Colour: c})
			cell := inst.Solution[id]
			solved = append(solved, Mark{Rect: image.Rect(cell.Col*pw, cell.Row*ph, (cell.Col+1)*pw, (cell.Row+1)*ph), Colour: c, Fill: fill})
		}
		// The hovered piece comes first: it is the one described.
		add(a.hovered, hoverColour, true)
		if a.pinned != a.hovered {
			add(a.pinned, pinnedColour, true)
		}
		if kind, ok := markKinds[a.kinds.Selected]; ok {
			for id, cell := range inst.Solution {
				if id != a.hovered && id != a.pinned && score.TypeOfCell(cell.Row*inst.Grid+cell.Col, inst.Grid) == kind {
					add(id, kindColour, false)
				}
			}
		}
	}
	a.shape.SetMarks(sheet)
	a.rect.SetMarks(sheet)
	a.solved.SetMarks(solved)
	a.pieceInfo.SetText(a.describe(a.Highlighted()))
}

// describe says where piece id belongs, rows and columns counted from 1 at
// the top left as everywhere in the app.
func (a *AblationPane) describe(id int) string {
	if a.current == nil || id < 0 || id >= len(a.current.Gen.Instance.Pieces) {
		return "Point at a piece in a sheet or a cell of the solved view to see where it belongs; click to keep it selected. Tabs are tinted amber in the solved view."
	}
	inst := a.current.Gen.Instance
	cell := inst.Solution[id]
	kind := score.TypeOfCell(cell.Row*inst.Grid+cell.Col, inst.Grid)
	s := inst.Pieces[id].Sides
	which := ""
	if id == a.pinned {
		which = " (selected)"
	}
	return fmt.Sprintf("Piece %d%s, %s, belongs at row %d, column %d (counted from 1). Sides: top %s, right %s, bottom %s, left %s.",
		id, which, kind, cell.Row+1, cell.Col+1, s.Top, s.Right, s.Bottom, s.Left)
}

// pin selects piece id as if clicked.
func (a *AblationPane) pin(id int) {
	a.pinned = id
	a.highlight()
}

// samplePiece is a piece worth showing in a screenshot: one in the interior
// when there is an interior.
func (a *AblationPane) samplePiece() int {
	if a.current == nil {
		return -1
	}
	inst := a.current.Gen.Instance
	for id, c := range inst.Solution {
		if c.Row == inst.Grid/2 && c.Col == inst.Grid/2 {
			return id
		}
	}
	return 0
}

// sheetPairLayout puts the two sheets side by side or one above the other,
// whichever shows them larger in the space there is.
type sheetPairLayout struct{ aspect func() float32 }

// Layout implements fyne.Layout.
func (l *sheetPairLayout) Layout(objs []fyne.CanvasObject, size fyne.Size) {
	if len(objs) != 2 {
		return
	}
	a := l.aspect()
	pad := theme.Padding()
	sideBySide := min((size.Width-pad)/2, size.Height*a)
	stacked := min(size.Width, (size.Height-pad)/2*a)
	if sideBySide >= stacked {
		w := (size.Width - pad) / 2
		objs[0].Move(fyne.NewPos(0, 0))
		objs[0].Resize(fyne.NewSize(w, size.Height))
		objs[1].Move(fyne.NewPos(w+pad, 0))
		objs[1].Resize(fyne.NewSize(w, size.Height))
		return
	}
	h := (size.Height - pad) / 2
	objs[0].Move(fyne.NewPos(0, 0))
	objs[0].Resize(fyne.NewSize(size.Width, h))
	objs[1].Move(fyne.NewPos(0, h+pad))
	objs[1].Resize(fyne.NewSize(size.Width, h))
}

// MinSize implements fyne.Layout.
func (l *sheetPairLayout) MinSize(objs []fyne.CanvasObject) fyne.Size {
	var s fyne.Size
	for _, o := range objs {
		s = s.Max(o.MinSize())
	}
	return s
}

// fixedWidthLayout gives its one child a fixed width and all the height.
type fixedWidthLayout struct{ width float32 }

// Layout implements fyne.Layout.
func (l *fixedWidthLayout) Layout(objs []fyne.CanvasObject, size fyne.Size) {
	for _, o := range objs {
		o.Move(fyne.NewPos(0, 0))
		o.Resize(size)
	}
}

// MinSize implements fyne.Layout.
func (l *fixedWidthLayout) MinSize(objs []fyne.CanvasObject) fyne.Size {
	s := fyne.NewSize(l.width, 0)
	for _, o := range objs {
		s.Height = max(s.Height, o.MinSize().Height)
	}
	return s
}
