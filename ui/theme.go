package ui

import (
	"image/color"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"
)

// jigbenchTheme is Fyne's default theme with the text colours that fall
// short of WCAG AA (4.5:1 against their background) made darker in light
// mode and lighter in dark mode: disabled and low-importance text (hints,
// footnotes, baselines), placeholders, and the primary, success, warning
// and error colours, both as text and under their "foreground on" text.
type jigbenchTheme struct{ fyne.Theme }

// Theme is jigbench's theme; the app and its screenshots use it.
func Theme() fyne.Theme { return jigbenchTheme{theme.DefaultTheme()} }

// palette holds the overridden colours per variant; the contrast test
// checks every text/background pair of the theme.
var palette = map[fyne.ThemeVariant]map[fyne.ThemeColorName]color.NRGBA{
	theme.VariantLight: {
		theme.ColorNameDisabled:            {R: 0x6b, G: 0x6b, B: 0x6b, A: 0xff},
		theme.ColorNamePlaceHolder:         {R: 0x6b, G: 0x6b, B: 0x6b, A: 0xff},
		theme.ColorNamePrimary:             {R: 0x1f, G: 0x5f, B: 0xd6, A: 0xff},
		theme.ColorNameHyperlink:           {R: 0x1f, G: 0x5f, B: 0xd6, A: 0xff},
		theme.ColorNameSuccess:             {R: 0x1b, G: 0x7a, B: 0x33, A: 0xff},
		theme.ColorNameWarning:             {R: 0x9c, G: 0x50, B: 0x00, A: 0xff},
		theme.ColorNameError:               {R: 0xc4, G: 0x26, B: 0x1d, A: 0xff},
		theme.ColorNameForegroundOnPrimary: {R: 0xff, G: 0xff, B: 0xff, A: 0xff},
		theme.ColorNameForegroundOnSuccess: {R: 0xff, G: 0xff, B: 0xff, A: 0xff},
		theme.ColorNameForegroundOnWarning: {R: 0xff, G: 0xff, B: 0xff, A: 0xff},
		theme.ColorNameForegroundOnError:   {R: 0xff, G: 0xff, B: 0xff, A: 0xff},
	},
	theme.VariantDark: {
		theme.ColorNameDisabled:            {R: 0x9a, G: 0x9a, B: 0x9a, A: 0xff},
		theme.ColorNamePrimary:             {R: 0x5c, G: 0x95, B: 0xff, A: 0xff},
		theme.ColorNameHyperlink:           {R: 0x5c, G: 0x95, B: 0xff, A: 0xff},
		theme.ColorNameSuccess:             {R: 0x4c, G: 0xd9, B: 0x64, A: 0xff},
		theme.ColorNameWarning:             {R: 0xff, G: 0xa7, B: 0x26, A: 0xff},
		theme.ColorNameError:               {R: 0xff, G: 0x6b, B: 0x5e, A: 0xff},
		theme.ColorNameForegroundOnPrimary: {R: 0x10, G: 0x10, B: 0x12, A: 0xff},
		theme.ColorNameForegroundOnSuccess: {R: 0x10, G: 0x10, B: 0x12, A: 0xff},
		theme.ColorNameForegroundOnWarning: {R: 0x10, G: 0x10, B: 0x12, A: 0xff},
		theme.ColorNameForegroundOnError:   {R: 0x10, G: 0x10, B: 0x12, A: 0xff},
	},
}

// Color implements fyne.Theme.
func (t jigbenchTheme) Color(n fyne.ThemeColorName, v fyne.ThemeVariant) color.Color {
	if v != theme.VariantDark {
		v = theme.VariantLight
	}
	if c, ok := palette[v][n]; ok {
		return c
	}
	return t.Theme.Color(n, v)
}

// textPairs are the theme's text colours and the backgrounds each is drawn
// on: plain and coloured labels on the window, dialogs, menus, fields and
// buttons; button text on its importance colour.
var textPairs = []struct{ text, background fyne.ThemeColorName }{
	{theme.ColorNameForeground, theme.ColorNameBackground},
	{theme.ColorNameForeground, theme.ColorNameButton},
	{theme.ColorNameForeground, theme.ColorNameInputBackground},
	{theme.ColorNameForeground, theme.ColorNameOverlayBackground},
	{theme.ColorNameForeground, theme.ColorNameMenuBackground},
	{theme.ColorNameForeground, theme.ColorNameHeaderBackground},
	{theme.ColorNameDisabled, theme.ColorNameBackground},
	{theme.ColorNameDisabled, theme.ColorNameOverlayBackground},
	{theme.ColorNameDisabled, theme.ColorNameDisabledButton},
	{theme.ColorNamePlaceHolder, theme.ColorNameInputBackground},
	{theme.ColorNamePrimary, theme.ColorNameBackground},
	{theme.ColorNamePrimary, theme.ColorNameOverlayBackground},
	{theme.ColorNameHyperlink, theme.ColorNameBackground},
	{theme.ColorNameSuccess, theme.ColorNameBackground},
	{theme.ColorNameWarning, theme.ColorNameBackground},
	{theme.ColorNameError, theme.ColorNameBackground},
	{theme.ColorNameError, theme.ColorNameOverlayBackground},
	{theme.ColorNameForegroundOnPrimary, theme.ColorNamePrimary},
	{theme.ColorNameForegroundOnSuccess, theme.ColorNameSuccess},
	{theme.ColorNameForegroundOnWarning, theme.ColorNameWarning},
	{theme.ColorNameForegroundOnError, theme.ColorNameError},
}
