// Package resources holds the files jigbench embeds: the app icon and the
// digit glyphs used for piece labels.
package resources

import _ "embed"

//go:generate go run gen/digits.go
//go:generate go run gen/icon.go

// Digits is a PNG of the digits 0–9 in equal cells (grey = coverage).
//
//go:embed digits.png
var Digits []byte

// Icon is the app icon, 512×512 PNG.
//
//go:embed icon.png
var Icon []byte
