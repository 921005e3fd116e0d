//go:build !unix

package vigor

import "errors"

func mkfifo(string) error { return errors.New("no FIFOs on this system") }
