package demo

// alpineLake: a clear sky, a snow-capped range, a forested shore and a still lake that
// mirrors it all. Sky and the sky's reflection are large low-detail areas.
func alpineLake() shader {
	const horizon = 690.0
	skyTop, skyLow := hex(0x3767a8), hex(0xcfe0ec)
	rockLit, rockShade := hex(0x8e8a8c), hex(0x4a5670)
	snowLit, snowShade := hex(0xf6f7fa), hex(0xa9bbd6)
	haze := hex(0xb9cbdc)
	forest, forestLit := hex(0x1d3a32), hex(0x35574a)
	deep := hex(0x1b3550)

	peaks := newProfile(func(x float64) float64 {
		// An envelope keeps the range off the image's edges so the sky stays open.
		env := float64(smoothstep(-250, 600, x) * smoothstep(2100, 1300, x))
		return horizon - 60 - float64(480*env*ridge1(x/620, 11, 5))
	})
	hillGround := func(x float64) float64 { return horizon - 28 - float64(70*fbm1(x/380, 23, 3)) }
	hills := newProfile(func(x float64) float64 { return pineTop(x, hillGround, 13, 18, 46, 29) })

	land := func(x, y float64) rgb {
		v := y / horizon
		c := mix(skyTop, skyLow, float64(v*v))
		if a := peaks.cover(x, y); a > 0 {
			d := peaks.depth(x, y)
			// Facets: compare the ridge height either side, over a span that grows with
			// depth and wanders with noise, so faces read as lit or shaded gullies.
			span := 6 + float64(0.45*d)
			xq := x + float64((noise(x/70, y/55, 5)-0.5)*float64(0.9*d))
			slope := (peaks.at(xq+span) - peaks.at(xq-span)) / span
			lit := smoothstep(0.25, -0.25, slope)
			grain := float64(0.86 + float64(0.28*noise((x+float64(0.6*d))/14, y/70, 9)))
			rock := mix(rockShade, rockLit, lit).scale(grain)
			snow := mix(snowShade, snowLit, lit)
			line := horizon - 270 + float64(150*fbm(x/140, y/80, 7, 4))
			m := mix(rock, snow, smoothstep(line+12, line-12, y))
			m = mix(m, haze, float64(0.65*smoothstep(horizon-260, horizon, y)))
			c = mix(c, m, a)
		}
		if a := hills.cover(x, y); a > 0 {
			t := float64(0.5*noise(x/5, y/22, 31)) + float64(0.5*smoothstep(horizon, horizon-70, y))
			c = mix(c, mix(forest, forestLit, float64(0.6*t)), a)
		}
		return c
	}

	return func(x, y float64) rgb {
		if y < horizon {
			return land(x, y)
		}
		d := y - horizon
		// Slow horizontal ripples: the mirror image wobbles a little more further out.
		wob := float64((noise(x/160, y/3.5, 41) - 0.5) * float64(4+float64(d*0.03)))
		c := land(x+wob, horizon-d-1).scale(0.86)
		c = mix(c, deep, float64(0.12+float64(0.38*smoothstep(0, 520, d))))
		// A thin bright line where water meets shore.
		return mix(c, haze, float64(0.5*smoothstep(3, 0, d)))
	}
}
