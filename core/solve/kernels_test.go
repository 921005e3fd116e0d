package solve

import (
	"math"
	"math/rand/v2"
	"slices"

	"github.com/jigbench/jigbench/core/puzzle"
	"testing"
)

// TestMGCLanes: the eight-lane kernel gives mgc's cost bit for bit, on
// random sides with labelled and missing samples, every normal class and
// seams of 0 to 70 samples.
func TestMGCLanes(t *testing.T) {
	if !haveLanes {
		t.Skip("no lane kernel on this machine")
	}
	rng := rand.New(rand.NewPCG(1, 2))
	randSide := func(k int) *seamSide {
		sd := &seamSide{v: make([]float32, 3*k)}
		for s := range k {
			switch r := rng.IntN(10); {
			case r == 0:
				sd.v[3*s] = -1
			case r == 1:
				for c := range 3 {
					sd.v[3*s+c] = float32(math.NaN())
				}
			default:
				for c := range 3 {
					sd.v[3*s+c] = float32(rng.Float64() * 255)
				}
			}
		}
		for d := range 4 {
			for c := range 3 {
				sd.mu[d][c] = float32(rng.NormFloat64() * 5)
			}
		}
		for r := range 3 {
			for c := range 3 {
				sd.inv[r][c] = float32(rng.NormFloat64() * 0.3)
			}
		}
		return sd
	}
	for _, k := range []int{0, 1, 7, 32, 70} {
		dir := make([]uint8, k)
		for s := range dir {
			dir[s] = uint8(rng.IntN(4))
		}
		const m = 21 // not a multiple of lanes: the last block is padded
		sides := make([]*seamSide, m)
		for b := range sides {
			if b != 5 { // a hole: piece 5 has no side on this seam
				sides[b] = randSide(k)
			}
		}
		p := packSides(sides, k)
		for range 4 {
			a := randSide(k)
			var lr laneRow
			lr.prepare(a, dir)
			var out [lanes]float32
			for j := range len(p.ids) / lanes {
				lr.block(p, j, dir, &out)
				for l, b := range p.ids[j*lanes : (j+1)*lanes] {
					if b < 0 {
						continue
					}
					if b == 5 {
						t.Fatal("a missing side was packed")
					}
					want := mgc(a, sides[b], dir)
					if math.Float32bits(out[l]) != math.Float32bits(want) {
						t.Errorf("k=%d piece %d: lanes %v, mgc %v", k, b, out[l], want)
					}
				}
			}
		}
	}
}

// TestTwoSmallest: the row and column minima relativeCosts takes agree with
// a scan of each row and column, with ties (values from a small set) and
// pairs that cannot be neighbours.
func TestTwoSmallest(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, m := range []int{1, 2, 7, 33, 100} {
		d := make([]float32, m*m)
		for i := range d {
			d[i] = float32(rng.IntN(6))
			if rng.IntN(5) == 0 {
				d[i] = inf
			}
		}
		ref := func(at func(i, j int) float32) (f, s []float32) {
			f, s = make([]float32, m), make([]float32, m)
			for i := range m {
				var vs []float32
				for j := range m {
					vs = append(vs, at(i, j))
				}
				slices.Sort(vs)
				f[i], s[i] = vs[0], inf
				if m > 1 {
					s[i] = vs[1]
				}
			}
			return f, s
		}
		rf, rs := rowTwoSmallest(m, d)
		cf, cs := columnTwoSmallest(m, d)
		wrf, wrs := ref(func(i, j int) float32 { return d[i*m+j] })
		wcf, wcs := ref(func(i, j int) float32 { return d[j*m+i] })
		if !slices.Equal(rf, wrf) || !slices.Equal(rs, wrs) || !slices.Equal(cf, wcf) || !slices.Equal(cs, wcs) {
			t.Errorf("m=%d: rows %v %v (want %v %v), columns %v %v (want %v %v)", m, rf, rs, wrf, wrs, cf, cs, wcf, wcs)
		}
	}
}

