package solve

// twinLinks returns, for each piece x, the piece before it (by ID) that
// looks exactly like it (alike), or −1.
func (a *assembly) twinLinks() []int {
	prev := make([]int, a.m)
	for x := range a.m {
		prev[x] = -1
		for y := x - 1; y >= 0; y-- {
			if a.alike(x, y) {
				prev[x] = y
				break
			}
		}
	}
	return prev
}

// tieClasses lists the classes of two or more pieces the solver cannot tell
// apart — same sides and the same dissimilarity to and from every other
// piece in both directions — each in ID order, by their first piece. Any
// order of a class's pieces over its cells costs the same, so which of them
// lands where is a tie, not a mistake (docs/cli.md, solve).
// prev holds each piece's look-alike link (twinLinks).
func tieClasses(prev []int) [][]int {
	at := make(map[int]int) // first piece → index in classes
	var classes [][]int
	for x, p := range prev {
		if p < 0 {
			continue
		}
		first := p
		for prev[first] >= 0 {
			first = prev[first]
		}
		i, ok := at[first]
		if !ok {
			i = len(classes)
			at[first] = i
			classes = append(classes, []int{first})
		}
		classes[i] = append(classes[i], x)
	}
	return classes
}
