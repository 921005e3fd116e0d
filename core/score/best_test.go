package score

import "testing"

func TestMarkBest(t *testing.T) {
	gs := []Group{
		{Model: "a", Grid: 4, Condition: "shape", Metrics: Metrics{PA: 0.5, EM: 0, AA: 0.3, AADirected: 0.2, SC: 0.9}},
		{Model: "b", Grid: 4, Condition: "shape", Metrics: Metrics{PA: 0.7, EM: 0, AA: 0.3, AADirected: 0.1, SC: 0.4}},
		{Model: "a", Grid: 8, Condition: "shape", Metrics: Metrics{PA: 0.9, EM: 1, AA: 1, AADirected: 1, SC: 1}},
		{Model: "b", Grid: 4, Condition: "rect", Metrics: Metrics{PA: 0.1}},
	}
	markBest(gs)
	want := [][5]bool{
		{false, false, true, true, true}, // ties share the mark; EM 0 is never best
		{true, false, true, false, false},
		{false, false, false, false, false}, // alone in its grid
		{false, false, false, false, false}, // alone in its condition
	}
	for i, g := range gs {
		if g.Best != want[i] {
			t.Errorf("%s %d %s: best %v, want %v", g.Model, g.Grid, g.Condition, g.Best, want[i])
		}
	}
}
