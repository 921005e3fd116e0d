package score

import (
	"strconv"
	"strings"
)

// MappingJSON writes a prediction in the answer format the prompts ask for,
// {"<id>": [row, col], …}, in ID order; Missing pieces are left out. pred[k]
// is piece k's cell index in an n×n grid. Solvers and simulated models
// write their answers with it.
func MappingJSON(pred []int, n int) string {
	var b strings.Builder
	b.WriteByte('{')
	first := true
	for k, c := range pred {
		if c < 0 {
			continue
		}
		if !first {
			b.WriteString(", ")
		}
		first = false
		b.WriteByte('"')
		b.WriteString(strconv.Itoa(k))
		b.WriteString(`": [`)
		b.WriteString(strconv.Itoa(c / n))
		b.WriteString(", ")
		b.WriteString(strconv.Itoa(c % n))
		b.WriteByte(']')
	}
	b.WriteByte('}')
	return b.String()
}
