package demo

import "math"

// sunsetSea: a sun setting into a calm sea under bands of evening colour, a glitter path
// on the water and a distant sailing boat.
func sunsetSea() shader {
	const horizon = 650.0
	const sunX, sunY, sunR = 1260.0, 606.0, 62.0
	sky := []stop{
		{0, hex(0x27245b)}, {0.35, hex(0x6a3f7f)}, {0.62, hex(0xd1677a)},
		{0.84, hex(0xf49c5c)}, {1, hex(0xfcd58e)},
	}
	sun, gold := hex(0xfff3cc), hex(0xffd27a)
	cloudDark, cloudLit := hex(0x4a2f5c), hex(0xf7a274)
	deep := hex(0x1f1d45)
	hull := hex(0x1e1a33)

	// Cloud density only varies slowly; sample it on a coarse grid.
	clouds := newField(0, 220, width, 600, 4, 2, func(x, y float64) float64 {
		return fbm(x/650, y/26, 81, 4)
	})

	skyAt := func(x, y float64) rgb {
		c := gradient(sky, y/horizon)
		sd := length(x-sunX, y-sunY)
		c = mix(c, gold, float64(0.45*expNeg(-sd/230)))
		// Long streaks of cloud, lit from below near the sun.
		band := float64(smoothstep(230, 330, y) * smoothstep(590, 500, y))
		if band <= 0 {
			return c
		}
		dens := float64(band * smoothstep(0.56, 0.7, clouds.at(x, y)))
		if dens > 0 {
			under := smoothstep(0.5, 0.62, clouds.at(x, y+9))
			lit := float64(float64(0.35+float64(0.65*expNeg(-math.Abs(x-sunX)/700))) * (1 - under))
			c = mix(c, mix(cloudDark, cloudLit, lit), float64(0.9*dens))
		}
		return c
	}

	// The boat: a dark hull with two sails.
	const bx, by = 520.0, 652.0
	boat := []sprite{{bx - 40, by - 84, bx + 40, by + 2, func(x, y float64) (rgb, float64) {
		h := convex(x, y, [2]float64{bx - 34, by - 10}, [2]float64{bx + 36, by - 10}, [2]float64{bx + 24, by}, [2]float64{bx - 26, by})
		main := convex(x, y, [2]float64{bx - 2, by - 82}, [2]float64{bx - 2, by - 13}, [2]float64{bx - 30, by - 13})
		jib := convex(x, y, [2]float64{bx + 2, by - 74}, [2]float64{bx + 30, by - 13}, [2]float64{bx + 2, by - 13})
		return hull, cover(min(h, main, jib))
	}}}
	items := newLayer(boat)

	return func(x, y float64) rgb {
		if y < horizon {
			c := skyAt(x, y)
			c = mix(c, sun, cover(length(x-sunX, y-sunY)-sunR))
			return items.over(x, y, c)
		}
		d := y - horizon
		t := d / (height - horizon)
		// The sea mirrors the sky, darkening towards the viewer.
		c := skyAt(x, horizon-d-1).scale(0.8)
		c = mix(c, deep, float64(0.25+float64(0.6*smoothstep(0, 1, t))))
		swell := noise(x/float64(40+float64(300*t)), d/float64(2+float64(12*t)), 83)
		c = c.scale(1 + float64(0.04*(swell-0.5)))
		// The glitter path: broken horizontal flecks, widening towards the viewer.
		w := 30 + float64(330*t)
		path := smoothstep(1, 0.2, math.Abs(x-sunX)/w)
		if path > 0 {
			fleck := smoothstep(0.6, 0.75, noise(x/float64(5+float64(26*t)), d/float64(1+float64(4*t)), 85))
			c = mix(c, gold, float64(float64(path*fleck)*float64(0.9-float64(0.4*t))))
		}
		// A haze of light on the water right under the sun.
		c = c.add(gold.scale(float64(0.3 * expNeg(-d/12-math.Abs(x-sunX)/500))))
		// The boat's reflection, mirrored about its waterline.
		return items.over(x, 2*by-y, c)
	}
}
