package demo

// snowField: a wide snow plain under an overcast sky, a fence running off to a distant
// forest and a small red cabin with a smoking chimney.
func snowField() shader {
	const horizon = 560.0
	const eye, focal = 1.6, 1000.0 // camera height and focal length for the ground plane
	skyTop, skyLow := hex(0xa9b3c1), hex(0xe2e5ea)
	snow, snowShade := hex(0xf7f8fb), hex(0xc4d0e2)
	forest := hex(0x6c7785)
	wood, woodDark := hex(0x5b4636), hex(0x3b2d24)
	wall, roof := hex(0x8f2f25), hex(0xf2f4f7)
	lamp := hex(0xffc56b)

	edge := newProfile(func(x float64) float64 {
		ground := func(x float64) float64 { return horizon - 2 - float64(8*fbm1(x/200, 51, 2)) }
		top := pineTop(x, ground, 6, 8, 26, 53)
		// Clumps of forest with open gaps between them.
		return lerp(ground(x), top, smoothstep(0.42, 0.55, fbm1(x/240, 57, 2)))
	})

	// project maps a ground point at lateral X and distance Z (metres) to the screen.
	project := func(X, Z, h float64) (x, y float64) {
		return 960 + focal*X/Z, horizon + focal*(eye-h)/Z
	}

	var sprites []sprite
	// The cabin, far off on the left.
	{
		x0, yb := project(-19, 70, 0)
		x1, yt := project(-12, 70, 3)
		_, ridge := project(0, 70, 5.4)
		w := x1 - x0
		mid := (x0 + x1) / 2
		chim := x0 + float64(0.7*w)
		sprites = append(sprites, sprite{x0 - 6, ridge - 12, x1 + 6, yb + 2, func(x, y float64) (rgb, float64) {
			// Chimney, then walls with a lit window, then the snowy roof over both.
			a := cover(box(x, y, chim, ridge-10, chim+float64(0.08*w), yt, 0))
			c := woodDark
			if wa := cover(box(x, y, x0, yt, x1, yb, 0)); wa > 0 {
				wc := wall.scale(1 - float64(0.25*smoothstep(yt, yb, y)))
				win := cover(box(x, y, x0+float64(0.2*w), yt+float64(0.3*(yb-yt)), x0+float64(0.38*w), yt+float64(0.65*(yb-yt)), 1))
				wc = mix(wc, lamp, win)
				c = mix(c, wc, wa)
				a = max(a, wa)
			}
			ra := cover(convex(x, y, [2]float64{mid, ridge}, [2]float64{x1 + 6, yt + 2}, [2]float64{x0 - 6, yt + 2}))
			c = mix(c, roof.scale(1-float64(0.08*smoothstep(mid, x1, x))), ra)
			return c, max(a, ra)
		}})
		// Smoke drifting right from the chimney.
		sx, sy := chim+float64(0.04*w), ridge-10
		sprites = append(sprites, sprite{sx - 20, sy - 140, sx + 260, sy, func(x, y float64) (rgb, float64) {
			t := clamp01((x - sx + 10) / 250)
			cy := sy - float64(120*(1-sq(1-t))) + float64(10*(noise(x/30, 0, 61)-0.5))
			r := 5 + float64(26*t)
			d := length(x-sx-float64(230*t), (y-cy)/2) - r
			n := fbm(x/18, y/18, 63, 3)
			return skyTop.scale(0.85), float64(float64(float64(0.8*(1-t))*smoothstep(6, -8, d)) * n)
		}})
	}
	// Fence posts and their wire, from near to far (drawn far to near).
	const posts = 34
	for i := posts - 1; i >= 0; i-- {
		Z := 2.6 + float64(2.1*float64(i))
		X := -4.2 + float64(0.42*Z)
		x, yb := project(X, Z, 0)
		_, yt := project(X, Z, 1.25)
		hw := focal * 0.07 / Z
		if i < posts-1 {
			// Wire to the next (farther) post.
			Zn := Z + 2.1
			nx, _ := project(-4.2+float64(0.42*Zn), Zn, 0)
			_, nyt := project(-4.2+float64(0.42*Zn), Zn, 1.1)
			_, nym := project(-4.2+float64(0.42*Zn), Zn, 0.6)
			_, ty := project(X, Z, 1.1)
			_, my := project(X, Z, 0.6)
			th := max(focal*0.012/Z, 0.6)
			sprites = append(sprites, sprite{x - 2, min(ty, nyt) - 4, nx + 2, max(my, nym) + 8, func(px, py float64) (rgb, float64) {
				d1, _ := segment(px, py, x, ty, nx, nyt)
				d2, _ := segment(px, py, x, my, nx, nym)
				return woodDark, float64(0.8 * cover(min(d1, d2)-th))
			}})
		}
		sprites = append(sprites, sprite{x - hw - 2, yt - hw - 2, x + float64(3*hw) + 2, yb + hw, func(px, py float64) (rgb, float64) {
			// The post with a cap of snow, over a soft blue contact shadow.
			shadow := length((px-x-float64(0.8*hw))/float64(2.6*hw), (py-yb)/float64(0.7*hw))
			c, a := snowShade, float64(0.6*smoothstep(1, 0.2, shadow))
			post := cover(box(px, py, x-hw, yt, x+hw, yb, 0))
			c = mix(c, mix(wood, woodDark, smoothstep(x-hw, x+hw, px)), post)
			cap := cover(box(px, py, x-float64(1.1*hw), yt-float64(0.5*hw), x+float64(1.1*hw), yt+float64(0.2*hw), float64(0.6*hw)))
			c = mix(c, snow, cap)
			return c, max(a, post, cap)
		}})
	}
	items := newLayer(sprites)

	overcast := newField(0, 0, width, horizon+2, 16, 8, func(x, y float64) float64 { return fbm(x/500, y/160, 71, 3) })

	return func(x, y float64) rgb {
		var c rgb
		if y < horizon+2 {
			c = mix(skyTop, skyLow, float64(smoothstep(0, horizon, y)*0.9)+float64(0.1*overcast.at(x, y)))
		} else {
			// Gentle drifts: low-frequency relief on the ground plane, blue in the hollows,
			// fading out towards the horizon.
			Z := focal * eye / (y - horizon)
			X := (x - 960) * Z / focal
			relief := fbm(X/7, Z/10, 73, 3)
			fadeOut := smoothstep(horizon, horizon+220, y)
			c = mix(snow, snowShade, float64(float64(0.7*fadeOut)*smoothstep(0.6, 0.3, relief)))
			c = mix(c, skyLow, float64(0.5*(1-fadeOut)))
		}
		if a := edge.cover(x, y); a > 0 && y < horizon+2 {
			c = mix(c, mix(forest, skyLow, float64(0.35*smoothstep(edge.at(x), horizon, y))), a)
		}
		return items.over(x, y, c)
	}
}
