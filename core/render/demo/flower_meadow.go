package demo

import "math"

// flowerMeadow: a meadow thick with poppies, daisies, cornflowers and buttercups,
// shrinking towards a line of trees under a summer sky.
func flowerMeadow() shader {
	const top = 290.0 // where the meadow meets the trees
	skyTop, skyLow := hex(0x5d98d6), hex(0xd4e6f2)
	cloud := hex(0xfafbfd)
	treeDark, treeLit := hex(0x24452a), hex(0x4d7a3c)
	grassFar, grassNear, grassDark := hex(0x9fbf6a), hex(0x4f8f3a), hex(0x2b5a26)
	stem := hex(0x3f7a2e)

	type kind struct {
		petal, centre rgb
		n             int     // petals
		inner         float64 // radius fraction where petals part
		thin          bool    // narrow petals
		centreR       float64
		weight        int
	}
	kinds := []kind{
		{hex(0xd8281f), hex(0x1e1414), 5, 0.55, false, 0.22, 5}, // poppy
		{hex(0xf7f7f2), hex(0xf2c12e), 12, 0.25, true, 0.28, 5}, // daisy
		{hex(0xf4cf2a), hex(0xe59a1d), 5, 0.45, false, 0.2, 4},  // buttercup
		{hex(0x4767d4), hex(0x2a2f6e), 8, 0.5, false, 0.18, 3},  // cornflower
		{hex(0xe58bbd), hex(0xf0c542), 8, 0.35, true, 0.22, 2},  // cosmos
		{hex(0x8a5cc6), hex(0x8a5cc6), 0, 0, false, 0, 2},       // lavender spike
	}
	var bag []int
	for i, k := range kinds {
		for range k.weight {
			bag = append(bag, i)
		}
	}

	size := func(y float64) float64 { return 2.2 + float64(30*clamp01((y-top)/(height-top))) }
	// The grass colour only changes with distance: one entry per row.
	grassRow := make([]rgb, height)
	for y := range grassRow {
		p := clamp01((float64(y) + 0.5 - top) / (height - top))
		g := mix(grassFar, grassNear, smoothstep(0, 0.6, p))
		grassRow[y] = mix(g, skyLow, float64(0.3*smoothstep(0.25, 0, p)))
	}

	r := newRand(31)
	var sprites []sprite
	for y := top + 4; y < height+40; y += max(float64(0.6*size(y)), 2.5) {
		s := size(y)
		for x := -float64(3 * s * r.Float64()); x < width+s; x += max(between(r, float64(2.2*s), float64(4.8*s)), 7) {
			fx, fy := x+float64(s*r.Float64()), y+float64(float64(0.5*s)*r.Float64())
			// Flowers grow in drifts: sparse patches of bare grass, and each kind
			// dominating where its own noise field is high.
			gx, gy := fx/520, (fy-top)/170
			pick := bag[r.IntN(len(bag))]
			skip := r.Float64()
			if skip > float64(1.8*fbm(gx, gy, 49, 2))-0.15 {
				continue
			}
			best := 0.0
			for i := range kinds {
				if v := noise(float64(gx*1.7), float64(gy*1.7), 51+uint32(i)); v > best {
					best, pick = v, i
				}
			}
			if skip < 0.25 { // a few strays outside their drift
				pick = bag[int(float64(skip*4*float64(len(bag))))%len(bag)]
			}
			k := kinds[pick]
			rad := float64(s * between(r, 0.75, 1.2))
			ang := between(r, 0, twoPi)
			wx, wy := cos(ang), sin(ang)
			shade := between(r, 0.85, 1.1)
			stemLen := float64(rad * 2.6)
			sw := max(float64(rad*0.09), 0.7)
			if k.n == 0 {
				// A spike of small purple florets.
				hw, hh := float64(0.45*rad), float64(1.6*rad)
				sprites = append(sprites, sprite{fx - hw - 1, fy - hh - 1, fx + hw + 1, fy + hh + stemLen, func(px, py float64) (rgb, float64) {
					e := length((px-fx)/hw, (py-fy)/hh)
					floret := noise(px/float64(0.3*hw), py/float64(0.3*hw), 35)
					a := cover(float64((e - 1 + float64(0.15*floret)) * hw))
					c := k.petal.scale(float64(shade * float64(0.7+float64(0.3*smoothstep(fy+hh, fy-hh, py)))))
					c = mix(c, hex(0xc7a8ec), float64(0.5*smoothstep(0.55, 0.9, floret)))
					if a < 1 && py > fy {
						d, _ := segment(px, py, fx, fy, fx, fy+hh+stemLen)
						sa := cover(d - sw)
						c = mix(stem, c, a)
						a = max(a, sa)
					}
					return c, a
				}})
				continue
			}
			// The stem, leaning a little to the right, behind the head; it is nearly
			// vertical, so the horizontal distance will do.
			lean := float64(0.1*rad) / stemLen
			sprites = append(sprites, sprite{fx - sw - 2, fy, fx + float64(0.1*rad) + sw + 2, fy + stemLen, func(px, py float64) (rgb, float64) {
				return stem.scale(shade), cover(math.Abs(px-fx-float64((py-fy)*lean)) - sw)
			}})
			// Flower faces tilt towards the sky, so the head is squashed vertically.
			const squash = 0.72
			hh := float64(squash*rad) + 1
			sprites = append(sprites, sprite{fx - rad - 1, fy - hh, fx + rad + 1, fy + hh, func(px, py float64) (rgb, float64) {
				dx, dy := px-fx, (py-fy)/squash
				r2 := float64(dx*dx) + float64(dy*dy)
				if r2 > sq(rad+1) {
					return rgb{}, 0
				}
				rho := math.Sqrt(r2)
				petal := 0.0 // petal edge radius
				if rho > 1e-6 {
					// cos(nθ) by Chebyshev recurrence on the rotated direction.
					ct := (float64(dx*wx) + float64(dy*wy)) / rho
					t0, t1 := 1.0, ct
					for range k.n - 1 {
						t0, t1 = t1, float64(float64(2*ct)*t1)-t0
					}
					lobe := math.Sqrt(max((1+t1)/2, 0))
					if k.thin {
						lobe = sq(sq(lobe))
					}
					petal = float64(rad * float64(k.inner+float64((1-k.inner)*lobe)))
				}
				c := mix(k.petal.scale(0.7), k.petal, smoothstep(0, float64(0.8*rad), rho)).scale(shade)
				cr := float64(k.centreR * rad)
				if rho < cr+1 {
					dot := k.centre.scale(float64(0.8 + float64(0.3*noise(px/1.5, py/1.5, 37))))
					c = mix(c, dot, cover(rho-cr))
				}
				return c, cover(rho - petal)
			}})
		}
	}
	flowers := newLayer(sprites)

	trees := newProfile(func(x float64) float64 {
		// Rounded crowns: the highest of overlapping circular bumps.
		best := top + 10
		c := int(math.Floor(x / 38))
		for i := c - 2; i <= c+2; i++ {
			cx := float64(float64(i)*38) + float64(38*rnd(i, 0, 39))
			rr := 30 + float64(34*rnd(i, 1, 39))
			base := top - 5 - float64(30*fbm1(cx/300, 41, 2))
			if dx := math.Abs(x - cx); dx < rr {
				best = min(best, base-math.Sqrt(float64(rr*rr)-float64(dx*dx)))
			}
		}
		return best
	})

	// The sky's clouds and the trees' foliage vary slowly: sample them coarsely.
	clouds := newField(0, 0, width, top+12, 4, 4, func(x, y float64) float64 { return fbm(x/260, y/70, 43, 4) })
	foliage := newField(0, 100, width, top+12, 2, 2, func(x, y float64) float64 { return fbm(x/9, y/9, 45, 3) })

	background := func(x, y float64) rgb {
		var c rgb
		if y < top+12 {
			c = mix(skyTop, skyLow, smoothstep(0, top, y))
			cl := clouds.at(x, y)
			c = mix(c, cloud, float64(0.85*smoothstep(0.55, 0.7, cl)*smoothstep(top, 60, y)))
			if a := trees.cover(x, y); a > 0 {
				d := trees.depth(x, y)
				leaf := foliage.at(x, y)
				t := mix(treeLit, treeDark, float64(smoothstep(0, 60, d)*0.7)+float64(0.3*leaf))
				c = mix(c, mix(t, skyLow, 0.25), a)
			}
		}
		if y > top {
			// Grass: short vertical blades, darker between them.
			blade := noise(x/2.5, y/12, 47)
			g := mix(grassRow[min(int(y), height-1)], grassDark, float64(0.55*smoothstep(0.35, 0.9, blade)))
			c = mix(c, g, smoothstep(top, top+3, y))
		}
		return c
	}
	return func(x, y float64) rgb { return flowers.composite(x, y, background) }
}
