package demo

import (
	"cmp"
	"math"
	"slices"
)

// balloonSky: hot-air balloons drifting in a huge clear morning sky over patchwork hills.
func balloonSky() shader {
	const horizon = 950.0
	skyTop, skyMid, skyLow := hex(0x4f8fd0), hex(0xa9cdea), hex(0xf3e6cf)
	hillFar := hex(0x7f9bab)
	hedge := hex(0x2f4a2a)
	fields := []rgb{hex(0x7fa650), hex(0xa9b85a), hex(0xd8c47a), hex(0x5f8f45), hex(0xc79f5a), hex(0x8cb46a)}
	palettes := [][3]rgb{
		{hex(0xd8392b), hex(0xf6c343), hex(0x2d4f9a)},
		{hex(0x2f6fc0), hex(0xf4f1ea), hex(0xe2483d)},
		{hex(0x3f9a5a), hex(0xf29a38), hex(0xf4f1ea)},
		{hex(0x7b3fa0), hex(0xf6d04d), hex(0x2a9d8f)},
		{hex(0xe76f51), hex(0x264653), hex(0xe9c46a)},
		{hex(0xf4f1ea), hex(0xd33f49), hex(0x3a86c8)},
	}
	wicker := hex(0x6b4a2b)

	type balloon struct{ x, y, r float64 }
	r := newRand(11)
	var bs []balloon
	for len(bs) < 9 {
		b := balloon{between(r, 120, 1800), between(r, 120, 700), 0}
		b.r = 16 + float64(100*sq(r.Float64()))
		ok := true
		for _, o := range bs {
			if length(b.x-o.x, b.y-o.y) < float64((b.r+o.r)*1.9) {
				ok = false
			}
		}
		if ok {
			bs = append(bs, b)
		}
	}
	// Small (far) balloons first, so near ones are drawn over them.
	slices.SortStableFunc(bs, func(a, b balloon) int { return cmp.Compare(a.r, b.r) })

	sky := []stop{{0, skyTop}, {0.6, skyMid}, {1, skyLow}}
	skyAt := func(y float64) rgb { return gradient(sky, y/horizon) }

	var sprites []sprite
	for i, b := range bs {
		pal := palettes[i%len(palettes)]
		haze := float64(0.45 * (1 - b.r/120))
		gores := 12.0
		sprites = append(sprites, sprite{b.x - b.r - 2, b.y - b.r - 2, b.x + b.r + 2, b.y + float64(1.9*b.r) + 2, func(x, y float64) (rgb, float64) {
			u, v := (x-b.x)/b.r, (y-b.y)/b.r
			// Envelope: a sphere on top tapering to the mouth.
			var w, sd float64
			if v < 0.2 {
				w = math.Sqrt(max(1-float64(v*v), 0))
				sd = length(u, v) - 1
			} else {
				s := (v - 0.2) / 1.25
				w = 0.98 - float64(0.72*float64(s*(1.4-float64(0.4*s))))
				sd = float64((math.Abs(u) - w) * 0.85)
			}
			sd = max(sd, v-1.45)
			var c rgb
			a := cover(float64(sd * b.r))
			if a > 0 {
				q := clamp01(float64(u/max(w, 0.01)*0.5) + 0.5)
				theta := atan2(float64(2*q)-1, math.Sqrt(max(1-sq(float64(2*q)-1), 0)))
				g := float64((theta/pi + 0.5) * gores)
				k := int(math.Floor(g))
				c = pal[k&1]
				if v > 0.1 && v < 0.32 {
					c = pal[2]
				}
				seam := smoothstep(0.06, 0, math.Min(fract(g), 1-fract(g)))
				c = c.scale(1 - float64(0.25*seam))
				// Light from the upper left.
				nz := math.Sqrt(max(1-sq(float64(2*q)-1), 0))
				lit := float64(-0.45*(float64(2*q)-1)) - float64(0.35*v) + float64(0.8*nz)
				c = c.scale(float64(0.55 + float64(0.5*clamp01(lit))))
			}
			// Basket and ropes.
			ba := cover(box(x, y, b.x-float64(0.17*b.r), b.y+float64(1.62*b.r), b.x+float64(0.17*b.r), b.y+float64(1.88*b.r), float64(0.03*b.r)))
			rw := max(float64(0.012*b.r), 0.5)
			d1, _ := segment(x, y, b.x-float64(0.27*b.r), b.y+float64(1.45*b.r), b.x-float64(0.15*b.r), b.y+float64(1.62*b.r))
			d2, _ := segment(x, y, b.x+float64(0.27*b.r), b.y+float64(1.45*b.r), b.x+float64(0.15*b.r), b.y+float64(1.62*b.r))
			ra := float64(0.8 * cover(min(d1, d2)-rw))
			if ba > 0 || ra > 0 {
				c = mix(c, wicker, max(ba, ra))
				a = max(a, ba, ra)
			}
			return mix(c, skyAt(y), haze), a
		}})
	}
	air := newLayer(sprites)

	far := newProfile(func(x float64) float64 { return horizon - float64(40*fbm1(x/300, 111, 3)) })
	near := newProfile(func(x float64) float64 { return horizon + 70 - float64(90*fbm1(x/420, 113, 3)) })

	// fieldsAt colours the ground plane in perspective: Voronoi fields edged with
	// hedges, and a tree on some of them.
	const plane = 500.0 // focal length × eye height of the ground plane
	fieldsAt := func(x, y float64) rgb {
		Z := plane / (y - horizon + 30)
		X := float64((x-960)*Z) / plane
		gx, gz := float64(X*1.3), float64(Z*2)
		ix, iz := int(math.Floor(gx)), int(math.Floor(gz))
		best, second := 9.0, 9.0
		var bx, bz int
		for j := iz - 1; j <= iz+1; j++ {
			for i := ix - 1; i <= ix+1; i++ {
				px := float64(i) + float64(0.8*rnd(i, j, 117)) + 0.1
				pz := float64(j) + float64(0.8*rnd(i, j, 119)) + 0.1
				d := length(gx-px, gz-pz)
				if d < best {
					best, second, bx, bz = d, best, i, j
				} else if d < second {
					second = d
				}
			}
		}
		c := fields[hash(bx, bz, 121)%uint32(len(fields))]
		c = c.scale(float64(0.93 + float64(0.1*noise(x/7, y/3, 123))))
		// Hedges: a fixed width on the ground, so thinner with distance.
		scale := plane / Z // pixels per ground unit
		edge := float64(float64((second-best)*scale) * 0.3)
		c = mix(c, hedge, float64(0.85*cover(edge-float64(0.012*scale))))
		// Round trees stand on some fields' seed points; a tree can overlap the fields
		// beyond it, so look at the neighbours too, far ones first.
		for j := iz + 1; j >= iz-3; j-- {
			for i := ix - 1; i <= ix+1; i++ {
				if hash(i, j, 125)%3 != 0 {
					continue
				}
				tx := (float64(i) + float64(0.8*rnd(i, j, 117)) + 0.1) / 1.3
				tz := (float64(j) + float64(0.8*rnd(i, j, 119)) + 0.1) / 2
				sx, sy := 960+float64(tx*plane)/tz, horizon-30+plane/tz
				r := float64(0.1 * plane / tz)
				d := length(x-sx, y-sy+r) - r
				if d < 1 {
					c = mix(c, hedge.scale(float64(1.3-float64(0.35*smoothstep(sy-float64(2*r), sy, y)))), cover(d))
				}
			}
		}
		return c
	}

	return func(x, y float64) rgb {
		c := skyAt(y)
		if a := far.cover(x, y); a > 0 {
			h := hillFar.scale(float64(0.94 + float64(0.12*fbm(x/30, y/12, 127, 2))))
			c = mix(c, mix(h, skyLow, float64(0.4*smoothstep(far.at(x), horizon+30, y))), a)
		}
		if a := near.cover(x, y); a > 0 {
			c = mix(c, mix(fieldsAt(x, y), skyLow, float64(0.3*smoothstep(1150, near.at(x), y))), a)
		}
		return air.over(x, y, c)
	}
}
