//go:build ignore

// Command digits renders the glyph atlas resources/digits.png: the digits 0–9
// of Go Bold, each in an equal cell, as 8-bit coverage. Sheet labels are scaled
// down from it with integer arithmetic, so labels are identical on every
// platform. Run with `go generate ./resources`.
package main

import (
	"image"
	"image/draw"
	"image/png"
	"log"
	"os"

	"golang.org/x/image/font"
	"golang.org/x/image/font/gofont/gobold"
	"golang.org/x/image/font/opentype"
	"golang.org/x/image/math/fixed"
)

func main() {
	f, err := opentype.Parse(gobold.TTF)
	if err != nil {
		log.Fatal(err)
	}
	const size = 200
	face, err := opentype.NewFace(f, &opentype.FaceOptions{Size: size, DPI: 72, Hinting: font.HintingNone})
	if err != nil {
		log.Fatal(err)
	}
	adv, _ := face.GlyphAdvance('0')
	cell := adv.Ceil()
	// The cell spans the digits' ink from top to baseline, plus a small margin.
	var top fixed.Int26_6
	for r := '0'; r <= '9'; r++ {
		b, _, _ := face.GlyphBounds(r)
		top = min(top, b.Min.Y)
	}
	margin := 4
	ascent := (-top).Ceil()
	height := ascent + 2*margin
	img := image.NewGray(image.Rect(0, 0, 10*cell, height))
	d := &font.Drawer{Dst: img, Src: image.White, Face: face}
	for i := 0; i < 10; i++ {
		d.Dot = fixed.P(i*cell, margin+ascent)
		d.DrawString(string(rune('0' + i)))
	}
	_ = draw.Src
	out, err := os.Create("digits.png")
	if err != nil {
		log.Fatal(err)
	}
	if err := png.Encode(out, img); err != nil {
		log.Fatal(err)
	}
	if err := out.Close(); err != nil {
		log.Fatal(err)
	}
}
