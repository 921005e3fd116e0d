// Package locale gives Fyne a locale it can parse before Fyne looks.
//
// Fyne's lang package reads LANG during package initialisation and logs an
// error for "C" or "POSIX" (the default on servers and CI), which would break
// the CLI's promise of a single error line. Go initialises packages in import-
// path order among those whose imports are ready (Go spec, "Package
// initialization"); this package imports only the standard library and its
// path sorts before golang.org/x/text, which Fyne's lang package needs first,
// so this init always runs earlier.
package locale

import (
	"os"
	"strings"
)

func init() {
	for _, v := range []string{"LC_ALL", "LC_MESSAGES", "LANG"} {
		val := os.Getenv(v)
		if val == "" {
			continue
		}
		if lang := strings.SplitN(val, ".", 2)[0]; lang == "C" || lang == "POSIX" {
			os.Setenv(v, "en_US.UTF-8")
		}
	}
}
