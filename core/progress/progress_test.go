package progress

import (
	"sync"
	"testing"
)

func TestFraction(t *testing.T) {
	for _, c := range []struct {
		r    Report
		want float64
	}{{Report{}, 0}, {Report{Done: 5}, 0}, {Report{Done: 1, Total: 4}, 0.25}, {Report{Done: 4, Total: 4}, 1}, {Report{Done: 9, Total: 4}, 1}} {
		if got := c.r.Fraction(); got != c.want {
			t.Errorf("%+v: %v, want %v", c.r, got, c.want)
		}
	}
}

func TestSerialAndCall(t *testing.T) {
	var nilFunc Func
	nilFunc.Call(Report{Done: 1}) // no panic
	Serial(nil)(Report{Done: 1})  // no panic

	inside, most, calls := 0, 0, 0
	f := Serial(func(r Report) {
		inside++
		most = max(most, inside)
		calls++
		inside--
	})
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range 100 {
				f.Call(Report{Done: int64(i*100 + j)})
			}
		}()
	}
	wg.Wait()
	if calls != 800 || most != 1 {
		t.Errorf("%d calls, at most %d at once; want 800 and 1", calls, most)
	}
}
