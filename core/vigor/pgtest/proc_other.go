//go:build !unix

package pgtest

import "os/exec"

// ownGroup does nothing where there are no process groups.
func ownGroup(*exec.Cmd) {}

// interrupt asks the server for a fast shutdown the way pg_ctl does where
// there are no signals to send.
func (s *Server) interrupt(int) { s.command("pg_ctl", "stop", "-D", s.data, "-m", "fast").Run() }

// kill ends the server process.
func kill(cmd *exec.Cmd) { cmd.Process.Kill() }
