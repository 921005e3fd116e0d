package demo

import "testing"

// BenchmarkImage renders every scene once per iteration, uncached.
func BenchmarkImage(b *testing.B) {
	for _, s := range scenes {
		b.Run(s.name, func(b *testing.B) {
			for b.Loop() {
				render(s)
			}
		})
	}
}
