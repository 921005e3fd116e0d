package demo

import "math"

// harborTown: a row of tall, colourful gabled houses along a canal quay, moored boats
// with masts, and everything mirrored in the water.
func harborTown() shader {
	const quay = 770.0  // top of the quay wall
	const water = 800.0 // waterline
	skyTop, skyLow := hex(0x3f7fc8), hex(0xbcd8ee)
	cloud := hex(0xfbfcfd)
	walls := []rgb{
		hex(0xe0a93a), hex(0xb8432f), hex(0x2e8a8a), hex(0xf2d16b), hex(0xe79a9a),
		hex(0x4f7fb0), hex(0xeee7d7), hex(0x7aa36a), hex(0xe07b39), hex(0x9a5a7a),
	}
	frame, glass, door := hex(0xf6f3ea), hex(0x2b3f55), hex(0x4a2e1e)
	coping, stone := hex(0x3a2a24), hex(0x8c877e)
	canal := hex(0x1f5a66)

	type house struct {
		x0, x1, top, roof float64 // roof: height of the gable above top
		gable             int
		wall              rgb
		cols              int
		floor             float64
		awning, brick     bool
		seed              uint32
	}
	r := newRand(91)
	var houses []house
	owner := make([]int16, width)
	for x := -between(r, 0, 80); x < width; {
		w := between(r, 95, 175)
		h := house{x0: x, x1: x + w, top: between(r, 150, 330), gable: r.IntN(4), seed: r.Uint32()}
		h.roof = float64(w * between(r, 0.35, 0.55))
		if h.gable == 3 {
			h.roof = 0
		}
		h.wall = walls[r.IntN(len(walls))]
		if n := len(houses); n > 0 && houses[n-1].wall == h.wall {
			h.wall = walls[(r.IntN(len(walls)-1)+1+indexOf(walls, h.wall))%len(walls)]
		}
		h.cols = 2 + int(w/70)
		h.floor = between(r, 72, 88)
		h.awning = r.IntN(3) == 0
		h.brick = r.IntN(2) == 0
		for c := max(int(x), 0); c < min(int(x+w)+1, width); c++ {
			owner[c] = int16(len(houses))
		}
		houses = append(houses, h)
		x += w
	}

	// roofline is the top edge of a house at x, and the slope of that edge.
	roofline := func(h *house, x float64) (float64, float64) {
		u := math.Abs(float64(2*(x-h.x0))/(h.x1-h.x0) - 1) // 0 at the ridge, 1 at the sides
		switch h.gable {
		case 0: // plain pitched gable
			return h.top + float64(h.roof*u), float64(2*h.roof) / (h.x1 - h.x0)
		case 1: // stepped gable
			return h.top + float64(h.roof*math.Floor(float64(u*4))/4), 0
		case 2: // bell gable: curved shoulders
			return h.top + float64(h.roof*float64(u*u)), float64(float64(4*h.roof)*u) / (h.x1 - h.x0)
		}
		return h.top, 0
	}

	facade := func(x, y float64) (rgb, float64) {
		h := &houses[owner[col(x)]]
		edge, slope := roofline(h, x)
		a := cover(float64((edge - y) / math.Sqrt(1+float64(slope*slope))))
		if a <= 0 {
			return rgb{}, 0
		}
		// Plaster, a little darker towards the party walls.
		u := (x - h.x0) / (h.x1 - h.x0)
		c := h.wall.scale(float64(0.88 + float64(0.12*float64(4*u)*(1-u))))
		if h.brick {
			// Brick courses with pale mortar, each brick a slightly different tone.
			row := math.Floor(y / 9)
			bx := (x - h.x0) / 26
			if int(row)%2 == 1 {
				bx += 0.5
			}
			c = c.scale(float64(0.88 + float64(0.2*rnd(int(math.Floor(bx)), int(row), h.seed))))
			if fract(y/9) < 0.16 || fract(bx) < 0.06 {
				c = mix(c, hex(0xe9e2d2), 0.55)
			}
		} else {
			c = c.scale(float64(0.93 + float64(0.12*noise(x/3, y/3, h.seed))))
		}
		// Coping along the roofline and down the party wall.
		if y-edge < 6 || x-h.x0 < 2.5 {
			return coping, a
		}
		body := h.top + h.roof
		if y > body+10 && y < quay-90 {
			// Upper floors: a grid of windows with white frames and cross bars.
			cw := (h.x1 - h.x0) / float64(h.cols)
			fx := fract((x - h.x0) / cw)
			fy := fract((y - body - 10) / h.floor)
			wx, wy := math.Abs(fx-0.5), fy
			if wx < 0.26 && wy > 0.2 && wy < 0.8 {
				c = frame
				if wx < 0.2 && wy > 0.26 && wy < 0.74 && math.Abs(wx) > 0.02 && math.Abs(wy-0.5) > 0.03 {
					// Panes reflect the sky, lighter at the top.
					c = mix(glass, skyLow, float64(0.5*smoothstep(0.74, 0.26, wy)))
				}
			}
		} else if y >= quay-90 {
			// Ground floor: a door and a shop window, maybe under a striped awning.
			cw := (h.x1 - h.x0)
			lx := (x - h.x0) / cw
			if lx > 0.12 && lx < 0.34 && y > quay-78 {
				c = door.scale(float64(0.85 + float64(0.3*fract(float64(lx*30)))))
			} else if lx > 0.45 && lx < 0.88 && y > quay-72 && y < quay-12 {
				// A shop window of small panes, goods glimpsed behind.
				c = mix(glass, skyLow, float64(0.2+float64(0.3*noise(x/6, y/6, h.seed+1))))
				if fract(float64((lx-0.45)*14)) < 0.12 || fract((y-quay+72)/20) < 0.1 {
					c = frame
				}
			}
			if h.awning && lx > 0.4 && lx < 0.93 && y > quay-92 && y < quay-72 {
				stripe := int(math.Floor(float64(lx * 18)))
				c = pick(stripe%2 == 0, hex(0xf6f3ea), h.wall.scale(0.7))
			}
		}
		return c, a
	}

	// Boats moored along the quay, with masts rising in front of the houses.
	var boats []sprite
	for x := between(r, 20, 120); x < width-100; x += between(r, 230, 330) {
		bx, l := x, between(r, 150, 220)
		hull := walls[r.IntN(len(walls))]
		trim := pick(r.IntN(2) == 0, hex(0xf6f3ea), hex(0x2a2a2e))
		mast := between(r, 180, 360)
		cabin := r.IntN(2) == 0
		mx := bx + float64(l*between(r, 0.35, 0.5))
		boats = append(boats, sprite{bx - 4, water - mast - 4, bx + l + 4, water + 14, func(px, py float64) (rgb, float64) {
			// Hull: a slab with a raked bow, trimmed along the gunwale.
			d := convex(px, py, [2]float64{bx, water - 34}, [2]float64{bx + l, water - 40}, [2]float64{bx + float64(0.86*l), water + 10}, [2]float64{bx + 12, water + 10})
			c, a := hull.scale(float64(0.75+float64(0.3*smoothstep(water+10, water-34, py)))), cover(d)
			if py < water-28 {
				c = trim
			}
			if cabin {
				cd := box(px, py, bx+float64(0.2*l), water-66, bx+float64(0.5*l), water-34, 4)
				if ca := cover(cd); ca > 0 {
					cc := pick(fract(float64((px-bx)/14)) < 0.5 || py > water-44, hex(0xf6f3ea), glass)
					c, a = mix(c, cc, ca), max(a, ca)
				}
			}
			// Mast and a stay.
			md := math.Abs(px-mx) - 2
			if py < water-30 && py > water-mast {
				if ma := cover(md); ma > 0 {
					c, a = mix(c, hex(0xe8e2d4), ma), max(a, ma)
				}
				sd, _ := segment(px, py, mx, water-mast, bx+l, water-40)
				if sa := float64(0.8 * cover(sd-0.8)); sa > a {
					c, a = hex(0x333333), sa
				}
			}
			return c, a
		}})
	}
	fleet := newLayer(boats)

	clouds := newField(0, 0, width, 460, 4, 4, func(x, y float64) float64 { return fbm(x/300, y/110, 97, 5) })

	town := func(x, y float64) rgb {
		c := mix(skyTop, skyLow, smoothstep(0, 450, y))
		if y < 460 {
			cl := clouds.at(x, y)
			puff := smoothstep(0.46, 0.6, cl)
			shade := smoothstep(0.75, 0.55, clouds.at(x, y-18)) // darker undersides
			c = mix(c, cloud.scale(float64(0.82+float64(0.18*shade))), puff)
		}
		if y < quay {
			if fc, a := facade(x, y); a > 0 {
				c = mix(c, fc, a)
			}
		} else {
			// The quay wall: dressed stone blocks.
			bx := fract((x + float64(30*math.Floor((y-quay)/15))) / 60)
			c = stone.scale(float64(0.85 + float64(0.2*noise(x/8, y/8, 99))))
			if bx < 0.03 || fract((y-quay)/15) < 0.1 {
				c = c.scale(0.7)
			}
		}
		return c
	}

	return func(x, y float64) rgb {
		if y < water {
			return fleet.over(x, y, town(x, y))
		}
		// The canal: each ripple band mirrors one row of the scene, shifted sideways.
		d := y - water
		band := math.Floor(float64(1.8 * math.Sqrt(d)))
		mid := sq((band + 0.5) / 1.8)
		shift := float64((rnd(int(band), 0, 101) - 0.5) * float64(4+float64(0.06*d)))
		mx, my := x+shift, water-mid
		ripple := float64(0.7 + float64(0.3*noise(x/7, d/float64(1.5+float64(0.03*d)), 103)))
		c := fleet.over(mx, my, town(mx, my)).scale(ripple)
		c = mix(c, canal, float64(0.35+float64(0.25*smoothstep(0, 400, d))))
		// The boats' own hulls sit in the water in front of their reflections.
		return fleet.over(x, y, c)
	}
}

func indexOf(cs []rgb, c rgb) int {
	for i, v := range cs {
		if v == c {
			return i
		}
	}
	return 0
}
