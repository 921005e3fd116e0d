package ui

import (
	"image"
	"image/color"
	"strconv"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// The Rate pane is run from the keyboard. Fyne gives typed keys to the
// focused widget, or to the canvas when nothing is focused; the widgets
// below take focus (a clicked slider, a score field, a switch) and hand every
// key they do not use themselves to the pane, so 1–4, F, C, Enter and the
// arrows work wherever the focus is.

// rateKeys is where the widgets forward keys.
type rateKeys interface {
	TypedRune(r rune)
	TypedKey(e *fyne.KeyEvent)
}

// scoreField shows a process dimension's score as the rater types it. It
// never takes the keyboard: the pane's rating area has it and types into
// the chosen dimension's field (rate_keys.go). A tap chooses the dimension.
type scoreField struct {
	widget.BaseWidget
	text    string
	active  bool // the chosen dimension: keys type here
	refused bool // the last key was refused; the field holds what it held
	onTap   func()
}

func newScoreField(onTap func()) *scoreField {
	f := &scoreField{onTap: onTap}
	f.ExtendBaseWidget(f)
	return f
}

// set shows text with the field's marks.
func (f *scoreField) set(text string, active, refused bool) {
	if f.text == text && f.active == active && f.refused == refused {
		return
	}
	f.text, f.active, f.refused = text, active, refused
	f.Refresh()
}

// Tapped chooses the dimension.
func (f *scoreField) Tapped(*fyne.PointEvent) {
	if f.onTap != nil {
		f.onTap()
	}
}

// CreateRenderer implements fyne.Widget.
func (f *scoreField) CreateRenderer() fyne.WidgetRenderer {
	r := &scoreFieldRenderer{f: f, box: canvas.NewRectangle(color.Transparent), text: canvas.NewText("", color.Black)}
	r.text.Alignment = fyne.TextAlignCenter
	r.text.TextStyle.Bold = true
	r.Refresh()
	return r
}

type scoreFieldRenderer struct {
	f    *scoreField
	box  *canvas.Rectangle
	text *canvas.Text
}

func (r *scoreFieldRenderer) Layout(s fyne.Size) {
	r.box.Resize(s)
	ts := r.text.MinSize()
	r.text.Move(fyne.NewPos(0, (s.Height-ts.Height)/2))
	r.text.Resize(fyne.NewSize(s.Width, ts.Height))
}

func (r *scoreFieldRenderer) MinSize() fyne.Size {
	return fyne.NewSize(64, r.text.MinSize().Height+2*theme.InnerPadding())
}

func (r *scoreFieldRenderer) Refresh() {
	f := r.f
	r.box.FillColor = theme.Color(theme.ColorNameInputBackground)
	r.box.StrokeColor = theme.Color(theme.ColorNameInputBorder)
	r.box.StrokeWidth = 1
	r.box.CornerRadius = theme.InputRadiusSize()
	if f.active {
		r.box.StrokeColor = theme.Color(theme.ColorNamePrimary)
		r.box.StrokeWidth = 3
	}
	if f.refused {
		r.box.StrokeColor = theme.Color(theme.ColorNameError)
		r.box.StrokeWidth = 3
	}
	r.text.Text = f.text
	r.text.Color = theme.Color(theme.ColorNameForeground)
	if f.text == "" {
		r.text.Text = "0–100"
		r.text.Color = theme.Color(theme.ColorNamePlaceHolder)
	}
	r.text.TextSize = theme.TextSize()
	r.box.Refresh()
	r.text.Refresh()
	r.Layout(f.Size())
}

func (r *scoreFieldRenderer) Objects() []fyne.CanvasObject { return []fyne.CanvasObject{r.box, r.text} }

func (r *scoreFieldRenderer) Destroy() {}

// rateArea wraps the whole Rate pane and holds the keyboard while Rate is
// shown: every key reaches the pane, Tab included (it chooses the next
// dimension instead of moving the focus to a button), and a click inside
// the pane keeps the focus here (Fyne does not unfocus a focused parent).
type rateArea struct {
	widget.BaseWidget
	content fyne.CanvasObject
	keys    rateKeys
	shift   bool // Shift is held: Tab goes back
	focused bool
	onFocus func(bool)
}

func newRateArea(content fyne.CanvasObject, keys rateKeys) *rateArea {
	a := &rateArea{content: content, keys: keys}
	a.ExtendBaseWidget(a)
	return a
}

// CreateRenderer implements fyne.Widget.
func (a *rateArea) CreateRenderer() fyne.WidgetRenderer { return widget.NewSimpleRenderer(a.content) }

// AcceptsTab keeps Tab for choosing dimensions.
func (a *rateArea) AcceptsTab() bool { return true }

// FocusGained implements fyne.Focusable.
func (a *rateArea) FocusGained() { a.setFocused(true) }

// FocusLost implements fyne.Focusable.
func (a *rateArea) FocusLost() { a.setFocused(false) }

func (a *rateArea) setFocused(b bool) {
	a.focused = b
	if a.onFocus != nil {
		a.onFocus(b)
	}
}

// TypedRune implements fyne.Focusable.
func (a *rateArea) TypedRune(r rune) { a.keys.TypedRune(r) }

// TypedKey implements fyne.Focusable; Shift+Tab arrives as a Tab with
// Shift held (KeyDown).
func (a *rateArea) TypedKey(k *fyne.KeyEvent) {
	if k.Name == fyne.KeyTab && a.shift {
		k = &fyne.KeyEvent{Name: keyBackTab, Physical: k.Physical}
	}
	a.keys.TypedKey(k)
}

// keyBackTab is Shift+Tab as the pane's key map sees it.
const keyBackTab fyne.KeyName = "BackTab"

// KeyDown implements desktop.Keyable: it tracks Shift.
func (a *rateArea) KeyDown(k *fyne.KeyEvent) {
	if k.Name == desktop.KeyShiftLeft || k.Name == desktop.KeyShiftRight {
		a.shift = true
	}
}

// KeyUp implements desktop.Keyable.
func (a *rateArea) KeyUp(k *fyne.KeyEvent) {
	if k.Name == desktop.KeyShiftLeft || k.Name == desktop.KeyShiftRight {
		a.shift = false
	}
}

// keySlider is a process score's slider, for the mouse: a click gives it
// the focus, but every key goes on to the pane, so the keys mean the same
// wherever the focus is.
type keySlider struct {
	widget.Slider
	keys rateKeys
}

func newKeySlider(minV, maxV float64, keys rateKeys) *keySlider {
	s := &keySlider{keys: keys}
	s.Min, s.Max, s.Step = minV, maxV, 1
	s.ExtendBaseWidget(s)
	return s
}

// AcceptsTab keeps Tab for the pane.
func (s *keySlider) AcceptsTab() bool { return true }

// TypedRune hands the key to the pane.
func (s *keySlider) TypedRune(r rune) { s.keys.TypedRune(r) }

// TypedKey hands the key to the pane.
func (s *keySlider) TypedKey(k *fyne.KeyEvent) { s.keys.TypedKey(k) }

// keyCheck is a check box (the ground-truth switch, the flag) that hands
// every key but Space to the pane.
type keyCheck struct {
	widget.Check
	keys rateKeys
}

func newKeyCheck(label string, keys rateKeys, changed func(bool)) *keyCheck {
	c := &keyCheck{keys: keys}
	c.Text = label
	c.OnChanged = changed
	c.ExtendBaseWidget(c)
	return c
}

// TypedRune toggles on Space and hands other keys to the pane.
func (c *keyCheck) TypedRune(r rune) {
	if r == ' ' {
		c.Check.TypedRune(r)
		return
	}
	c.keys.TypedRune(r)
}

// TypedKey hands keys to the pane.
func (c *keyCheck) TypedKey(k *fyne.KeyEvent) { c.keys.TypedKey(k) }

// AcceptsTab keeps Tab for the pane.
func (c *keyCheck) AcceptsTab() bool { return true }

// dialogEntry is a one-line entry in a dialog: Enter confirms, Esc cancels.
type dialogEntry struct {
	widget.Entry
	onEscape func()
}

func newDialogEntry() *dialogEntry {
	e := &dialogEntry{}
	e.ExtendBaseWidget(e)
	return e
}

// TypedKey implements fyne.Focusable.
func (e *dialogEntry) TypedKey(k *fyne.KeyEvent) {
	if k.Name == fyne.KeyEscape && e.onEscape != nil {
		e.onEscape()
		return
	}
	e.Entry.TypedKey(k)
}

// imagePanel is one captioned image of an item: a zoomable view with a note
// over it while the image loads, when it is hidden or failed.
type imagePanel struct {
	caption *widget.Label
	zoom    *ZoomView
	note    *widget.Label
	box     fyne.CanvasObject
	want    string // the path the panel should show
}

func newImagePanel(caption string, right, bottom fyne.CanvasObject) *imagePanel {
	p := &imagePanel{
		caption: widget.NewLabelWithStyle(caption, fyne.TextAlignLeading, fyne.TextStyle{Bold: true}),
		zoom:    NewZoomView(nil),
		note:    widget.NewLabelWithStyle("", fyne.TextAlignCenter, fyne.TextStyle{Italic: true}),
	}
	p.caption.Truncation = fyne.TextTruncateEllipsis
	p.note.Wrapping = fyne.TextWrapWord
	p.note.Hide()
	head := fyne.CanvasObject(p.caption)
	if right != nil {
		p.caption.Truncation = fyne.TextTruncateOff
		head = container.NewBorder(nil, nil, p.caption, nil, right)
	}
	// The note gets the panel's whole width (a centring container would
	// give a wrapped label its minimum width: one letter per line).
	p.box = container.NewBorder(head, bottom, nil, nil, container.NewStack(p.zoom, centredLine(p.note)))
	return p
}

// show puts img on screen (or says why not).
func (p *imagePanel) show(img itemImage) {
	if img.err != nil {
		p.zoom.SetImage(nil)
		p.setNote(img.err.Error())
		return
	}
	p.zoom.SetImage(img.pyr)
	p.zoom.state.Fit()
	p.setNote("")
}

func (p *imagePanel) setNote(s string) {
	p.note.SetText(s)
	if s == "" {
		p.note.Hide()
	} else {
		p.note.Show()
	}
}

// clear empties the panel with a note.
func (p *imagePanel) clear(note string) {
	p.want = ""
	p.zoom.SetImage(nil)
	p.setNote(note)
}

// rateImagesLayout gives the output (objects[0]) the left ~58 % and stacks
// the input (objects[1]) and the ground truth (objects[2]) on the right.
type rateImagesLayout struct{}

func (rateImagesLayout) Layout(objs []fyne.CanvasObject, s fyne.Size) {
	gap := theme.Padding()
	w0 := float32(int(s.Width * 0.58))
	objs[0].Move(fyne.NewPos(0, 0))
	objs[0].Resize(fyne.NewSize(w0, s.Height))
	x := w0 + gap
	h := (s.Height - gap) / 2
	objs[1].Move(fyne.NewPos(x, 0))
	objs[1].Resize(fyne.NewSize(s.Width-x, h))
	objs[2].Move(fyne.NewPos(x, h+gap))
	objs[2].Resize(fyne.NewSize(s.Width-x, s.Height-h-gap))
}

func (rateImagesLayout) MinSize([]fyne.CanvasObject) fyne.Size { return fyne.NewSize(240, 160) }

// frameStrip shows a process item's frames as thumbnails; a tap picks one.
type frameStrip struct {
	box    *fyne.Container
	scroll *container.Scroll
	thumbs []*frameThumb
	onTap  func(k int)
}

func newFrameStrip(onTap func(int)) *frameStrip {
	f := &frameStrip{box: container.NewHBox(), onTap: onTap}
	f.scroll = container.NewHScroll(f.box)
	return f
}

// reset makes n empty thumbnails.
func (f *frameStrip) reset(n int) {
	f.thumbs = f.thumbs[:0]
	objs := make([]fyne.CanvasObject, n)
	for k := range n {
		t := newFrameThumb(k, f.onTap)
		f.thumbs = append(f.thumbs, t)
		objs[k] = t
	}
	f.box.Objects = objs
	f.box.Refresh()
	f.scroll.Offset = fyne.Position{}
	f.scroll.Refresh()
}

func (f *frameStrip) set(k int, img *image.RGBA) {
	if k < len(f.thumbs) {
		f.thumbs[k].setImage(img)
	}
}

// selectFrame marks frame k and scrolls it into view.
func (f *frameStrip) selectFrame(k int) {
	var x float32
	for i, t := range f.thumbs {
		t.setSelected(i == k)
		if i < k {
			x += t.MinSize().Width + theme.Padding()
		}
	}
	if k < len(f.thumbs) {
		w := f.thumbs[k].MinSize().Width
		view := f.scroll.Size().Width
		if x < f.scroll.Offset.X {
			f.scroll.Offset.X = x
		} else if x+w > f.scroll.Offset.X+view {
			f.scroll.Offset.X = x + w - view
		}
		f.scroll.Refresh()
	}
}

// frameThumb is one frame's thumbnail with its number.
type frameThumb struct {
	widget.BaseWidget
	k        int
	img      *canvas.Image
	border   *canvas.Rectangle
	label    *canvas.Text
	onTap    func(int)
	selected bool
}

// thumbSize is a thumbnail's size on screen.
var thumbSize = fyne.NewSize(72, 56)

func newFrameThumb(k int, onTap func(int)) *frameThumb {
	t := &frameThumb{k: k, onTap: onTap}
	t.img = canvas.NewImageFromImage(nil)
	t.img.FillMode = canvas.ImageFillContain
	t.border = canvas.NewRectangle(color.Transparent)
	t.border.StrokeWidth = 3
	t.label = canvas.NewText(strconv.Itoa(k+1), theme.Color(theme.ColorNameForeground))
	t.label.TextSize = theme.CaptionTextSize()
	t.ExtendBaseWidget(t)
	return t
}

func (t *frameThumb) setImage(img *image.RGBA) {
	t.img.Image = img
	t.img.Refresh()
}

func (t *frameThumb) setSelected(b bool) {
	if t.selected == b {
		return
	}
	t.selected = b
	t.Refresh()
}

// Tapped picks the frame.
func (t *frameThumb) Tapped(*fyne.PointEvent) {
	if t.onTap != nil {
		t.onTap(t.k)
	}
}

// MinSize implements fyne.Widget.
func (t *frameThumb) MinSize() fyne.Size { return thumbSize }

// CreateRenderer implements fyne.Widget.
func (t *frameThumb) CreateRenderer() fyne.WidgetRenderer { return &thumbRenderer{t: t} }

type thumbRenderer struct{ t *frameThumb }

func (r *thumbRenderer) Layout(s fyne.Size) {
	r.t.img.Resize(s)
	r.t.border.Resize(s)
	r.t.label.Move(fyne.NewPos(4, 2))
}

func (r *thumbRenderer) MinSize() fyne.Size { return thumbSize }

func (r *thumbRenderer) Refresh() {
	r.t.border.StrokeColor = color.Transparent
	if r.t.selected {
		r.t.border.StrokeColor = theme.Color(theme.ColorNamePrimary)
	}
	r.t.label.Color = theme.Color(theme.ColorNameForeground)
	r.t.border.Refresh()
	r.t.label.Refresh()
}

func (r *thumbRenderer) Objects() []fyne.CanvasObject {
	return []fyne.CanvasObject{r.t.img, r.t.border, r.t.label}
}

func (r *thumbRenderer) Destroy() {}

// banner is a coloured message line across the pane (demo notice, errors).
type banner struct {
	bg    *canvas.Rectangle
	text  *widget.Label
	act   *widget.Button
	box   *fyne.Container
	error bool
}

func newBanner() *banner {
	b := &banner{bg: canvas.NewRectangle(color.Transparent), text: widget.NewLabel("")}
	b.text.Wrapping = fyne.TextWrapWord
	b.act = widget.NewButton("", nil)
	b.act.Hide()
	b.box = container.NewStack(b.bg, container.NewBorder(nil, nil, nil, container.NewCenter(b.act), b.text))
	b.box.Hide()
	return b
}

// show shows msg; an error banner is red, a notice is in the theme's
// primary colour. action, if set, adds a button.
func (b *banner) show(msg string, isError bool, action string, do func()) {
	b.error = isError
	c := theme.Color(theme.ColorNamePrimary)
	if isError {
		c = theme.Color(theme.ColorNameError)
	}
	r, g, bl, _ := c.RGBA()
	b.bg.FillColor = color.NRGBA{uint8(r >> 8), uint8(g >> 8), uint8(bl >> 8), 56}
	b.bg.StrokeColor = c
	b.bg.StrokeWidth = 1
	b.bg.Refresh()
	b.text.SetText(msg)
	if action != "" {
		b.act.SetText(action)
		b.act.OnTapped = do
		b.act.Show()
	} else {
		b.act.Hide()
	}
	b.box.Show()
}

func (b *banner) hide() { b.box.Hide() }

// Visible reports whether the banner is shown.
func (b *banner) Visible() bool { return b.box.Visible() }

// widthLayout gives its single child a fixed minimum width.
type widthLayout struct{ w float32 }

func (l widthLayout) Layout(objs []fyne.CanvasObject, s fyne.Size) {
	for _, o := range objs {
		o.Move(fyne.Position{})
		o.Resize(s)
	}
}

func (l widthLayout) MinSize(objs []fyne.CanvasObject) fyne.Size {
	h := float32(0)
	for _, o := range objs {
		h = max(h, o.MinSize().Height)
	}
	return fyne.NewSize(l.w, h)
}

// cappedHeight shows o (a wrapped label) at its natural height up to maxH,
// scrolling beyond.
func cappedHeight(o fyne.CanvasObject, maxH float32) fyne.CanvasObject {
	return container.New(&capLayout{content: o, max: maxH}, container.NewVScroll(o))
}

type capLayout struct {
	content fyne.CanvasObject
	max     float32
}

func (l *capLayout) Layout(objs []fyne.CanvasObject, s fyne.Size) {
	for _, o := range objs {
		o.Move(fyne.Position{})
		o.Resize(s)
	}
}

func (l *capLayout) MinSize([]fyne.CanvasObject) fyne.Size {
	return fyne.NewSize(0, min(l.content.MinSize().Height, l.max))
}

// centredLine places a wrapped label across its parent's width, in the
// middle of its height.
func centredLine(l *widget.Label) fyne.CanvasObject {
	l.Alignment = fyne.TextAlignCenter
	return container.NewVBox(layout.NewSpacer(), l, layout.NewSpacer())
}
