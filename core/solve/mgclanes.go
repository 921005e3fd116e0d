package solve

import "unsafe"

// The compatibility matrix's kernel in eight lanes: one A side against eight
// B sides of the same seam at once (mgclanes_amd64.s, AVX2). Each lane does
// mgc's arithmetic operation by operation and sums its samples in mgc's
// order, so a lane's result is mgc's bit for bit (TestMGCLanes); only the
// work is shared.

// lanes is the number of B sides a kernel call scores.
const lanes = 8

// packedSides are the B sides of one seam, lanes at a time: for block j,
// lane l holds piece ids[j·lanes+l] (−1: padding), with per sample k the
// colours vb[(j·K+k)·24 + c·8 + l], the means mb[j·96 + d·24 + c·8 + l] for
// each normal class d and the inverse covariance ib[j·72 + (r·3+c)·8 + l].
type packedSides struct {
	k          int // samples per side
	ids        []int32
	vb, mb, ib []float32
}

// packSides packs the non-nil sides (indexed by piece) of a seam with k
// samples; nil when there are none.
func packSides(sides []*seamSide, k int) *packedSides {
	var ids []int32
	for b, sd := range sides {
		if sd != nil {
			ids = append(ids, int32(b))
		}
	}
	if len(ids) == 0 {
		return nil
	}
	for len(ids)%lanes != 0 {
		ids = append(ids, -1)
	}
	nb := len(ids) / lanes
	p := &packedSides{k: k, ids: ids,
		vb: make([]float32, nb*k*3*lanes), mb: make([]float32, nb*4*3*lanes), ib: make([]float32, nb*9*lanes)}
	for i, b := range ids {
		if b < 0 {
			continue
		}
		j, l := i/lanes, i%lanes
		sd := sides[b]
		for s := range k {
			for c := range 3 {
				p.vb[(j*k+s)*3*lanes+c*lanes+l] = sd.v[3*s+c]
			}
		}
		for d := range 4 {
			for c := range 3 {
				p.mb[j*4*3*lanes+d*3*lanes+c*lanes+l] = sd.mu[d][c]
			}
		}
		for r := range 3 {
			for c := range 3 {
				p.ib[j*9*lanes+(r*3+c)*lanes+l] = sd.inv[r][c]
			}
		}
	}
	return p
}

// laneRow is one A side prepared for the kernel: per sample its colours and
// its mean for the sample's normal class (8 values, 2 unused), and its
// inverse covariance.
type laneRow struct {
	as []float32
	ia [9]float32
}

func (lr *laneRow) prepare(a *seamSide, dir []uint8) {
	if cap(lr.as) < 8*len(dir) {
		lr.as = make([]float32, 8*len(dir))
	}
	lr.as = lr.as[:8*len(dir)]
	for k, d := range dir {
		for c := range 3 {
			lr.as[8*k+c] = a.v[3*k+c]
			lr.as[8*k+3+c] = a.mu[d&3][c]
		}
	}
	for r := range 3 {
		for c := range 3 {
			lr.ia[r*3+c] = a.inv[r][c]
		}
	}
}

// block scores the row against block j of p: out[l] is mgc(A, B_l, dir).
func (lr *laneRow) block(p *packedSides, j int, dir []uint8, out *[lanes]float32) {
	var acc [2 * lanes]float32
	k := p.k
	if k == 0 {
		*out = [lanes]float32{}
		return
	}
	mgcLanesAsm(k, &lr.as[0], &lr.ia[0], unsafe.SliceData(dir),
		&p.vb[j*k*3*lanes], &p.mb[j*4*3*lanes], &p.ib[j*9*lanes], &acc[0])
	for l := range lanes {
		out[l] = acc[l] / max(acc[lanes+l], 1)
	}
}
