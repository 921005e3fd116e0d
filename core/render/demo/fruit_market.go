package demo

import "math"

// fruitMarket: a market stall seen from above, wooden crates heaped with oranges,
// apples, lemons, limes, plums, tomatoes, peaches and berries, with price cards.
func fruitMarket() shader {
	table, tableDark := hex(0x3a2416), hex(0x24160d)
	slat, slatDark := hex(0xc99a62), hex(0x8d6238)
	crateFloor := hex(0x1e140c)
	card, ink := hex(0xf6f1e2), hex(0x2a2a30)

	type fruit struct {
		name   string
		c, alt rgb
		r      float64 // radius
		elong  float64 // length/width of an ellipse
		stem   bool
		calyx  bool
	}
	fruits := []fruit{
		{"orange", hex(0xf08a24), hex(0xf5a640), 34, 1, false, false},
		{"apple", hex(0xc0262d), hex(0xe8b23a), 33, 1, true, false},
		{"green apple", hex(0x8cc63f), hex(0xd8d94a), 32, 1, true, false},
		{"lemon", hex(0xf5d63a), hex(0xfbe98a), 26, 1.35, false, false},
		{"lime", hex(0x5e9e2c), hex(0x8cc04a), 22, 1.1, false, false},
		{"plum", hex(0x5b2a5e), hex(0x8a6c9a), 24, 1.1, false, false},
		{"tomato", hex(0xd83a2a), hex(0xf06a3a), 30, 1, false, true},
		{"peach", hex(0xf3a76b), hex(0xd8483a), 33, 1, false, false},
		{"blueberry", hex(0x2f3a6e), hex(0x8a93b8), 10, 1, false, false},
		{"kiwi", hex(0x8a6a3f), hex(0xa8895a), 24, 1.25, false, false},
	}

	r := newRand(51)
	var sprites []sprite
	addFruit := func(f fruit, x, y float64) {
		rad := float64(f.r * between(r, 0.88, 1.1))
		ang := between(r, 0, twoPi)
		ca, sa := cos(ang), sin(ang)
		blush := between(r, 0, 1)
		seed := r.Uint32()
		rx, ry := float64(rad*f.elong), rad
		ext := rx + 8
		sprites = append(sprites, sprite{x - ext, y - ext, x + ext + 6, y + ext + 6, func(px, py float64) (rgb, float64) {
			dx, dy := px-x, py-y
			u := (float64(dx*ca) + float64(dy*sa)) / rx
			v := (float64(dy*ca) - float64(dx*sa)) / ry
			e := length(u, v)
			d := float64((e - 1) * ry)
			if d > 0.5 {
				// A soft contact shadow down and to the right.
				s := length(dx-float64(0.18*rad), dy-float64(0.22*rad)) - rad
				return rgb{}, float64(0.55 * smoothstep(float64(0.45*rad), 0, s))
			}
			// Sphere shading in screen space: light from the upper left.
			nx, ny := dx/float64(rad*f.elong), dy/rad
			nz := math.Sqrt(max(1-float64(nx*nx)-float64(ny*ny), 0))
			diff := clamp01(float64(-0.45*nx) - float64(0.55*ny) + float64(0.7*nz))
			c := mix(f.c, f.alt, float64(blush*smoothstep(0.2, 0.9, noise(float64(u*2)+5, float64(v*2), seed))))
			if f.name == "orange" || f.name == "lemon" || f.name == "lime" {
				c = c.scale(float64(0.94 + float64(0.1*noise(px/2.2, py/2.2, seed))))
			}
			if f.name == "kiwi" {
				c = c.scale(float64(0.85 + float64(0.25*noise(px/1.5, py/1.5, seed))))
			}
			c = c.scale(float64(0.3 + float64(0.8*diff)))
			spec := smoothstep(0.88, 0.99, float64(-0.3*nx)-float64(0.4*ny)+float64(0.87*nz))
			gloss := 0.55
			if f.name == "peach" || f.name == "kiwi" || f.name == "plum" {
				gloss = 0.15
			}
			c = mix(c, hex(0xffffff), float64(spec*gloss))
			if f.stem {
				sd := length(dx+float64(0.05*rad), dy+float64(0.05*rad))
				c = mix(c, hex(0x4a3020), cover(sd-float64(0.07*rad)))
				c = c.scale(float64(0.75 + float64(0.25*smoothstep(0, float64(0.3*rad), sd))))
			}
			if f.calyx {
				// A five-pointed green star on top.
				q := length(dx, dy)
				if q < float64(0.45*rad) {
					ct := (float64(dx*ca) + float64(dy*sa)) / max(q, 1e-6)
					t0, t1 := 1.0, ct
					for range 4 {
						t0, t1 = t1, float64(float64(2*ct)*t1)-t0
					}
					arm := float64(rad * float64(0.12+float64(0.3*sq(sq(float64(0.5+float64(0.5*t1)))))))
					c = mix(c, hex(0x3d7a2a), cover(q-arm))
				}
			}
			return c, cover(d)
		}})
	}

	// Crates in three rows of varying widths, tight against each other.
	type box4 struct{ x0, y0, x1, y1 float64 }
	var crates []box4
	rows := []float64{24, 420, 810, 1176}
	for i := range 3 {
		x := between(r, -120, 0)
		for x < width {
			w := between(r, 330, 540)
			crates = append(crates, box4{x, rows[i] + between(r, 0, 10), x + w, rows[i+1] - between(r, 10, 20)})
			x += w + between(r, 14, 26)
		}
	}
	// Deal kinds from a shuffled deck so every fruit shows up.
	deck := r.Perm(len(fruits))
	for i, c := range crates {
		f := fruits[deck[i%len(deck)]]
		const rim = 20.0
		// Hex packing with jitter, so fruit nestle without overlapping much.
		dx := float64(2.02 * f.r * f.elong)
		dy := float64(1.75 * f.r)
		row := 0
		for y := c.y0 + rim + float64(0.6*f.r); y < c.y1-rim-float64(0.4*f.r); y += dy {
			off := 0.0
			if row%2 == 1 {
				off = dx / 2
			}
			row++
			for x := c.x0 + rim + float64(0.7*f.r) + off; x < c.x1-rim-float64(0.5*f.r); x += dx {
				jx := float64(float64(0.12*f.r) * (r.Float64() - 0.5))
				jy := float64(float64(0.12*f.r) * (r.Float64() - 0.5))
				addFruit(f, x+jx, y+jy)
			}
		}
		// Some crates have a price card tucked on the rim.
		if r.IntN(2) == 0 {
			cx := c.x0 + between(r, 40, c.x1-c.x0-160)
			cy := c.y1 - 62
			tilt := between(r, -0.08, 0.08)
			s1, s2 := r.Uint32(), r.Uint32()
			sprites = append(sprites, sprite{cx - 4, cy - 12, cx + 124, cy + 62, func(px, py float64) (rgb, float64) {
				lx, ly := px-cx, py-cy-float64((px-cx)*tilt)
				d := box(lx, ly, 0, 0, 116, 52, 3)
				if d > 0.5 {
					return rgb{}, float64(0.4 * smoothstep(8, 0, box(lx-4, ly-5, 0, 0, 116, 52, 3)))
				}
				// Handwriting: two wavy strokes.
				c := card
				for i, sd := range []uint32{s1, s2} {
					base := 17 + float64(19*float64(i))
					wave := base + float64(5*sin(float64(lx*0.35)+float64(sd%7))) + float64(3*(noise(lx/6, 0, sd)-0.5))
					if lx > 12 && lx < 104-float64(30*float64(i)) {
						c = mix(c, ink, cover(math.Abs(ly-wave)-1.3))
					}
				}
				return c, cover(d)
			}})
		}
	}
	items := newLayer(sprites)

	background := func(x, y float64) rgb {
		for _, b := range crates {
			if x < b.x0 || x >= b.x1 || y < b.y0 || y >= b.y1 {
				continue
			}
			const rim = 20.0
			inner := box(x, y, b.x0+rim, b.y0+rim, b.x1-rim, b.y1-rim, 2)
			if inner > 0 {
				// Slatted rim with a lit outer edge and a shadowed inner one.
				g := fbm(x/300, y/5, 55, 2)
				if math.Abs(x-b.x0-rim/2) < rim/2 || math.Abs(b.x1-x-rim/2) < rim/2 {
					g = fbm(y/300, x/5, 55, 2)
				}
				c := mix(slatDark, slat, float64(0.4+float64(0.6*g)))
				return c.scale(float64(0.8 + float64(0.3*smoothstep(rim, 0, inner))))
			}
			return crateFloor.scale(float64(0.8 + float64(0.5*smoothstep(-60, 0, inner))))
		}
		// The stall's table between the crates: dark planks running across.
		return mix(tableDark, table, fbm(x/400, y/9, 53, 3))
	}
	return func(x, y float64) rgb { return items.composite(x, y, background) }
}
