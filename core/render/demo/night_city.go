package demo

import "math"

// nightCity: a skyline at blue hour, three ranks of towers full of lit windows,
// mirrored in a harbour.
func nightCity() shader {
	const shore = 900.0
	// Blue hour: the last of the sunset still glows behind the towers.
	sky := []stop{{0, hex(0x141238)}, {0.35, hex(0x3a2c6a)}, {0.65, hex(0x9a4f78)}, {0.85, hex(0xe47f5e)}, {1, hex(0xf6b26b)}}
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
		{hex(0x4a3f6e), 260, 620, 40, 110, 3, 4, 6, 9, 0.35},
		{hex(0x2c2748), 150, 560, 60, 160, 5, 7, 10, 14, 0.42},
		{hex(0x17152b), 50, 520, 90, 230, 8, 11, 15, 20, 0.5},
	}
	type tower struct {
		x0, x1 int
		top    float64
		inset  int     // setback on each side of the upper part
		setTop float64 // top of the lower, wider part
		style  int     // 0 grid, 1 ribbons, 2 columns
		seed   uint32
		lit    float64
		spire  bool
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
			// A thin mast with a red light; towers have no alpha, so it is either
			// there or not.
			mast := max(math.Abs(x-cx)-1.2, t.top-90-y)
			if y < t.top && mast < 0 {
				if y < t.top-84 {
					return hex(0xff4a3a), true
				}
				return rw.facade.scale(0.8), true
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
		// Streaks of cloud lit from below by the afterglow, and the first stars.
		c := gradient(sky, y/shore)
		streak := smoothstep(0.5, 0.75, fbm(x/420, y/18, 23, 4))
		c = mix(c, gradient(sky, y/shore+0.25), float64(0.8*streak))
		cx, cy := int(math.Floor(x/10)), int(math.Floor(y/10))
		if y < 420 && hash(cx, cy, 25)%5 == 0 {
			sx := float64(cx*10) + float64(10*rnd(cx, cy, 27))
			sy := float64(cy*10) + float64(10*rnd(cx, cy, 29))
			b := float64(float64(rnd(cx, cy, 31)*smoothstep(420, 100, y)) * (1 - streak))
			c = mix(c, lights[2], float64(b*cover(length(x-sx, y-sy)-0.9)))
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
		ripple := float64(0.75 + float64(0.4*noise(x/5, d/float64(1+float64(0.02*d)), 35)))
		c := city(x+shift, max(shore-1-mid, 0)).scale(float64(0.7 * ripple))
		c = mix(c, water, float64(0.2+float64(0.35*smoothstep(0, 300, d))))
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
