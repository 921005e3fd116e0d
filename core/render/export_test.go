package render

// HeatFrame is the heatmap frame colour, for the tests in package render_test.
var HeatFrame = heatFrame

// AbsDiff and WritePNG are test helpers (testutil_test.go).
var (
	AbsDiff       = absDiff
	WritePNG      = writePNG
	CompareGolden = compareGolden
)
