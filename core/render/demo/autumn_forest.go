package demo

import "math"

// autumnForest: a beech wood in autumn: grey trunks receding into golden haze, a
// canopy of orange, red and yellow leaves, and a path through the leaf litter.
func autumnForest() shader {
	const ground = 830.0 // where the forest floor meets the haze
	hazeTop, hazeLow := hex(0xf4dca6), hex(0xe0a868)
	bark, barkDark := hex(0x8a8580), hex(0x3f3a36)
	earth := hex(0x6b4a30)
	lichen := hex(0x9aa27a)
	leafCols := []rgb{
		hex(0xe8792b), hex(0xd2452a), hex(0xf2b43a), hex(0xb8562a), hex(0x9a3b22),
		hex(0xf0d05a), hex(0x7a4a26), hex(0xc9892f),
	}

	// Trunks in three depths; the farther, the thinner and the hazier.
	r := newRand(81)
	var back, front []sprite
	for k, d := range []struct {
		n          int
		wMin, wMax float64
		haze       float64
		base       float64
	}{{48, 6, 16, 0.7, ground}, {16, 20, 38, 0.4, ground + 60}, {5, 50, 90, 0, ground + 260}} {
		for range d.n {
			x := between(r, -40, width+40)
			w := between(r, d.wMin, d.wMax)
			base := d.base + between(r, -20, 40)
			haze := d.haze
			seed := r.Uint32()
			flare := base - float64(1.5*w)
			paint := func(px, py float64) (rgb, float64) {
				// Roots flare out over the last stretch of the trunk.
				half := w / 2
				if py > flare {
					half += float64(float64(0.6*w) * sq(smoothstep(flare, base, py)))
				}
				a := cover(math.Abs(px-x) - half)
				if py > base {
					a = float64(a * cover(py-base))
				}
				if a <= 0 {
					return rgb{}, 0
				}
				// Smooth grey beech bark, lit from the left.
				lit := clamp01(0.6 - float64(0.5*(px-x)/half))
				c := mix(barkDark, bark, lit)
				if haze < 0.5 {
					// Faint horizontal marks and patches of lichen, lost in the haze
					// further off.
					c = c.scale(float64(0.9 + float64(0.2*noise(px/float64(0.4*w), py/3, seed))))
					c = mix(c, lichen, float64(0.3*smoothstep(0.6, 0.8, noise(px/float64(0.25*w), py/float64(0.5*w), seed+1))))
				}
				return mix(c, hazeLow, haze), a
			}
			// Two boxes: the narrow shaft and the flared foot.
			sp := []sprite{
				{x - w/2 - 2, 0, x + w/2 + 2, flare, paint},
				{x - float64(1.1*w) - 2, flare, x + float64(1.1*w) + 2, base + 4, paint},
			}
			if k < 2 {
				back = append(back, sp...)
			} else {
				front = append(front, sp...)
			}
		}
	}
	// The canopy hangs between the far trunks and the near ones.
	behind, before := newLayer(back), newLayer(front)

	// The path winds from the bottom centre towards the haze.
	pathX := func(y float64) float64 {
		p := (y - ground) / (height - ground)
		return 900 + float64(260*sin(float64(p*2.6)+0.4)) - 120
	}
	pathW := func(y float64) float64 { return 20 + float64(330*sq((y-ground)/(height-ground))) }

	canopy := newField(0, 0, width, 700, 8, 8, func(x, y float64) float64 {
		return fbm(x/230, y/160, 85, 4)
	})
	// Hazy undergrowth between the far trunks.
	brush := newProfile(func(x float64) float64 { return ground - 30 - float64(110*fbm1(x/140, 93, 3)) })
	scrub := newLeafGrid(0, 600, width, ground+40, 8, 95, leafCols, func(x, y float64) float64 { return 0.95 })
	crown := newLeafGrid(0, 0, width, 700, 15, 91, leafCols, func(x, y float64) float64 { return 0.92 })

	// The floor is a ground plane in perspective: leaves lie flat on it, so they
	// shrink and foreshorten with distance.
	const vanish, plane, leaf = 780.0, 400.0, 0.085
	toGround := func(x, y float64) (X, Z float64) {
		Z = plane / (y - vanish)
		return float64((x-960)*Z) / plane, Z
	}
	litter := newLeafGrid(-14, 0.9, 14, 9, leaf, 89, leafCols, func(X, Z float64) float64 {
		// Fewer leaves on the path (cell centres mapped back to the screen).
		sy := vanish + plane/Z
		sx := 960 + float64(X*plane)/Z
		onPath := smoothstep(pathW(sy), float64(pathW(sy)*0.6), math.Abs(sx-pathX(sy)))
		return 0.97 - float64(0.75*onPath)
	})

	beams := newRays(0.6, func(s float64) float64 { return smoothstep(0.55, 0.9, noise1(s/110, 87)) })

	pathMid, pathHalf := make([]float64, height), make([]float64, height)
	for y := range height {
		pathMid[y], pathHalf[y] = pathX(float64(y)+0.5), pathW(float64(y)+0.5)
	}

	scene := func(x, y float64) rgb {
		c := mix(hazeTop, hazeLow, smoothstep(0, ground, y))
		// Light slanting in from the upper left.
		beam := beams.at(x, y)
		c = c.add(hazeTop.scale(float64(float64(0.18*beam) * smoothstep(ground+100, 0, y))))
		if y > ground-30 {
			// The forest floor: a carpet of leaves that grow with nearness, thinning
			// on the path.
			p := clamp01((y - ground) / (height - ground))
			floor := mix(earth, hazeLow, float64(0.5*(1-p)))
			row := min(int(y), height-1)
			onPath := smoothstep(pathHalf[row], float64(pathHalf[row]*0.6), math.Abs(x-pathMid[row]))
			floor = mix(floor, hex(0xb08a5e), float64(0.6*onPath))
			X, Z := toGround(x, y)
			if lc, a := litter.at(X, Z, plane/Z); a > 0 {
				lc = mix(lc, hazeLow, float64(0.55*(1-p)))
				floor = mix(floor, lc, a)
			}
			c = mix(c, floor, smoothstep(ground-30, ground+20, y))
		}
		if a := brush.cover(x, y); a > 0 && y < ground+40 {
			bc := mix(earth, hazeLow, 0.55)
			if lc, la := scrub.at(x, y, 1); la > 0 {
				bc = mix(bc, mix(lc, hazeLow, 0.5), la)
			}
			c = mix(c, bc, float64(a*smoothstep(ground+40, ground, y)))
		}
		c = behind.over(x, y, c)
		if y < 700 {
			// The canopy: clumps of leaves, thinning out towards the haze below.
			m := canopy.at(x, y)
			th := float64(0.12 + float64(0.6*smoothstep(0, 560, y)))
			if m > th-0.05 {
				lc, a := crown.at(x, y, 1)
				amount := float64(a * smoothstep(th-0.05, th+0.05, m))
				lc = mix(lc, hazeTop, float64(0.35*smoothstep(200, 700, y)))
				c = mix(c, lc, amount)
			}
		}
		return c
	}
	return func(x, y float64) rgb { return before.composite(x, y, scene) }
}
