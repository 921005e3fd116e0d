package demo

import "math"

// moonlitBay: a full moon over a dark, calm bay, a rocky headland with a lighthouse and
// the lights of a far shore.
func moonlitBay() shader {
	const horizon = 760.0
	const moonX, moonY, moonR = 560.0, 250.0, 60.0
	skyTop, skyLow := hex(0x081029), hex(0x2b3f68)
	moon, maria := hex(0xf3eed8), hex(0xc9c3ad)
	silver := hex(0xdfe6f0)
	rock, rockRim := hex(0x0b111d), hex(0x3a4a66)
	shore := hex(0x111a2c)
	sea := hex(0x0e1834)
	warm := hex(0xffcf7a)
	const lhX = 1590.0

	farShore := newProfile(func(x float64) float64 {
		return horizon - float64(26*fbm1(x/210, 121, 3)*smoothstep(1250, 900, x))
	})
	head := newProfile(func(x float64) float64 {
		rise := smoothstep(1240, 1560, x)
		return horizon + 30 - float64(260*rise) - float64(float64(50*rise)*fbm1(x/90, 123, 4))
	})
	lhBase := head.at(lhX)

	// Lighthouse: a tapered white tower with a red band and a lamp.
	tower := []sprite{{lhX - 30, lhBase - 190, lhX + 30, lhBase + 6, func(x, y float64) (rgb, float64) {
		t := clamp01((lhBase - y) / 150)
		half := 18 - float64(7*t)
		body := max(math.Abs(x-lhX)-half, y-lhBase-4, lhBase-150-y)
		c := mix(hex(0xc9cdd6), hex(0x5b6477), smoothstep(lhX-half, lhX+half, x))
		if t > 0.45 && t < 0.62 {
			c = mix(hex(0x9a3a37), hex(0x4a1f22), smoothstep(lhX-half, lhX+half, x))
		}
		a := cover(body)
		lampD := box(x, y, lhX-10, lhBase-176, lhX+10, lhBase-150, 2)
		c = mix(c, warm, cover(lampD))
		capD := convex(x, y, [2]float64{lhX, lhBase - 192}, [2]float64{lhX + 15, lhBase - 176}, [2]float64{lhX - 15, lhBase - 176})
		c = mix(c, rock, cover(capD))
		return c, max(a, cover(lampD), cover(capD))
	}}}
	items := newLayer(tower)
	lampX, lampY := lhX, lhBase-163

	skyAt := func(x, y float64) rgb {
		c := mix(skyTop, skyLow, smoothstep(0, horizon, y))
		md := length(x-moonX, y-moonY)
		c = c.add(silver.scale(float64(0.28 * expNeg(-md/130))))
		// Sparse stars, dimmer near the moon and the horizon.
		cx, cy := int(math.Floor(x/11)), int(math.Floor(y/11))
		if h := hash(cx, cy, 125); h%53 == 0 {
			sx := float64(cx*11) + float64(11*rnd(cx, cy, 127))
			sy := float64(cy*11) + float64(11*rnd(cx, cy, 129))
			b := float64(float64(rnd(cx, cy, 131)*smoothstep(horizon, 300, y)) * smoothstep(120, 260, md))
			c = mix(c, silver, float64(b*cover(length(x-sx, y-sy)-0.9)))
		}
		// The lamp's glow and a faint beam sweeping left.
		ld := length(x-lampX, y-lampY)
		c = c.add(warm.scale(float64(0.5 * expNeg(-ld/22))))
		if x < lampX {
			beam := math.Abs(y-lampY+float64((lampX-x)*0.06)) / float64(6+float64((lampX-x)*0.07))
			c = c.add(warm.scale(float64(float64(0.12*smoothstep(1, 0, beam)) * expNeg(-(lampX-x)/600))))
		}
		// The moon with soft grey seas.
		if a := cover(md - moonR); a > 0 {
			m := mix(moon, maria, smoothstep(0.45, 0.65, fbm(x/28, y/28, 133, 4)))
			c = mix(c, m, a)
		}
		return c
	}

	land := func(x, y float64, c rgb) rgb {
		if a := farShore.cover(x, y); a > 0 {
			c = mix(c, shore, a)
			// Windows of a far town along the waterline.
			k := int(math.Floor(x / 9))
			if y > horizon-8 && x < 1150 && hash(k, 0, 135)%3 == 0 {
				lx := float64(k*9) + float64(9*rnd(k, 1, 135))
				ly := horizon - 2 - float64(4*rnd(k, 2, 135))
				c = mix(c, warm, float64(0.9*cover(length(x-lx, y-ly)-1.3)))
			}
		}
		if a := head.cover(x, y); a > 0 {
			// Moonlight catches the headland's upper edge.
			rim := smoothstep(10, 0, head.depth(x, y))
			grain := fbm(x/40, y/25, 139, 3)
			r := rock.scale(float64(0.8 + float64(0.5*grain)))
			c = mix(c, mix(r, rockRim, float64(0.6*rim)), a)
		}
		return items.over(x, y, c)
	}

	return func(x, y float64) rgb {
		if y < horizon {
			return land(x, y, skyAt(x, y))
		}
		d := y - horizon
		t := d / (height - horizon)
		m := horizon - d - 1
		c := land(x, m, skyAt(x, m)).scale(0.55)
		c = mix(c, sea, float64(0.35+float64(0.4*t)))
		// Moon and lamp glitter: broken flecks on the swell.
		fleck := noise(x/float64(5+float64(22*t)), d/float64(1+float64(3*t)), 137)
		mp := smoothstep(1, 0.2, math.Abs(x-moonX)/float64(25+float64(260*t)))
		c = mix(c, silver, float64(float64(mp*smoothstep(0.6, 0.78, fleck))*0.8))
		lp := smoothstep(1, 0.2, math.Abs(x-lampX)/float64(6+float64(40*t)))
		c = mix(c, warm, float64(float64(lp*smoothstep(0.62, 0.8, fleck))*float64(0.6*(1-t))))
		return c
	}
}
