package demo

import "math"

// coralReef: a sunlit reef seen from the side: branching and brain corals, sea fans,
// tube sponges, anemones and kelp over pale sand, with fish and light rays above.
func coralReef() shader {
	waterTop, waterMid, waterLow := hex(0x58c3d3), hex(0x1f86ad), hex(0x0f4f7e)
	sand := hex(0xe2cf9c)
	ray := hex(0xe6fbff)
	farReef := hex(0x2a6f95)

	r := newRand(71)
	var sprites []sprite
	// Every sprite fades towards the water colour behind it by its haze, so back
	// layers recede.
	waterAt := func(y float64) rgb {
		if y < 600 {
			return mix(waterTop, waterMid, smoothstep(0, 600, y))
		}
		return mix(waterMid, waterLow, smoothstep(600, 1200, y))
	}

	// capsule adds a tapered, round-ended limb from a to b, lit from above left.
	capsule := func(ax, ay, bx, by, ra, rb float64, c rgb, haze float64) {
		pad := max(ra, rb) + 1
		sprites = append(sprites, sprite{min(ax, bx) - pad, min(ay, by) - pad, max(ax, bx) + pad, max(ay, by) + pad, func(x, y float64) (rgb, float64) {
			d, t := segment(x, y, ax, ay, bx, by)
			rad := lerp(ra, rb, t)
			if d > rad+0.5 {
				return rgb{}, 0
			}
			a := cover(d - rad)
			if a <= 0 {
				return rgb{}, 0
			}
			// Which side of the limb: light falls from the upper left.
			ex, ey := bx-ax, by-ay
			side := (float64((x-ax)*ey) - float64((y-ay)*ex)) / max(length(ex, ey), 1e-9)
			if ey > 0 {
				side = -side
			}
			lit := clamp01(float64(0.5*side/max(rad, 0.5)) + 0.5)
			col := c.scale(float64(0.6 + float64(0.55*lit)))
			return mix(col, waterAt(y), haze), a
		}})
	}

	// branch grows a coral or a sea fan recursively from (x, y) in direction ang.
	var branch func(x, y, ang, l, rad float64, depth, forks int, spread float64, c rgb, haze float64)
	branch = func(x, y, ang, l, rad float64, depth, forks int, spread float64, c rgb, haze float64) {
		ex, ey := x+float64(l*cos(ang)), y+float64(l*sin(ang))
		capsule(x, y, ex, ey, rad, float64(rad*0.8), c, haze)
		if depth == 0 {
			return
		}
		for i := range forks {
			da := float64(spread*(float64(i)-float64(forks-1)/2)) + between(r, -0.25, 0.25)
			// Branches bend back towards the light.
			na := float64(0.75*(ang+da)) + float64(0.25*(-pi/2))
			branch(ex, ey, na, float64(l*between(r, 0.7, 0.85)), float64(rad*0.78), depth-1, forks, spread, c, haze)
		}
	}

	brain := func(x, base, w, h float64, c rgb, haze float64, seed uint32) {
		sprites = append(sprites, sprite{x - w - 1, base - h - 1, x + w + 1, base + 4, func(px, py float64) (rgb, float64) {
			u, v := (px-x)/w, (py-base)/h
			e := length(u, v)
			a := cover(float64((e - 1) * h))
			if a <= 0 || py > base+3 {
				return rgb{}, 0
			}
			// Meandering grooves: bands of warped noise.
			m := fbm(px/34, py/34, seed, 3)
			groove := float64(math.Abs(fract(float64(m*9))-0.5) * 2)
			col := c.scale(float64(0.55 + float64(0.45*smoothstep(0.15, 0.5, groove))))
			col = col.scale(float64(0.7 + float64(0.45*clamp01(float64(-0.6*u)-float64(0.8*v)))))
			return mix(col, waterAt(py), haze), a
		}})
	}

	tubes := func(x, base float64, c rgb, haze float64) {
		n := 3 + r.IntN(3)
		for range n {
			tx := x + between(r, -45, 45)
			h := between(r, 90, 230)
			w := between(r, 13, 22)
			top := base - h
			tilt := between(r, -0.25, 0.25)
			capsule(tx, base, tx+float64(tilt*h), top, w, float64(w*1.1), c, haze)
			ox, oy := tx+float64(tilt*h), top
			ow := float64(w * 0.8)
			sprites = append(sprites, sprite{ox - ow - 1, oy - ow, ox + ow + 1, oy + ow, func(px, py float64) (rgb, float64) {
				d := length((px-ox)/ow, (py-oy)/float64(0.35*ow)) - 1
				return mix(c.scale(0.25), waterAt(py), haze), cover(float64(d * float64(0.35*ow)))
			}})
		}
	}

	anemone := func(x, base float64, c, tip rgb, haze float64) {
		for i := range 34 {
			ang := float64(-pi) + float64(pi*(float64(i)+0.5)/34) + between(r, -0.05, 0.05)
			l := between(r, 50, 85)
			ca, sa := cos(ang), sin(ang)
			x1, y1 := x+float64(ca*l*0.5), base+float64(float64(sa*l)*0.5)-10
			x2, y2 := x+float64(ca*l), base+float64(sa*l)-between(r, 10, 30)
			capsule(x, base, x1, y1, 6, 5, c, haze)
			capsule(x1, y1, x2, y2, 5, 3.5, mix(c, tip, 0.7), haze)
		}
	}

	kelp := func(x, base, h float64, c rgb, haze float64, seed uint32) {
		w := between(r, 9, 15)
		sprites = append(sprites, sprite{x - 60, base - h, x + 60, base, func(px, py float64) (rgb, float64) {
			t := (base - py) / h
			sway := float64(float64(40*t) * sin(float64(py*0.018)+float64(seed%13)))
			cx := x + sway
			hw := float64(w * float64(1-float64(0.6*t)))
			a := cover(math.Abs(px-cx) - hw)
			rib := 0.85 + float64(0.25*smoothstep(-hw, hw, px-cx))
			return mix(c.scale(rib), waterAt(py), haze), a
		}})
	}

	// Three depths of reef, back to front.
	palette := []rgb{hex(0xe0607e), hex(0xf08c3c), hex(0x9a5cc6), hex(0xf2c64a), hex(0xe2484a), hex(0x48b08a), hex(0xf28fb0)}
	for _, sp := range []struct{ base, scale, haze float64 }{{770, 0.6, 0.5}, {950, 0.85, 0.26}, {1150, 1.1, 0.05}} {
		x := between(r, -80, 40)
		for x < width+100 {
			c := palette[r.IntN(len(palette))]
			base := sp.base + between(r, -30, 40)
			s := sp.scale
			switch r.IntN(6) {
			case 0:
				w := float64(s * between(r, 80, 150))
				brain(x, base, w, float64(w*between(r, 0.6, 0.85)), mix(c, hex(0xc9b458), 0.5), sp.haze, r.Uint32())
			case 1:
				for range 2 + r.IntN(2) {
					branch(x+between(r, -30, 30), base, float64(-pi/2)+between(r, -0.4, 0.4), float64(s*between(r, 50, 80)), float64(s*12), 4, 2, 0.9, c, sp.haze)
				}
			case 2:
				branch(x, base, -pi/2, float64(s*70), float64(s*4), 6, 2, 0.7, palette[4], sp.haze)
			case 3:
				tubes(x, base, c, sp.haze)
			case 4:
				anemone(x, base, hex(0xf2a0b8), hex(0x8fe09a), sp.haze)
			default:
				for range 2 + r.IntN(3) {
					kelp(x+between(r, -40, 40), base+10, float64(s*between(r, 260, 520)), hex(0x5f8a3a), sp.haze, r.Uint32())
				}
			}
			x += float64(s * between(r, 80, 190))
		}
	}

	// Fish: schools of small silver fish and a few bright reef fish.
	addFish := func(x, y, l float64, body, fin rgb, stripes bool, flip bool, haze float64) {
		h := float64(l * 0.42)
		dir := 1.0
		if flip {
			dir = -1
		}
		sprites = append(sprites, sprite{x - l - 2, y - h - 2, x + l + 2, y + h + 2, func(px, py float64) (rgb, float64) {
			u, v := float64((px-x)*dir)/l, (py-y)/h
			// Body: an ellipse nose to the right; tail: a triangle at the left.
			e := length(float64((u-0.1)/0.75), v) - 1
			a := cover(float64(e * h))
			tail := convex(u, v, [2]float64{-0.55, 0}, [2]float64{-1, -0.75}, [2]float64{-0.88, 0}, [2]float64{-1, 0.75})
			ta := cover(float64(tail * h))
			c := body
			if stripes {
				for _, sx := range []float64{0.45, 0.0, -0.4} {
					if d := math.Abs(u-sx) - 0.08; d < 0.05 {
						c = mix(c, hex(0xffffff), cover(float64(d*l)))
						c = mix(c, hex(0x111111), float64(0.8*cover(float64(math.Abs(d-0.02)*l)-1)))
					}
				}
			}
			c = c.scale(float64(0.8 + float64(0.35*clamp01(0.5-float64(0.6*v)))))
			if ta > a {
				c = fin
			}
			eye := length(float64((u-0.62)*l), float64(float64(v+0.15)*h)) - float64(0.06*l)
			c = mix(c, hex(0x101010), cover(eye))
			return mix(c, waterAt(py), haze), max(a, ta)
		}})
	}
	school := func(cx, cy float64, n int, flip bool) {
		for range n {
			x := cx + between(r, -220, 220)
			y := cy + float64(between(r, -90, 90)) + float64((x-cx)*0.15)
			addFish(x, y, between(r, 9, 13), hex(0xc9d6df), hex(0xa9b6bf), false, flip, 0.3)
		}
	}
	school(520, 300, 45, false)
	school(1450, 470, 35, true)
	school(1100, 150, 30, false)
	reef := []struct {
		body, fin rgb
		stripes   bool
	}{
		{hex(0xf07a1a), hex(0xf07a1a), true}, {hex(0x2a5fd0), hex(0xf2d23a), false},
		{hex(0xf4d02e), hex(0xf4d02e), false}, {hex(0xe04a6a), hex(0xf2a03a), false},
	}
	for i := range 18 {
		k := reef[i%len(reef)]
		addFish(between(r, 60, 1860), between(r, 380, 900), between(r, 26, 48), k.body, k.fin, k.stripes, r.IntN(2) == 0, 0.1)
	}
	// Bubbles rising from the reef.
	for range 40 {
		bx, by, br := between(r, 100, 1800), between(r, 60, 700), between(r, 3, 9)
		sprites = append(sprites, sprite{bx - br - 1, by - br - 1, bx + br + 1, by + br + 1, func(x, y float64) (rgb, float64) {
			d := length(x-bx, y-by) - br
			ring := cover(math.Abs(d+1) - 1)
			spec := cover(length(x-bx+float64(0.35*br), y-by+float64(0.35*br)) - float64(0.25*br))
			return ray, max(float64(0.6*ring), spec, float64(0.15*cover(d)))
		}})
	}
	items := newLayer(sprites)

	far := newProfile(func(x float64) float64 { return 760 - float64(120*fbm1(x/180, 73, 4)) })

	// caustic is the net of bright lines that ripples on the surface focus: the
	// level-0.5 lines of two noise fields.
	// The two fields are smooth, so they are sampled every few pixels; the level lines
	// are found after interpolation and stay sharp.
	netA := newField(0, 0, width, 1100, 3, 3, func(x, y float64) float64 { return noise(x/27, y/17, 81) })
	netB := newField(0, 0, width, 1100, 3, 3, func(x, y float64) float64 { return noise(x/21+7, y/24+3, 83) })
	caustic := func(x, y float64) float64 {
		a := math.Abs(netA.at(x, y) - 0.5)
		b := math.Abs(netB.at(x, y) - 0.5)
		return smoothstep(0.06, 0, math.Min(a, b))
	}
	reefTone := newField(0, 600, width, height, 3, 3, func(x, y float64) float64 { return fbm(x/16, y/16, 77, 3) })

	shafts := newRays(-0.35, func(s float64) float64 { return smoothstep(0.55, 0.85, noise1(s/70, 75)) })

	background := func(x, y float64) rgb {
		c := waterAt(y)
		// Shafts of light slanting down from the surface, and the caustic net.
		shaft := shafts.at(x, y)
		c = mix(c, ray, float64(float64(0.22*shaft)*smoothstep(900, 0, y)))
		if y < 1100 {
			c = mix(c, ray, float64(float64(0.3*caustic(x, y))*smoothstep(1100, 100, y)))
		}
		if a := far.cover(x, y); a > 0 {
			c = mix(c, mix(farReef, waterAt(y), float64(0.7*reefTone.at(x, y))), a)
		}
		if y > 1000 {
			rip := float64(0.06 * sin(float64(x*0.06)+float64(6*noise(x/120, y/30, 79))))
			sd := sand.scale(1 + rip)
			// A single noise field's level lines will do for the sand.
			net := smoothstep(0.05, 0, math.Abs(noise(x/20, y/11, 85)-0.5))
			sd = mix(sd, hex(0xfff8e0), float64(0.45*net))
			c = mix(c, sd, smoothstep(1000, 1040, y))
		}
		return c
	}
	return func(x, y float64) rgb { return items.composite(x, y, background) }
}
