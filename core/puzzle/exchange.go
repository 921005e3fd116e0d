package puzzle

import (
	"fmt"
	"math/big"
)

// Exchange partitions a puzzle's pieces into classes of exchangeable pieces:
// pieces that can trade cells without changing a sheet by a byte
// (docs/ambiguity-and-hints.md). Which pieces are exchangeable is decided
// from pixels, in core/render; this is the model built on the answer. The
// zero value has no pieces.
type Exchange struct {
	// first[id] is the smallest ID of id's class.
	first []int
}

// NewExchange builds the partition from first[id], the smallest ID of the
// class of piece id.
func NewExchange(first []int) (Exchange, error) {
	for id, f := range first {
		if f < 0 || f > id || first[f] != f {
			return Exchange{}, fmt.Errorf("piece %d names %d as the first of its class, which is not a class's first piece", id, f)
		}
	}
	return Exchange{first: first}, nil
}

// Singletons is the partition of m pieces in which no two are exchangeable.
func Singletons(m int) Exchange {
	first := make([]int, m)
	for i := range first {
		first[i] = i
	}
	return Exchange{first: first}
}

// Pieces is the number of pieces partitioned.
func (e Exchange) Pieces() int { return len(e.first) }

// Same reports whether pieces a and b are exchangeable.
func (e Exchange) Same(a, b int) bool { return e.first[a] == e.first[b] }

// Classes lists the classes of two or more pieces, each ascending, ordered
// by their smallest ID.
func (e Exchange) Classes() [][]int {
	size := make([]int, len(e.first))
	for _, f := range e.first {
		size[f]++
	}
	slot := make([]int, len(e.first))
	var out [][]int
	for id, f := range e.first {
		if size[f] < 2 {
			continue
		}
		if id == f {
			slot[f] = len(out)
			out = append(out, make([]int, 0, size[f]))
		}
		out[slot[f]] = append(out[slot[f]], id)
	}
	return out
}

// Pairs is the number of unordered exchangeable pairs, Σ |C|(|C|-1)/2.
func (e Exchange) Pairs() int {
	n := 0
	for _, c := range e.Classes() {
		n += len(c) * (len(c) - 1) / 2
	}
	return n
}

// Arrangements is the number of arrangements indistinguishable from the
// truth, ∏ |C|! over the classes: 1 when the answer is unique.
func (e Exchange) Arrangements() *big.Int {
	out := big.NewInt(1)
	var f big.Int
	for _, c := range e.Classes() {
		out.Mul(out, f.MulRange(1, int64(len(c))))
	}
	return out
}

// Unique reports whether no two pieces are exchangeable.
func (e Exchange) Unique() bool {
	for id, f := range e.first {
		if f != id {
			return false
		}
	}
	return true
}