// TestLookalikeBuckets: the bucketed look-alike searches give the
// pair-by-pair scans' answers, on matrices built from piece types (pieces
// of one type alike) with ties, zeros of both signs, NaN and +Inf.
func TestLookalikeBuckets(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for _, m := range []int{33, 64, 150} {
		for trial := range 4 {
			types := 3 + rng.IntN(m/2)
			typ := make([]int, m)
			for x := range typ {
				typ[x] = rng.IntN(types)
			}
			f := func() []float32 {
				v := make([]float32, types*types)
				for i := range v {
					switch r := rng.IntN(8); {
					case r == 0:
						v[i] = inf
					default:
						v[i] = float32(rng.IntN(3))
					}
				}
				return v
			}
			fr, fd := f(), f()
			right, down := make([]float32, m*m), make([]float32, m*m)
			for x := range m {
				for y := range m {
					right[x*m+y] = fr[typ[x]*types+typ[y]]
					down[x*m+y] = fd[typ[x]*types+typ[y]]
					if right[x*m+y] == 0 && rng.IntN(2) == 0 {
						right[x*m+y] = float32(math.Copysign(0, -1))
					}
				}
			}
			if trial%2 == 1 {
				right[(m-1)*m+3] = float32(math.NaN())
				down[20*m+1] = float32(math.NaN())
			}
			sides := make([]puzzle.Sides, m)
			for x := range sides {
				sides[x][0] = puzzle.Side(typ[x] % 3)
				if rng.IntN(10) == 0 {
					sides[x][1] = puzzle.Tab
				}
			}
			for _, d := range [][]float32{right, down} {
				if got, want := classesBucketed(m, d), classes(m, d); !slices.Equal(got, want) {
					t.Errorf("m=%d trial %d: classes %v, want %v", m, trial, got, want)
				}
			}
			a := &assembly{n: 0, m: m, sides: sides, right: right, down: down}
			if got, want := a.twinLinksBucketed(), a.twinLinks(); !slices.Equal(got, want) {
				t.Errorf("m=%d trial %d: twin links %v, want %v", m, trial, got, want)
			}
		}
	}
}

// TestBestMatches: every piece's preferred neighbour, read off the seam
// floors, is argmin over every piece itself included — ties to the first,
// +Inf and NaN never chosen — on matrices with ties, +Inf, NaN and pieces
// cheapest beside themselves.
func TestBestMatches(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for _, n := range []int{1, 2, 3, 7} {
		m := n * n
		for trial := range 20 {
			var d [2][]float32
			for dir := range d {
				d[dir] = make([]float32, m*m)
				for i := range d[dir] {
					switch r := rng.IntN(10); {
					case r == 0:
						d[dir][i] = inf
					case r == 1:
						d[dir][i] = float32(math.NaN())
					default:
						d[dir][i] = float32(rng.IntN(4))
					}
				}
				d[dir][0] = inf // a row and a column with fewer candidates
				if trial%4 == 0 {
					for x := range m {
						d[dir][x*m+x] = 0 // each piece cheapest beside itself
					}
				}
			}
			a := &assembly{n: n, m: m, right: d[dirRight], down: d[dirDown]}
			b := a.bestMatches()
			for x := range m {
				for _, c := range []struct {
					got  int
					want int
				}{
					{b.right[x], argmin(m, func(y int) float32 { return d[dirRight][x*m+y] })},
					{b.left[x], argmin(m, func(y int) float32 { return d[dirRight][y*m+x] })},
					{b.down[x], argmin(m, func(y int) float32 { return d[dirDown][x*m+y] })},
					{b.up[x], argmin(m, func(y int) float32 { return d[dirDown][y*m+x] })},
				} {
					if c.got != c.want {
						t.Fatalf("m=%d trial %d piece %d: %d, want %d", m, trial, x, c.got, c.want)
					}
				}
			}
		}
	}
}

// BenchmarkCompatMatrixShape is BenchmarkCompatMatrix on a 32×32 shape
// sheet, where a pair's seam follows the tab.
func BenchmarkCompatMatrixShape(b *testing.B) {
	g, pcs := cutSheet(b, generateDemo(b, "harbor-town", 32, 1), false)
	ss := newSeamSet(g, pcs)
	for b.Loop() {
		newCompatMatrix(ss, pcs, true)
	}
}

// TestExtendLikePlainScan: extend, which walks the free pieces of a
// signature a bitset word at a time, offers the beam exactly the
// extensions of the plain scan over the signature's list of pieces
// (extendPlain), in the same order, on shape and rect assemblies whose
// seams tie often, hold +Inf and NaN and make look-alike pieces.
func TestExtendLikePlainScan(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, n := range []int{5, 9} {
		for _, shaped := range []bool{true, false} {
			m := n * n
			sides, _ := randomPuzzle(t, n, uint64(n))
			if !shaped {
				sides = make([]puzzle.Sides, m)
			}
			right, down := make([]float32, m*m), make([]float32, m*m)
			for i := range right {
				for _, d := range [][]float32{right, down} {
					switch r := rng.IntN(20); {
					case r == 0:
						d[i] = inf
					case r == 1:
						d[i] = float32(math.NaN())
					default:
						d[i] = float32(rng.IntN(6)) / 4
					}
				}
			}
			// Look-alikes: a few pieces copy an earlier one of the same sides.
			for y := range m {
				for x := range y {
					if sides[x] != sides[y] || rng.IntN(3) != 0 {
						continue
					}
					for _, d := range [][]float32{right, down} {
						for z := range m {
							d[y*m+z], d[z*m+y] = d[x*m+z], d[z*m+x]
						}
						d[x*m+y], d[y*m+x] = d[x*m+x], d[x*m+x]
						d[y*m+y] = d[x*m+x]
					}
					break
				}
			}
			a := &assembly{n: n, m: m, shaped: shaped, sides: sides, right: right, down: down}
			a.index()
			a.frontClasses() // as beam does
			words := (m + 63) / 64
			for trial := range 300 {
				s := beamState{front: make([]int32, n), used: make([]uint64, words),
					cost: float64(rng.IntN(4)) / 2, usedKey: rng.Uint64(), frontKey: rng.Uint64()}
				for x := range m {
					if rng.IntN(2) == 0 {
						s.used[x/64] |= 1 << (x % 64)
					}
				}
				for c := range s.front {
					s.front[c] = int32(rng.IntN(m))
				}
				r, c := rng.IntN(n), rng.IntN(n)
				si := int32(rng.IntN(100))
				got := a.extend(nil, si, &s, r, c)
				want := a.extendPlain(nil, si, &s, r, c)
				if !slices.EqualFunc(got, want, func(g, w extension) bool {
					return g.s == w.s && g.x == w.x && math.Float64bits(g.cost) == math.Float64bits(w.cost) &&
						g.usedKey == w.usedKey && g.frontKey == w.frontKey && g.key == w.key
				}) {
					t.Fatalf("n=%d shaped=%v trial %d at (%d, %d): %v, want %v", n, shaped, trial, r, c, got, want)
				}
			}
		}
	}
}

