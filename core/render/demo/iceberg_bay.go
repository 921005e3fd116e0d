package demo

// icebergBay: tabular icebergs and drifting floes on a glassy polar bay, a low white
// coast beyond and a pale sky.
func icebergBay() shader {
	const horizon = 600.0
	const eye, focal = 2.0, 900.0
	skyTop, skyLow := hex(0x7fa9cc), hex(0xe9f0f2)
	coast := hex(0xdfe8ee)
	iceLit, iceShade, iceDeep := hex(0xf5f9fb), hex(0xa9cde0), hex(0x5e9cbb)
	water, deep := hex(0x3b6f83), hex(0x163746)

	hills := newProfile(func(x float64) float64 { return horizon - 4 - float64(34*fbm1(x/260, 91, 4)) })

	// Three tabular bergs on a common waterline, each with a jagged top and a lit face
	// turned to the sun on the left.
	const waterline = horizon + 2
	type berg struct{ x0, x1, h float64 }
	bergs := []berg{{180, 640, 120}, {860, 1090, 70}, {1330, 1800, 150}}
	bergTop := newProfile(func(x float64) float64 {
		top := waterline + 40
		for i, b := range bergs {
			if x < b.x0 || x > b.x1 {
				continue
			}
			side := min(x-b.x0, b.x1-x)
			cliff := smoothstep(0, 22, side)
			jag := float64(8*noise1(x/13, 93+uint32(i))) + float64(5*noise1(x/4, 97))
			top = min(top, waterline-float64(b.h*cliff)+jag)
		}
		return top
	})

	bergAt := func(x, y float64, c rgb) rgb {
		a := bergTop.cover(x, y)
		if a <= 0 || y > waterline {
			return c
		}
		for _, b := range bergs {
			if x >= b.x0-2 && x <= b.x1+2 {
				// Lit towards the left end; vertical melt grooves; bluer near the water.
				u := (x - b.x0) / (b.x1 - b.x0)
				ice := mix(iceLit, iceShade, smoothstep(0.55, 0.95, u))
				groove := noise(x/11, y/140, 95)
				ice = mix(ice, iceShade, float64(0.25*smoothstep(0.55, 0.9, groove)))
				ice = mix(ice, iceDeep, float64(0.5*smoothstep(waterline-40, waterline, y)))
				return mix(c, ice, a)
			}
		}
		return c
	}

	above := func(x, y float64) rgb {
		c := mix(skyTop, skyLow, smoothstep(0, horizon, y))
		if a := hills.cover(x, y); a > 0 {
			c = mix(c, mix(coast, skyLow, float64(0.4*smoothstep(hills.at(x), horizon, y))), a)
		}
		return bergAt(x, y, c)
	}

	// Floes lie on the water plane: noise islands in ground coordinates, each with a
	// thin cyan edge where its side shows.
	floe := func(x, y float64) float64 {
		Z := focal * eye / (y - horizon)
		X := (x - 960) * Z / focal
		return fbm(X/2, Z/3, 99, 3)
	}

	return func(x, y float64) rgb {
		if y < horizon {
			return above(x, y)
		}
		d := y - horizon
		t := d / (height - horizon)
		// Still water mirrors the bergs and the sky about the waterline.
		c := above(x, min(2*waterline-y, horizon-1))
		c = mix(c, water, float64(0.3+float64(0.25*t)))
		c = mix(c, deep, float64(0.55*smoothstep(0.1, 1, t)))
		if d > 80 {
			// Floes thin out towards the horizon, where they would only alias.
			th := 0.64 + float64(0.12*smoothstep(250, 80, d))
			thick := 2 + float64(12*t)
			// The noise changes by about 1/d per pixel here: edges one pixel wide.
			aa := 1.2 / d
			if side := floe(x, y-thick); side > th {
				c = mix(c, iceDeep, smoothstep(th, th+aa, side))
			}
			if f := floe(x, y); f > th {
				top := mix(iceLit, iceShade, float64(0.4*smoothstep(th+float64(8*aa), th, f)))
				c = mix(c, top, smoothstep(th, th+aa, f))
			}
		}
		return c
	}
}
