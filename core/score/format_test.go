package score

import "testing"

func TestPercentFormats(t *testing.T) {
	for _, c := range []struct {
		x    float64
		want string
	}{{0, "0.0%"}, {1, "100.0%"}, {0.6965, "69.7%"}, {0.0625, "6.3%"}, {0.0004, "<0.1%"}, {0.0005, "0.1%"}, {-0.00001, "0.0%"}} {
		if got := Percent(c.x); got != c.want {
			t.Errorf("Percent(%v) = %q, want %q", c.x, got, c.want)
		}
	}
	// Both ends to the same precision, whatever they are.
	for _, c := range []struct {
		iv   Interval
		want string
	}{{Interval{0, 1}, "[0.0–100.0]"}, {Interval{0.88, 0.88}, "[88.0–88.0]"}, {Interval{0.621, 0.7704}, "[62.1–77.0]"}} {
		if got := PercentInterval(c.iv); got != c.want {
			t.Errorf("PercentInterval(%v) = %q, want %q", c.iv, got, c.want)
		}
	}
}

func TestHeatmapInstanceCount(t *testing.T) {
	for _, c := range []struct {
		n, invalid int
		want       string
	}{
		{12, 0, "12 instances, all answers valid"},
		{12, 2, "12 instances, 2 of them invalid (counted as 0)"},
		{1, 1, "1 instance, all invalid (counted as 0)"},
	} {
		h := &Heatmap{Instances: c.n, Invalid: c.invalid}
		if got := h.InstanceCount(); got != c.want {
			t.Errorf("%d/%d: %q, want %q", c.n, c.invalid, got, c.want)
		}
	}
}
