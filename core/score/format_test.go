package score

import (
	"encoding/csv"
	"strings"
	"testing"
)

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

// TestCSVAnalysisColumns: PA up to exchangeable pieces and the remaining
// pieces' metrics have their columns, empty where a group has none.
func TestCSVAnalysisColumns(t *testing.T) {
	pe := 0.75
	rep := &Report{
		Groups: []Group{
			{Model: "a", Grid: 4, Condition: "shape", N: 2, PAExchangeable: &Estimate{N: 2, Mean: 0.75, CI: Interval{0.5, 1}},
				Remaining: &RemainingGroup{N: 2, Metrics: Metrics{PA: 0.25, SC: 0.5}, CI: Intervals{PA: Interval{0, 0.5}}}},
			{Model: "b", Grid: 4, Condition: "shape", N: 2},
		},
		Instances: []InstanceScore{{Model: "a", ID: "x", Grid: 4, Condition: "shape", Valid: true, PAExchangeable: &pe, Remaining: &Metrics{PA: 0.25}}},
	}
	read := func(write func(*strings.Builder) error) []map[string]string {
		var b strings.Builder
		if err := write(&b); err != nil {
			t.Fatal(err)
		}
		rows, err := csv.NewReader(strings.NewReader(b.String())).ReadAll()
		if err != nil {
			t.Fatal(err)
		}
		var out []map[string]string
		for _, r := range rows[1:] {
			m := map[string]string{}
			for i, h := range rows[0] {
				m[h] = r[i]
			}
			out = append(out, m)
		}
		return out
	}
	groups := read(func(b *strings.Builder) error { return rep.WriteCSV(b) })
	want := map[string]string{"pa_exchangeable_n": "2", "pa_exchangeable": "0.75", "pa_exchangeable_lo": "0.5", "pa_exchangeable_hi": "1",
		"remaining_n": "2", "remaining_pa": "0.25", "remaining_pa_hi": "0.5", "remaining_sc": "0.5"}
	for k, v := range want {
		if groups[0][k] != v {
			t.Errorf("group a %s = %q, want %q", k, groups[0][k], v)
		}
		if groups[1][k] != "" {
			t.Errorf("group b %s = %q, want empty", k, groups[1][k])
		}
	}
	inst := read(func(b *strings.Builder) error { return rep.WriteInstancesCSV(b) })
	if inst[0]["pa_exchangeable"] != "0.75" || inst[0]["remaining_pa"] != "0.25" {
		t.Errorf("instance row %v", inst[0])
	}
}

func TestPairedText(t *testing.T) {
	for _, c := range []struct {
		t    PairedTest
		want string
	}{
		{PairedTest{Diff: 0.052, CI: Interval{-0.042, 0.167}, P: 0.625}, "+5.2 [-4.2, +16.7] p=.625"},
		{PairedTest{Diff: 0, CI: Interval{0, 0}, P: 1}, "0.0 [0.0, 0.0] p=1.000"},
		{PairedTest{Diff: -0.4575, CI: Interval{-0.5, -0.41}, P: 0.0002}, "-45.8 [-50.0, -41.0] p<.001"},
	} {
		if got := PairedText(c.t); got != c.want {
			t.Errorf("PairedText(%+v) = %q, want %q", c.t, got, c.want)
		}
	}
}
