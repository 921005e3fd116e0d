package demo

import "math"

// nightCity: a skyline at night, three ranks of towers full of lit windows, mirrored
// in a harbour.
func nightCity() shader {
	const shore = 900.0
	sky := []stop{{0, hex(0x0a0c22)}, {0.5, hex(0x24234a)}, {0.85, hex(0x5b3a5e)}, {1, hex(0x8c5460)}}
	lights := []rgb{hex(0xffd98a), hex(0xffe9b8), hex(0xfff4dc), hex(0xbcd6ff), hex(0xffb35c)}
	water := hex(0x0a0d1f)

	type rank struct {
		facade             rgb
		topMin, topMax     float64
		wMin, wMax         int
		winW, winH, sx, sy int
		lit                float64
	}
	ranks := []rank{
		{hex(0x2c3050), 380, 700, 40, 110, 3, 4, 6, 9, 0.3},
		{hex(0x1d2039), 230, 640, 60, 160, 5, 7, 10, 14, 0.38},
		{hex(0x111326), 90, 560, 90, 230, 8, 11, 15, 20, 0.45},
	}
	type tower struct {
		x0, x1      int
		top         float64
		inset       int     // setback on each side of the upper part
		setTop      float64 // top of the lower, wider part
		style       int     // 0 grid, 1 ribbons, 2 columns
		seed        uint32
		lit         float64
		spire, lamp bool
	}
	type row struct {
		rank
		towers []tower
		at     []int16 // tower index per column, -1 for none
	}
	r := newRand(21)
	rows := make([]row, len(ranks))
	for k, rk := range ranks {
		rw := row{rank: rk, at: make([]int16, width)}
		for i := range rw.at {
			rw.at[i] = -1
		}
		x := -r.IntN(rk.wMax)
		for x < width {
			w := rk.wMin + r.IntN(rk.wMax-rk.wMin)
			t := tower{x0: x, x1: x + w, top: between(r, rk.topMin, rk.topMax), seed: r.Uint32()}
			t.style = r.IntN(3)
			t.lit = float64(rk.lit * between(r, 0.5, 1.5))
			if r.IntN(3) == 0 {
				t.inset = w / 6
				t.setTop = t.top + between(r, 60, 200)
			} else {
				t.setTop = t.top
			}
			t.spire = r.IntN(4) == 0
			t.lamp = r.IntN(2) == 0
			for c := max(t.x0, 0); c < min(t.x1, width); c++ {
				rw.at[c] = int16(len(rw.towers))
			}
			rw.towers = append(rw.towers, t)
			x += w + r.IntN(2+w/8)
		}
		rows[k] = rw
	}

	// towerAt paints rank k's tower at (x, y), or reports that the pixel is above it.
	towerAt := func(k int, x, y float64) (rgb, bool) {
		rw := &rows[k]
		i := rw.at[col(x)]
		if i < 0 {
			return rgb{}, false
		}
		t := &rw.towers[i]
		cx := float64(t.x0+t.x1) / 2
		if t.spire {
			// A thin mast with a red light.
			mast := max(math.Abs(x-cx)-1.2, t.top-90-y)
			if y < t.top && mast < 1 {
				c := mix(rgb{}, rw.facade, 0.8)
				if y < t.top-84 {
					c = hex(0xff4a3a)
				}
				return c, cover(mast) > 0.5
			}
		}
		if y < t.top || (y < t.setTop && (x < float64(t.x0+t.inset) || x >= float64(t.x1-t.inset))) {
			return rgb{}, false
		}
		c := rw.facade.scale(float64(0.85 + float64(0.3*smoothstep(shore, t.top, y))))
		if int(x) == t.x0 || int(x) == t.x0+t.inset && y < t.setTop {
			c = c.scale(1.5) // a lit edge sets neighbouring towers apart
		}
		// Windows in the tower's own grid.
		lx := int(x) - t.x0 - 3
		ly := int(y) - int(t.top) - 6
		if lx < 0 || ly < 0 || int(x) >= t.x1-3 || y > shore-4 {
			return c, true
		}
		ci, ri := lx/rw.sx, ly/rw.sy
		fx, fy := lx%rw.sx, ly%rw.sy
		var in bool
		switch t.style {
		case 0:
			in = fx < rw.winW && fy < rw.winH
		case 1: // ribbons: long horizontal strips, split every few columns
			in = fy < rw.winH-1 && (ci%4 != 3 || fx < rw.winW)
		default: // columns: tall narrow strips
			in = fx < rw.winW-1 && fy < rw.sy-2
		}
		if !in {
			return c, true
		}
		h := hash(ci, ri, t.seed)
		// Lit windows cluster by floor.
		if unit(h) < float64(t.lit*float64(0.6+float64(0.8*rnd(ri, 0, t.seed)))) {
			l := lights[h>>24%uint32(len(lights))]
			return l.scale(float64(0.65 + float64(0.35*rnd(ci, ri, t.seed+1)))), true
		}
		return c.scale(1.35), true
	}

	city := func(x, y float64) rgb {
		for k := len(rows) - 1; k >= 0; k-- {
			if c, ok := towerAt(k, x, y); ok {
				// Farther ranks sink into the glow of the city.
				return mix(c, gradient(sky, y/shore), float64(0.18*float64(len(rows)-1-k)))
			}
		}
		c := gradient(sky, y/shore)
		cx, cy := int(math.Floor(x/13)), int(math.Floor(y/13))
		if hash(cx, cy, 23)%11 == 0 && y < 500 {
			sx := float64(cx*13) + float64(13*rnd(cx, cy, 25))
			sy := float64(cy*13) + float64(13*rnd(cx, cy, 27))
			c = mix(c, lights[2], float64(float64(0.8*rnd(cx, cy, 29))*cover(length(x-sx, y-sy)-0.8)))
		}
		return c
	}

	return func(x, y float64) rgb {
		if y < shore {
			return city(x, y)
		}
		// Harbour: ripple bands, thicker towards the viewer, each shifted sideways and
		// reflecting one row of the city, so lights smear into broken vertical streaks.
		d := y - shore
		band := math.Floor(float64(2.2 * math.Sqrt(d)))
		mid := sq((band + 0.5) / 2.2)
		b := int(band)
		shift := float64((rnd(b, 0, 31) - 0.5) * float64(3+float64(0.05*d)))
		c := city(x+shift, max(shore-1-mid, 0)).scale(0.5)
		c = mix(c, water, float64(0.25+float64(0.5*smoothstep(0, 300, d))))
		// A quay edge with a row of street lamps.
		if d < 6 {
			c = mix(c, hex(0x3a3a4a), 0.8)
			if int(x)%38 < 3 {
				c = lights[4]
			}
		}
		return c
	}
}
