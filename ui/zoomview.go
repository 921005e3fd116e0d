package ui

import (
	"image"
	"image/color"
	"math"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/jigbench/jigbench/core/render"
)

// ZoomState is a zoom and pan that several ZoomViews can share, so two sheets
// of the same layout move together.
type ZoomState struct {
	fit    bool
	zoom   float32       // logical units per image pixel
	origin fyne.Position // image point at the views' top-left corner
	views  []*ZoomView

	// OnChange runs after every change (on the UI goroutine).
	OnChange func()
}

// NewZoomState starts in fit mode.
func NewZoomState() *ZoomState { return &ZoomState{fit: true, zoom: 1} }

// Fit shows the whole image in each view.
func (v *ZoomState) Fit() {
	v.fit = true
	v.changed()
}

// OneToOne shows one image pixel per device pixel, keeping the centre.
func (v *ZoomState) OneToOne() {
	if len(v.views) == 0 {
		return
	}
	z := v.views[0]
	scale := float32(1)
	if c := fyne.CurrentApp().Driver().CanvasForObject(z); c != nil {
		scale = c.Scale()
	}
	v.zoomAround(1/scale, z.center())
}

// ZoomBy multiplies the zoom by f, keeping the views' centre in place.
func (v *ZoomState) ZoomBy(f float32) {
	if len(v.views) == 0 {
		return
	}
	z := v.views[0]
	v.zoomAround(v.currentZoom(z)*f, z.center())
}

// Zoom is the current zoom in logical units per image pixel.
func (v *ZoomState) Zoom() float32 {
	if len(v.views) == 0 {
		return v.zoom
	}
	return v.currentZoom(v.views[0])
}

// zoomAround sets the zoom to z keeping the widget point at (in logical units) fixed.
func (v *ZoomState) zoomAround(z float32, at fyne.Position) {
	if len(v.views) == 0 {
		return
	}
	zv := v.views[0]
	old := v.currentZoom(zv)
	o := v.currentOrigin(zv)
	imgAt := fyne.NewPos(o.X+at.X/old, o.Y+at.Y/old)
	z = float32(math.Min(math.Max(float64(z), 0.02), 32))
	v.fit = false
	v.zoom = z
	v.origin = fyne.NewPos(imgAt.X-at.X/z, imgAt.Y-at.Y/z)
	v.changed()
}

func (v *ZoomState) panBy(d fyne.Delta) {
	if len(v.views) == 0 {
		return
	}
	zv := v.views[0]
	z, o := v.currentZoom(zv), v.currentOrigin(zv)
	v.fit = false
	v.zoom = z
	v.origin = fyne.NewPos(o.X-d.DX/z, o.Y-d.DY/z)
	v.changed()
}

// currentZoom resolves fit mode against view zv's size.
func (v *ZoomState) currentZoom(zv *ZoomView) float32 {
	if !v.fit || zv.img == nil {
		return v.zoom
	}
	s, sz := zv.img.Size(), zv.Size()
	if s.X == 0 || s.Y == 0 || sz.Width <= 0 || sz.Height <= 0 {
		return 1
	}
	return float32(math.Min(float64(sz.Width)/float64(s.X), float64(sz.Height)/float64(s.Y)))
}

func (v *ZoomState) currentOrigin(zv *ZoomView) fyne.Position {
	if !v.fit || zv.img == nil {
		return v.origin
	}
	z, s, sz := v.currentZoom(zv), zv.img.Size(), zv.Size()
	return fyne.NewPos(-(sz.Width/z-float32(s.X))/2, -(sz.Height/z-float32(s.Y))/2)
}

func (v *ZoomState) changed() {
	for _, z := range v.views {
		z.refreshView()
	}
	if v.OnChange != nil {
		v.OnChange()
	}
}

// Mark is a rectangle in image coordinates drawn over a ZoomView.
type Mark struct {
	Rect   image.Rectangle
	Colour color.Color
	Fill   bool
}

// ZoomView shows an image that can be zoomed (wheel, +/−), panned (drag) and
// pointed at (hover, tap report image coordinates).
type ZoomView struct {
	widget.BaseWidget
	img   *render.Pyramid
	state *ZoomState
	marks []Mark

	raster *canvas.Raster
	rects  []*canvas.Rectangle

	// OnHover reports the image point under the pointer; ok is false when it leaves.
	OnHover func(x, y float64, ok bool)
	// OnTap reports a click at an image point.
	OnTap func(x, y float64)
}

// NewZoomView makes a view sharing v (nil: its own).
func NewZoomView(v *ZoomState) *ZoomView {
	if v == nil {
		v = NewZoomState()
	}
	z := &ZoomView{state: v}
	v.views = append(v.views, z)
	z.raster = canvas.NewRaster(z.draw)
	z.ExtendBaseWidget(z)
	return z
}

// SetImage shows img (nil: nothing). Call on the UI goroutine.
func (z *ZoomView) SetImage(img *render.Pyramid) {
	z.img = img
	z.refreshView()
}

// Image is what the view shows.
func (z *ZoomView) Image() *render.Pyramid { return z.img }

// SetMarks replaces the rectangles drawn over the image.
func (z *ZoomView) SetMarks(m []Mark) {
	z.marks = m
	z.Refresh()
}

// Marks returns the rectangles drawn over the image.
func (z *ZoomView) Marks() []Mark { return z.marks }

