package demo

import "math"

// desertDunes: a wide warm sky with a low sun, mesas on the horizon and sharp-crested
// dunes, lit on one face and shaded on the other.
func desertDunes() shader {
	const horizon = 610.0
	skyTop, skyLow := hex(0x2d5f9e), hex(0xf3dcb6)
	sun := hex(0xfff4d6)
	const sunX, sunY = 1430.0, 300.0
	mesaCol := hex(0xa8685a)
	sandLit, sandShade := hex(0xedb878), hex(0xa8653d)
	floor := mix(sandLit, skyLow, 0.55)

	r := newRand(7)
	type mesa struct{ cx, half, h, slope float64 }
	mesas := make([]mesa, 4)
	for i := range mesas {
		mesas[i] = mesa{between(r, 80, 1840), between(r, 30, 150), between(r, 30, 80), between(r, 12, 40)}
	}
	butte := newProfile(func(x float64) float64 {
		top := horizon + 40
		for _, m := range mesas {
			t := clamp01((m.half - math.Abs(x-m.cx)) / m.slope)
			top = min(top, horizon+4-float64(m.h*fade(t)))
		}
		if top < horizon {
			top -= float64(3 * noise1(x/7, 9))
		}
		return top
	})

	// Dune ridges from far to near. Each crest is swept down and to the right, as if the
	// ridge came towards the viewer: with the sun on the right, parts of the crest that
	// rise to the right are slip faces in shade.
	type dune struct {
		crest profile
		slope []float64 // crest slope over ±6 columns, so tiny wiggles cast no slivers
		haze  float64
	}
	specs := []struct{ base, amp, scale, haze float64 }{
		{665, 40, 210, 0.5}, {750, 75, 300, 0.33}, {870, 120, 430, 0.16}, {1060, 190, 600, 0},
	}
	dunes := make([]dune, len(specs))
	for i, sp := range specs {
		seed := uint32(100 + i)
		crest := newProfile(func(x float64) float64 {
			return sp.base - float64(sp.amp*ridge1(x/sp.scale+float64(i*7), seed, 2))
		})
		slope := make([]float64, width)
		for x := range slope {
			slope[x] = (crest.top[min(x+6, width-1)] - crest.top[max(x-6, 0)]) / 12
		}
		dunes[i] = dune{crest, slope, sp.haze}
	}

	sand := func(i int, x, y float64) rgb {
		dn := &dunes[i]
		d := dn.crest.depth(x, y)
		xs := x - float64(0.55*d) - float64(30*noise(d/90, float64(i), 17))
		c := mix(sandShade, sandLit, smoothstep(-0.2, 0.08, dn.slope[col(xs)]))
		c = c.scale(1 - float64(0.14*smoothstep(0, 260, d)))
		if i == len(dunes)-1 {
			// Wind ripples on the nearest dune only.
			w := sin(float64(x*0.05) + float64(y*0.31) + float64(9*noise(x/90, y/50, 13)))
			c = c.scale(1 + float64(0.03*w))
		}
		return mix(c, skyLow, dn.haze)
	}

	return func(x, y float64) rgb {
		v := clamp01(y / horizon)
		c := mix(skyTop, skyLow, float64(v*(2-v)))
		sd := length(x-sunX, y-sunY)
		c = mix(c, sun, float64(0.55*expNeg(-sd/140)))
		c = mix(c, sun, cover(sd-46))
		if y > horizon {
			c = floor
		}
		if a := butte.cover(x, y); a > 0 && y < horizon+4 {
			// Sandstone strata, darker towards the cap.
			strata := float64(0.04 * sin(float64(y*0.45)+float64(3*noise1(x/40, 3))))
			m := mesaCol.scale(1 + strata)
			m = mix(m, skyLow, float64(0.5*smoothstep(butte.at(x), horizon, y)))
			c = mix(c, m, a)
		}
		// Paint from the nearest dune that fully covers the pixel forwards.
		first := 0
		for i := len(dunes) - 1; i >= 0; i-- {
			if dunes[i].crest.cover(x, y) >= 1 {
				first = i
				break
			}
		}
		for i := first; i < len(dunes); i++ {
			if a := dunes[i].crest.cover(x, y); a > 0 {
				c = mix(c, sand(i, x, y), a)
			}
		}
		return c
	}
}
