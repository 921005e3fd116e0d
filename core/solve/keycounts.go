package solve

// keyCounts counts uint64 keys, as a map[uint64]int32 would, for the
// beams' inner loops: open addressing with linear probing, emptied in
// O(1) by a new stamp, and no allocation once it has grown to its size.
// The beams ask it a few million times per solve; the maps they used cost
// a fifth of their time. Call reset before the first use.
type keyCounts struct {
	slots []keySlot
	stamp uint32 // the slots of other stamps are empty
	n     int    // keys held
}

type keySlot struct {
	key   uint64
	stamp uint32
	count int32
}

// reset empties t, sized for about n keys.
func (t *keyCounts) reset(n int) {
	size := 16
	for size < 2*n {
		size *= 2
	}
	if len(t.slots) < size {
		t.slots, t.stamp = make([]keySlot, size), 0
	}
	if t.stamp++; t.stamp == 0 { // wrapped: stale stamps would read as current
		clear(t.slots)
		t.stamp = 1
	}
	t.n = 0
}

// slot is key's slot, or the empty one where it would go.
func (t *keyCounts) slot(key uint64) *keySlot {
	mask := uint64(len(t.slots) - 1)
	for i := mix64(key) & mask; ; i = (i + 1) & mask {
		if s := &t.slots[i]; s.stamp != t.stamp || s.key == key {
			return s
		}
	}
}

// get is key's count, 0 if it was never added.
func (t *keyCounts) get(key uint64) int32 {
	if s := t.slot(key); s.stamp == t.stamp {
		return s.count
	}
	return 0
}

// add counts key once more.
func (t *keyCounts) add(key uint64) {
	s := t.slot(key)
	if s.stamp != t.stamp {
		if 2*(t.n+1) > len(t.slots) { // at most half full: short probes
			t.grow()
			s = t.slot(key)
		}
		*s = keySlot{key: key, stamp: t.stamp}
		t.n++
	}
	s.count++
}

// grow doubles the table, keeping its keys.
func (t *keyCounts) grow() {
	old, stamp := t.slots, t.stamp
	t.slots, t.stamp = make([]keySlot, 2*len(old)), 1
	for _, s := range old {
		if s.stamp == stamp {
			*t.slot(s.key) = keySlot{key: s.key, stamp: 1, count: s.count}
		}
	}
}
