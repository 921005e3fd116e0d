//go:build release

package app

import "errors"

// The release build leaves the screenshot command's renderer out: it is
// Fyne's test driver, which a rater's binary does not need.
func init() {
	register(&command{
		name:    "screenshot",
		summary: "render every pane to PNG (not in release builds)",
		usage: `usage: jigbench screenshot --out DIR
    not available in a release build; use a build without the release tag.
`,
		run: func(*env, []string) error {
			return errors.New("screenshot is not available in a release build; build jigbench without -tags release")
		},
	})
}
