package demo

import "math"

// bookshelf: a wooden bookcase packed with books of every size and colour, some leaning,
// some stacked flat, and the odd potted plant.
func bookshelf() shader {
	const board, side, divider = 28.0, 36.0, 28.0
	const shelfH = (height - 6*board) / 5
	wood, woodDark := hex(0x7a4b2a), hex(0x4a2c18)
	back := hex(0x3b271a)
	gold, paper := hex(0xd9b45a), hex(0xeee4c8)
	covers := []rgb{
		hex(0x7b1f24), hex(0x1f3a5f), hex(0x2f5e3a), hex(0xc58a2a), hex(0x1d6b6b), hex(0xe6dcc3),
		hex(0x222226), hex(0x5a3b2a), hex(0x8e3b5e), hex(0x44506b), hex(0xb5462e), hex(0x6f7f3a),
		hex(0xd7c08a), hex(0x3b2b4f),
	}
	pot, leaf := hex(0xb0603a), hex(0x3f7d3a)

	// Bays: two columns of shelves split by a divider.
	bays := [][2]float64{{side, width/2 - divider/2}, {width/2 + divider/2, width - side}}

	r := newRand(41)
	var sprites []sprite
	addBook := func(x0, y0, x1, y1 float64, c rgb) {
		bands := r.IntN(3)
		seed := r.Uint32()
		label := r.IntN(3) == 0
		lines := r.IntN(4)
		lineY := between(r, 0.25, 0.45)
		sprites = append(sprites, sprite{x0, y0, x1, y1, func(x, y float64) (rgb, float64) {
			u := (x - x0) / (x1 - x0)
			v := (y - y0) / (y1 - y0)
			col := c
			h := y1 - y0
			if bands > 0 && (math.Abs(v-0.08) < 0.012 || math.Abs(v-0.92) < 0.012 ||
				bands > 1 && (math.Abs(v-0.12) < 0.008 || math.Abs(v-0.88) < 0.008)) {
				col = gold
			}
			if label && v > 0.2 && v < 0.34 && u > 0.18 && u < 0.82 {
				col = paper
			}
			if lines > 0 && u > 0.3 && u < 0.7 {
				for i := range lines {
					ly := lineY + float64(float64(i)*0.07)
					if math.Abs(v-ly) < 2.5/h && (label || col == c) {
						col = mix(col, gold, 0.8)
					}
				}
			}
			// Rounded spine, darker at both edges, with a cloth or leather grain.
			round := float64(0.72 + float64(0.34*float64(4*u)*(1-u)))
			round = float64(round * float64(0.92+float64(0.12*noise(x/3, y/9, seed))))
			return col.scale(round), cover(box(x, y, x0, y0, x1, y1, 1.5))
		}})
	}

	for s := range 5 {
		top := float64(board) + float64(float64(s)*(shelfH+board))
		bottom := top + shelfH
		for _, bay := range bays {
			x := bay[0] + between(r, 0, 12)
			leanable, planted := false, false // a book just before; a plant on this shelf
			for x < bay[1]-20 {
				k := r.IntN(100)
				was := leanable
				leanable = false
				switch {
				case k < 6 && x < bay[1]-220: // a stack of books lying flat
					y := bottom
					for range 3 + r.IntN(4) {
						th := between(r, 14, 28)
						l := between(r, 140, 200)
						ox := x + between(r, 0, 14)
						addBook(ox, y-th, ox+l, y, covers[r.IntN(len(covers))])
						y -= th
					}
					x += 220
				case k < 8 && !planted && x < bay[1]-120: // a potted plant
					planted = true
					px := x + 50
					sprites = append(sprites, plant(px, bottom, pot, leaf, r.Uint32()))
					x += 110
				case k < 14 && was && x < bay[1]-80: // a book leaning on its neighbour
					w, h := between(r, 18, 34), float64(shelfH*between(r, 0.7, 0.88))
					ang := between(r, 0.2, 0.38)
					ca, sa := cos(ang), sin(ang)
					// Pivot on the bottom right corner; the top falls to the left.
					pvx := x + float64(h*sa) + w
					c := covers[r.IntN(len(covers))]
					sprites = append(sprites, sprite{x - 2, bottom - h - 2, pvx + 2, bottom, func(px, py float64) (rgb, float64) {
						dx, dy := px-pvx, py-bottom
						lu := float64(dx*ca) - float64(dy*sa)
						lv := float64(dx*sa) + float64(dy*ca)
						d := box(lu, lv, -w, -h, 0, 0, 1.5)
						u := (lu + w) / w
						return c.scale(float64(0.68 + float64(0.34*float64(4*u)*(1-u)))), cover(d)
					}})
					x = pvx + 2
				case k < 17: // a gap
					x += between(r, 8, 36)
				default:
					w := between(r, 16, 34)
					if r.IntN(6) == 0 {
						w = between(r, 36, 56)
					}
					if x+w > bay[1] {
						w = bay[1] - x
					}
					h := float64(shelfH * between(r, 0.7, 0.95))
					addBook(x, bottom-h, x+w, bottom, covers[r.IntN(len(covers))])
					x += w + between(r, 0, 2)
					leanable = true
				}
			}
		}
	}
	books := newLayer(sprites)

	// panel is the back of the case: vertical planks with a coarse grain.
	panel := func(x, y float64) rgb {
		plank := math.Abs(fract(x/120) - 0.5)
		grain := fbm(x/6, y/140, 45, 3)
		c := back.scale(float64(0.6 + float64(0.8*grain)))
		return c.scale(1 - float64(0.35*smoothstep(0.49, 0.5, plank)))
	}

	return func(x, y float64) rgb {
		shelf := int(math.Floor((y - board) / (shelfH + board)))
		top := float64(board) + float64(float64(shelf)*(shelfH+board))
		inBoard := y < board || y >= top+shelfH
		inSide := x < side || x >= width-side || math.Abs(x-width/2) < divider/2
		if inBoard || inSide {
			// Wood grain runs along boards and up the uprights.
			gx, gy := x/600, y/6
			if !inBoard {
				gx, gy = y/600, x/6
			}
			g := fbm(gx, gy, 43, 3)
			c := mix(woodDark, wood, float64(0.5+float64(0.5*sin(float64(g*18)))))
			if inBoard && y >= top+shelfH && y < top+shelfH+3 {
				c = c.scale(1.3) // the lit front edge of a shelf
			}
			return c
		}
		// Books over the back panel, all shaded under the shelf above.
		shadow := float64(0.7 + float64(0.3*smoothstep(top, top+70, y)))
		return books.composite(x, y, panel).scale(shadow)
	}
}

