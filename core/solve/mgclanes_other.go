//go:build !amd64 || purego

package solve

const haveLanes = false

func mgcLanesAsm(k int, as, ia *float32, dir *uint8, vb, mb, ib, out *float32) {
	panic("no lane kernel on this architecture")
}
