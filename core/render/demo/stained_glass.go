package demo

import "math"

// stainedGlass: a rose window of leaded glass, hundreds of irregular pieces in rings
// and petals around a golden centre, set in a field of cobalt glass.
func stainedGlass() shader {
	const cell = 54.0 // Voronoi cell size
	const cx, cy = 960.0, 600.0
	lead := hex(0x1b1a1f)
	pal := struct{ gold, amber, red, blue, cobalt, sky, green, teal, purple, rose rgb }{
		hex(0xf2c23c), hex(0xe08a1e), hex(0xb3202a), hex(0x2446a8), hex(0x1c2f7a),
		hex(0x4f86d0), hex(0x2f8a44), hex(0x1f8a8a), hex(0x6a2f8a), hex(0xd0506a),
	}

	// Jittered seed points, one per grid cell (with a border of one cell).
	gw, gh := int(math.Ceil(width/cell))+3, int(math.Ceil(height/cell))+3
	seeds := make([][2]float64, gw*gh)
	for j := range gh {
		for i := range gw {
			seeds[j*gw+i] = [2]float64{
				float64((float64(i-1) + 0.15 + float64(0.7*rnd(i, j, 61))) * cell),
				float64((float64(j-1) + 0.15 + float64(0.7*rnd(i, j, 63))) * cell),
			}
		}
	}

	// For every grid cell, the nine seeds around it and, for each pair of them,
	// 1/(2|b−a|) for the distance to their bisector below.
	type hood struct {
		id  [9]int
		pt  [9][2]float64
		inv [9][9]float64
	}
	hoods := make([]hood, gw*gh)
	for j := 1; j < gh-1; j++ {
		for i := 1; i < gw-1; i++ {
			h := &hoods[j*gw+i]
			for k := range 9 {
				h.id[k] = (j-1+k/3)*gw + i - 1 + k%3
				h.pt[k] = seeds[h.id[k]]
			}
			for a := range 9 {
				for b := range 9 {
					if a != b {
						h.inv[a][b] = 1 / float64(2*length(h.pt[b][0]-h.pt[a][0], h.pt[b][1]-h.pt[a][1]))
					}
				}
			}
		}
	}
	mottle := newField(0, 0, width, height, 6, 6, func(x, y float64) float64 { return noise(x/22, y/22, 67) })

	// region picks a piece's base colour from the window's design at (x, y), and says
	// how far (in pixels) the point is from the design's own lead lines.
	region := func(x, y float64, h uint32) (rgb, float64) {
		dx, dy := x-cx, y-cy
		r := length(dx, dy)
		th := atan2(dy, dx)
		alt := h%3 == 0
		switch {
		case r < 95:
			return pick(alt, pal.amber, pal.gold), 95 - r
		case r < 235:
			// Eight sectors with spokes between them.
			s := float64(th/twoPi*8) + 8
			k := int(math.Floor(s))
			spoke := float64(math.Min(fract(s), 1-fract(s))*r*twoPi) / 8
			c := pick(k%2 == 0, pal.red, pal.blue)
			if alt {
				c = pick(k%2 == 0, pal.rose, pal.sky)
			}
			return c, min(r-95, 235-r, spoke)
		case r < 430:
			// Sixteen petals: |cos 8θ| lobes reaching out from the inner ring.
			lobe := math.Abs(cos(float64(8 * th)))
			edge := 235 + float64(195*math.Sqrt(lobe))
			if r < edge {
				return pick(alt, pal.teal, pal.green), min(r-235, float64((edge-r)*0.5))
			}
			return pick(alt, pal.purple, pal.cobalt), min(430-r, float64((r-edge)*0.5))
		case r < 480:
			s := float64(th/twoPi*48) + 48
			k := int(math.Floor(s))
			spoke := float64(math.Min(fract(s), 1-fract(s))*r*twoPi) / 48
			return pick(k%2 == 0, pal.gold, pal.red), min(r-430, 480-r, spoke)
		}
		c := pal.cobalt
		switch h % 7 {
		case 0:
			c = pal.sky
		case 1:
			c = pal.blue
		case 2:
			if h%5 == 0 {
				c = pal.red
			}
		}
		return c, r - 480
	}

	return func(x, y float64) rgb {
		hd := &hoods[(int(y/cell)+1)*gw+int(x/cell)+1]
		var d2 [9]float64
		best, bk := math.Inf(1), 0
		for k, s := range &hd.pt {
			d2[k] = sq(x-s[0]) + sq(y-s[1])
			if d2[k] < best {
				best, bk = d2[k], k
			}
		}
		// Distance to the cell's border, the nearest bisector with a neighbour:
		// (|p−b|² − |p−a|²) / 2|b−a|.
		border := math.Inf(1)
		for k, inv := range &hd.inv[bk] {
			if d := float64((d2[k] - best) * inv); k != bk && d < border {
				border = d
			}
		}
		bi := hd.id[bk]
		h := hash(bi, 0, 65)
		c, design := region(x, y, h)
		// Each piece differs a little in density and is thinner at its heart.
		c = c.scale(float64(0.8 + float64(0.35*unit(hash(bi, 1, 65)))))
		c = c.scale(float64(0.8 + float64(0.3*smoothstep(0, 30, border))))
		c = c.scale(float64(0.9 + float64(0.2*mottle.at(x, y))))
		// Light comes through stronger at the upper left.
		c = c.scale(float64(0.8 + float64(0.35*smoothstep(1900, 200, float64(0.6*x)+y))))
		w := min(border, float64(2*math.Abs(design)))
		ld := lead.scale(float64(1 + float64(1.5*smoothstep(3.2, 0, math.Abs(w-1.5)))))
		return mix(c, ld, cover(w-3))
	}
}