// plant is a terracotta pot standing at (x, base) with a spray of leaves.
func plant(x, base float64, pot, leaf rgb, seed uint32) sprite {
	const w, h = 70.0, 62.0
	return sprite{x - 60, base - h - 120, x + 60, base, func(px, py float64) (rgb, float64) {
		// The pot: a trapezoid with a rim.
		body := convex(px, py, [2]float64{x - w/2, base - h}, [2]float64{x + w/2, base - h}, [2]float64{x + w/3, base}, [2]float64{x - w/3, base})
		rim := box(px, py, x-w/2-4, base-h-12, x+w/2+4, base-h+2, 2)
		pc := pot.scale(float64(0.75 + float64(0.4*smoothstep(x+w/2, x-w/2, px))))
		c, a := pc, cover(min(body, rim))
		// Leaves: ellipses fanning out from the pot.
		for i := range 9 {
			ang := float64(-pi/2) + float64((float64(i)-4)*0.3) + float64(0.2*(rnd(i, 0, seed)-0.5))
			l := 55 + float64(50*rnd(i, 1, seed))
			ca, sa := cos(ang), sin(ang)
			cx, cy := x+float64(ca*l*0.55), base-h-8+float64(sa*l*0.55)
			dx, dy := px-cx, py-cy
			u := float64(dx*ca) + float64(dy*sa)
			v := float64(dy*ca) - float64(dx*sa)
			d := float64((length(u/(l/2), v/11) - 1) * 11)
			if la := cover(d); la > 0 && py < base-h+2 {
				lc := leaf.scale(float64(0.8 + float64(0.4*rnd(i, 2, seed))))
				lc = mix(lc.scale(0.7), lc, smoothstep(-11, 11, v))
				c = mix(c, lc, la)
				a = max(a, la)
			}
		}
		return c, a
	}}
}
