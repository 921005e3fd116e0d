//go:build !release

package app

import (
	"fmt"

	"github.com/jigbench/jigbench/ui/screenshot"
)

func init() {
	register(&command{
		name:    "screenshot",
		summary: "render every pane with demo data to PNG (no display needed)",
		usage: `usage: jigbench screenshot --out DIR
    renders every pane with demo data, in the light and dark themes, at 1280×800
    and 1024×600, through Fyne's software renderer; writes one PNG per picture
    (<pane>-<theme>-<W>x<H>.png) into DIR and prints their paths.
`,
		run: func(e *env, args []string) error {
			fs := newFlags("screenshot")
			out := fs.String("out", "", "output folder")
			if err := parseFlags(fs, args, false); err != nil {
				return err
			}
			if *out == "" {
				return usagef("--out DIR is required")
			}
			files, err := screenshot.Write(*out, Version, screenshot.Sizes)
			if err != nil {
				return err
			}
			for _, f := range files {
				fmt.Fprintln(e.stdout, f)
			}
			return nil
		},
	})
}
