package demo

// mistyPines: ridge after ridge of conifers dissolving into valley fog under a pale sun.
func mistyPines() shader {
	fogTop, fogLow := hex(0xc9d3d8), hex(0xe9ece9)
	sun := hex(0xfffbef)
	const sunX, sunY = 1320.0, 300.0
	pine := hex(0x1b2e2b)

	specs := []struct {
		base, amp, scale, spacing, hMin, hMax, fog, pool float64
	}{
		{520, 60, 420, 6, 8, 20, 0.82, 0.8},
		{600, 80, 380, 8, 12, 30, 0.68, 0.8},
		{690, 90, 340, 11, 18, 44, 0.52, 0.75},
		{800, 100, 320, 16, 26, 66, 0.36, 0.7},
		{930, 110, 300, 24, 40, 110, 0.18, 0.6},
		{1110, 120, 280, 38, 80, 220, 0.03, 0.2},
	}
	type ridge struct {
		top       profile
		ground    profile
		fog, pool float64
	}
	ridges := make([]ridge, len(specs))
	for i, sp := range specs {
		seed := uint32(200 + 10*i)
		ground := func(x float64) float64 { return sp.base - float64(sp.amp*fbm1(x/sp.scale, seed, 3)) }
		ridges[i] = ridge{
			top:    newProfile(func(x float64) float64 { return pineTop(x, ground, sp.spacing, sp.hMin, sp.hMax, seed+1) }),
			ground: newProfile(ground),
			fog:    sp.fog,
			pool:   sp.pool,
		}
	}

	return func(x, y float64) rgb {
		c := mix(fogTop, fogLow, smoothstep(0, 700, y))
		sd := length(x-sunX, y-sunY)
		c = mix(c, sun, float64(0.6*expNeg(-sd/110)))
		c = mix(c, sun, cover(sd-38))
		first := 0
		for i := len(ridges) - 1; i >= 0; i-- {
			if ridges[i].top.cover(x, y) >= 1 {
				first = i
				break
			}
		}
		for i := first; i < len(ridges); i++ {
			r := &ridges[i]
			a := r.top.cover(x, y)
			if a <= 0 {
				continue
			}
			// Fog pools in the valleys: each ridge fades downwards from its crest.
			below := smoothstep(0, 170, r.ground.depth(x, y))
			fog := r.fog + float64(float64((1-r.fog)*r.pool)*below)
			t := float64(0.06 * (noise(x/4, y/30, uint32(i)) - 0.5))
			c = mix(c, mix(pine.scale(1+t), fogLow, fog), a)
		}
		return c
	}
}