// extendPlain is extend as it was: each signature's pieces scanned from
// its list, each piece checked for use and priced one by one.
func (a *assembly) extendPlain(out []extension, si int32, s *beamState, r, c int) []extension {
	n, m := a.n, a.m
	top, left := int32(-1), int32(-1)
	if r > 0 {
		top = s.front[c]
	}
	if c > 0 {
		left = s.front[c-1]
	}
	free := func(x int) bool { return s.used[x/64]&(1<<(x%64)) == 0 }
	usable := func(x int) bool {
		return free(x) && (a.prevTwin[x] < 0 || !free(a.prevTwin[x]))
	}
	price := func(x int) (float64, bool) {
		var d float64
		if top >= 0 {
			v := a.down[int(top)*m+x]
			if math.IsInf(float64(v), 1) {
				return 0, false
			}
			d += float64(v)
		}
		if left >= 0 {
			v := a.right[int(left)*m+x]
			if math.IsInf(float64(v), 1) {
				return 0, false
			}
			d += float64(v)
		}
		return d, true
	}
	var best [beamBranch]extension
	scan := func(list []int) {
		k := 0
		for _, x := range list {
			if !usable(x) {
				continue
			}
			d, ok := price(x)
			if !ok {
				continue
			}
			e := extension{s: si, x: int32(x), cost: s.cost + d}
			if k < beamBranch {
				k++
			} else if e.cost >= best[k-1].cost {
				continue
			}
			j := k - 1
			for j > 0 && best[j-1].cost > e.cost {
				best[j] = best[j-1]
				j--
			}
			best[j] = e
		}
		for _, e := range best[:k] {
			e.usedKey = s.usedKey ^ a.zUsed[e.x]
			e.frontKey = s.frontKey ^ a.zFront[c*m+a.downClass[e.x]]
			if r > 0 {
				e.frontKey ^= a.zFront[c*m+a.downClass[s.front[c]]]
			}
			e.key = e.usedKey ^ e.frontKey
			if c+1 < n {
				e.key ^= a.zRight[a.rightClass[e.x]]
			}
			out = append(out, e)
		}
	}
	if !a.shaped {
		scan(a.all)
		return out
	}
	topSide, leftSide := puzzle.Flat, puzzle.Flat
	if top >= 0 {
		topSide = opposite(a.sides[top][puzzle.Bottom])
	}
	if left >= 0 {
		leftSide = opposite(a.sides[left][puzzle.Right])
	}
	var codes [4]int
	for _, code := range fittingCodes(n, r, c, topSide, leftSide, &codes) {
		scan(a.byCode[code])
	}
	return out
}

// TestKeyCountsLikeMap: keyCounts counts as a map does, across resets
// (stamps), growth past its size and keys that collide in the table.
func TestKeyCountsLikeMap(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	var kc keyCounts
	for round := range 50 {
		want := map[uint64]int32{}
		kc.reset(rng.IntN(40))
		keys := make([]uint64, 1+rng.IntN(200))
		for i := range keys {
			keys[i] = rng.Uint64() >> uint(rng.IntN(64)) // small keys too, 0 among them
		}
		for range 1000 {
			k := keys[rng.IntN(len(keys))]
			if rng.IntN(2) == 0 {
				kc.add(k)
				want[k]++
			} else if got := kc.get(k); got != want[k] {
				t.Fatalf("round %d: count of %x %d, want %d", round, k, got, want[k])
			}
		}
		for _, k := range keys {
			if got := kc.get(k); got != want[k] {
				t.Fatalf("round %d: count of %x %d, want %d", round, k, got, want[k])
			}
		}
		if kc.n != len(want) {
			t.Fatalf("round %d: %d keys, want %d", round, kc.n, len(want))
		}
	}
	kc.stamp = ^uint32(0) // the next reset wraps the stamp
	kc.reset(4)
	if got := kc.get(0); got != 0 {
		t.Fatalf("after the stamp wrapped: count of 0 is %d", got)
	}
}
