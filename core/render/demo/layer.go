package demo

import "math"

// sprite is one shape of a layer: a bounding box and, inside it, a colour and a coverage.
type sprite struct {
	x0, y0, x1, y1 float64
	paint          func(x, y float64) (rgb, float64)
}

// layer holds sprites in drawing order (later ones on top) with a per-tile index, so a
// pixel only looks at the few sprites whose boxes overlap its tile.
type layer struct {
	sprites []sprite
	tiles   [][]int32
}

const (
	tileSize = 8
	tilesX   = (width + tileSize - 1) / tileSize
	tilesY   = (height + tileSize - 1) / tileSize
)

func newLayer(sprites []sprite) *layer {
	// Two passes, counting then filling, so all lists share one backing array.
	span := func(s *sprite) (tx0, tx1, ty0, ty1 int) {
		return tileOf(s.x0, tilesX), tileOf(s.x1, tilesX), tileOf(s.y0, tilesY), tileOf(s.y1, tilesY)
	}
	count := make([]int, tilesX*tilesY)
	for i := range sprites {
		tx0, tx1, ty0, ty1 := span(&sprites[i])
		for ty := ty0; ty <= ty1; ty++ {
			for tx := tx0; tx <= tx1; tx++ {
				count[ty*tilesX+tx]++
			}
		}
	}
	l := &layer{sprites: sprites, tiles: make([][]int32, tilesX*tilesY)}
	total := 0
	for _, n := range count {
		total += n
	}
	all := make([]int32, 0, total)
	for t, n := range count {
		l.tiles[t] = all[len(all) : len(all) : len(all)+n]
		all = all[:len(all)+n]
	}
	for i := range sprites {
		tx0, tx1, ty0, ty1 := span(&sprites[i])
		for ty := ty0; ty <= ty1; ty++ {
			for tx := tx0; tx <= tx1; tx++ {
				l.tiles[ty*tilesX+tx] = append(l.tiles[ty*tilesX+tx], int32(i))
			}
		}
	}
	return l
}

// tileOf is the tile index of coordinate v, clamped to [0, n).
func tileOf(v float64, n int) int {
	if !(v > 0) {
		return 0
	}
	return min(int(math.Floor(v/tileSize)), n-1)
}

// at composites the sprites at (x, y) front to back. It returns the premultiplied colour
// and the transmittance t left for whatever lies behind (1: nothing drawn here).
func (l *layer) at(x, y float64) (c rgb, t float64) {
	t = 1
	ids := l.tiles[tileOf(y, tilesY)*tilesX+tileOf(x, tilesX)]
	for k := len(ids) - 1; k >= 0; k-- {
		s := &l.sprites[ids[k]]
		if x < s.x0 || x >= s.x1 || y < s.y0 || y >= s.y1 {
			continue
		}
		col, a := s.paint(x, y)
		if a <= 0 {
			continue
		}
		c = c.add(col.scale(float64(t * a)))
		t = float64(t * (1 - a))
		if t < 1.0/1024 {
			return c, 0
		}
	}
	return c, t
}

// over composites the layer at (x, y) over the background colour bg.
func (l *layer) over(x, y float64, bg rgb) rgb {
	c, t := l.at(x, y)
	if t == 0 {
		return c
	}
	return c.add(bg.scale(t))
}

// composite paints the layer over background(x, y), evaluating the background only
// where the sprites leave some of it visible.
func (l *layer) composite(x, y float64, background shader) rgb {
	c, t := l.at(x, y)
	if t == 0 {
		return c
	}
	return c.add(background(x, y).scale(t))
}
