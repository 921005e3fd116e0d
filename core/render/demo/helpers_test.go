package demo

import "image"

// shrink box-filters img down by an integer factor k.
func shrink(img *image.RGBA, k int) *image.RGBA {
	b := img.Bounds()
	out := image.NewRGBA(image.Rect(0, 0, b.Dx()/k, b.Dy()/k))
	for y := 0; y < b.Dy()/k; y++ {
		for x := 0; x < b.Dx()/k; x++ {
			var sum [4]int
			for dy := 0; dy < k; dy++ {
				for dx := 0; dx < k; dx++ {
					i := (y*k+dy)*img.Stride + 4*(x*k+dx)
					for c := range 4 {
						sum[c] += int(img.Pix[i+c])
					}
				}
			}
			for c := range 4 {
				out.Pix[y*out.Stride+4*x+c] = uint8((sum[c] + k*k/2) / (k * k))
			}
		}
	}
	return out
}
