//go:build !purego

package solve

import "golang.org/x/sys/cpu"

// haveLanes: the eight-lane MGC kernel runs on this machine.
var haveLanes = cpu.X86.HasAVX2

//go:noescape
func mgcLanesAVX2(k int, as, ia *float32, dir *uint8, vb, mb, ib, out *float32)

func mgcLanesAsm(k int, as, ia *float32, dir *uint8, vb, mb, ib, out *float32) {
	mgcLanesAVX2(k, as, ia, dir, vb, mb, ib, out)
}