// ImagePoint converts a widget position to image coordinates.
func (z *ZoomView) ImagePoint(p fyne.Position) (x, y float64) {
	zoom, o := z.state.currentZoom(z), z.state.currentOrigin(z)
	return float64(o.X + p.X/zoom), float64(o.Y + p.Y/zoom)
}

// widgetPoint converts image coordinates to a widget position.
func (z *ZoomView) widgetPoint(x, y float64) fyne.Position {
	zoom, o := z.state.currentZoom(z), z.state.currentOrigin(z)
	return fyne.NewPos((float32(x)-o.X)*zoom, (float32(y)-o.Y)*zoom)
}

func (z *ZoomView) center() fyne.Position {
	s := z.Size()
	return fyne.NewPos(s.Width/2, s.Height/2)
}

func (z *ZoomView) refreshView() {
	z.raster.Refresh()
	z.Refresh()
}

// draw renders the visible part of the image at the raster's device size.
func (z *ZoomView) draw(w, h int) image.Image {
	dst := image.NewRGBA(image.Rect(0, 0, w, h))
	bg := rgb3(theme.Color(theme.ColorNameBackground))
	if z.img == nil || w == 0 || h == 0 {
		fillBackground(dst, bg)
		return dst
	}
	size := z.Size()
	if size.Width <= 0 {
		fillBackground(dst, bg)
		return dst
	}
	devPerUnit := float64(w) / float64(size.Width)
	zoom, o := z.state.currentZoom(z), z.state.currentOrigin(z)
	z.img.Viewport(dst, float64(o.X), float64(o.Y), float64(zoom)*devPerUnit, bg)
	return dst
}

// Scrolled zooms around the pointer.
func (z *ZoomView) Scrolled(e *fyne.ScrollEvent) {
	f := float32(math.Pow(1.0015, float64(e.Scrolled.DY)))
	z.state.zoomAround(z.state.currentZoom(z)*f, e.Position)
}

// Dragged pans.
func (z *ZoomView) Dragged(e *fyne.DragEvent) { z.state.panBy(e.Dragged) }

// DragEnd implements fyne.Draggable.
func (z *ZoomView) DragEnd() {}

// Tapped reports a click.
func (z *ZoomView) Tapped(e *fyne.PointEvent) {
	if z.OnTap != nil && z.img != nil {
		z.OnTap(z.ImagePoint(e.Position))
	}
}

// MouseIn implements desktop.Hoverable.
func (z *ZoomView) MouseIn(e *desktop.MouseEvent) { z.MouseMoved(e) }

// MouseMoved reports the image point under the pointer.
func (z *ZoomView) MouseMoved(e *desktop.MouseEvent) {
	if z.OnHover != nil && z.img != nil {
		x, y := z.ImagePoint(e.Position)
		z.OnHover(x, y, true)
	}
}

// MouseOut implements desktop.Hoverable.
func (z *ZoomView) MouseOut() {
	if z.OnHover != nil {
		z.OnHover(0, 0, false)
	}
}

// MinSize lets the view shrink; the image adapts.
func (z *ZoomView) MinSize() fyne.Size { return fyne.NewSize(64, 64) }

// CreateRenderer implements fyne.Widget.
func (z *ZoomView) CreateRenderer() fyne.WidgetRenderer { return &zoomRenderer{z: z} }

type zoomRenderer struct{ z *ZoomView }

func (r *zoomRenderer) Layout(s fyne.Size) {
	r.z.raster.Resize(s)
	r.layoutMarks()
}

func (r *zoomRenderer) layoutMarks() {
	z := r.z
	for len(z.rects) < len(z.marks) {
		z.rects = append(z.rects, canvas.NewRectangle(color.Transparent))
	}
	for i, rect := range z.rects {
		if i >= len(z.marks) || z.img == nil {
			rect.Hide()
			continue
		}
		m := z.marks[i]
		a := z.widgetPoint(float64(m.Rect.Min.X), float64(m.Rect.Min.Y))
		b := z.widgetPoint(float64(m.Rect.Max.X), float64(m.Rect.Max.Y))
		rect.Move(a)
		rect.Resize(fyne.NewSize(b.X-a.X, b.Y-a.Y))
		rect.StrokeColor = m.Colour
		rect.StrokeWidth = 3
		rect.FillColor = color.Transparent
		if m.Fill {
			r, g, b, _ := m.Colour.RGBA()
			rect.FillColor = color.NRGBA{uint8(r >> 8), uint8(g >> 8), uint8(b >> 8), 60}
		}
		rect.Show()
		rect.Refresh()
	}
}

func (r *zoomRenderer) MinSize() fyne.Size { return r.z.MinSize() }

func (r *zoomRenderer) Refresh() {
	r.layoutMarks()
	canvas.Refresh(r.z)
}

func (r *zoomRenderer) Objects() []fyne.CanvasObject {
	objs := []fyne.CanvasObject{r.z.raster}
	for _, rect := range r.z.rects {
		objs = append(objs, rect)
	}
	return objs
}

func (r *zoomRenderer) Destroy() {}

func rgb3(c color.Color) [3]uint8 {
	r, g, b, _ := c.RGBA()
	return [3]uint8{uint8(r >> 8), uint8(g >> 8), uint8(b >> 8)}
}

func fillBackground(dst *image.RGBA, c [3]uint8) {
	for i := 0; i < len(dst.Pix); i += 4 {
		dst.Pix[i], dst.Pix[i+1], dst.Pix[i+2], dst.Pix[i+3] = c[0], c[1], c[2], 0xFF
	}
}
