//go:build unix

package pgtest

import (
	"os/exec"
	"syscall"
)

// ownGroup starts cmd in a process group of its own, so that a server
// that will not stop can be killed with every child it started.
func ownGroup(cmd *exec.Cmd) { cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true} }

// interrupt asks the postmaster pid for a fast shutdown.
func (s *Server) interrupt(pid int) { syscall.Kill(pid, syscall.SIGINT) }

// kill ends the process group ownGroup made for cmd.
func kill(cmd *exec.Cmd) { syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
