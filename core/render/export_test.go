package render

// HeatFrame is the heatmap frame colour, for the tests in package render_test.
var HeatFrame = heatFrame
