package puzzle

import (
	"fmt"
	"testing"
)

func TestExchange(t *testing.T) {
	// Pieces 0..6: classes {0, 2, 5}, {1, 6}, {3}, {4}.
	e, err := NewExchange([]int{0, 1, 0, 3, 4, 0, 1})
	if err != nil {
		t.Fatal(err)
	}
	if got := fmt.Sprint(e.Classes()); got != "[[0 2 5] [1 6]]" {
		t.Errorf("classes %s", got)
	}
	if e.Pairs() != 3+1 {
		t.Errorf("%d pairs, want 4", e.Pairs())
	}
	if got := e.Arrangements().String(); got != "12" { // 3! · 2!
		t.Errorf("%s arrangements, want 12", got)
	}
	if e.Unique() || !e.Same(2, 5) || e.Same(3, 4) || e.Same(0, 1) {
		t.Error("Same or Unique is wrong")
	}
	s := Singletons(5)
	if !s.Unique() || s.Arrangements().String() != "1" || len(s.Classes()) != 0 || s.Pieces() != 5 {
		t.Error("singletons are not unique")
	}
	// 30 pieces in one class: 30! = 265252859812191058636308480000000.
	all := make([]int, 30)
	one, _ := NewExchange(all)
	if got := one.Arrangements().String(); got != "265252859812191058636308480000000" {
		t.Errorf("30! = %s", got)
	}
	for _, bad := range [][]int{{1, 1}, {0, 2, 0}, {-1}, {0, 0, 1}} {
		if _, err := NewExchange(bad); err == nil {
			t.Errorf("NewExchange(%v) accepted", bad)
		}
	}
}
