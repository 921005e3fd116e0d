package demo

import (
	"crypto/sha256"
	"fmt"
	"image"
	"regexp"
	"runtime"
	"sync"
	"testing"
)

func TestNames(t *testing.T) {
	names := Names()
	if len(names) < 14 {
		t.Fatalf("%d scenes, want at least 14", len(names))
	}
	calm := 0
	seen := map[string]bool{}
	kebab := regexp.MustCompile(`^[a-z]+(-[a-z]+)*$`)
	for i, n := range names {
		if !kebab.MatchString(n) {
			t.Errorf("name %q is not lowercase-kebab", n)
		}
		if seen[n] {
			t.Errorf("duplicate name %q", n)
		}
		seen[n] = true
		if Describe(n) == "" {
			t.Errorf("%s: no description", n)
		}
		if scenes[i].calm {
			calm++
		}
	}
	if busy := len(names) - calm; calm < len(names)/3 || busy < len(names)/3 {
		t.Errorf("%d calm and %d busy scenes: want about half each", calm, busy)
	}
	if Describe("no-such-scene") != "" {
		t.Error("Describe of an unknown name is not empty")
	}
}

func TestUnknown(t *testing.T) {
	img, err := Image("x")
	if img != nil || err == nil {
		t.Fatal("want an error for an unknown name")
	}
	if want := `unknown demo image "x" (see 'jigbench demo list')`; err.Error() != want {
		t.Errorf("error %q, want %q", err, want)
	}
}

func TestImage(t *testing.T) {
	for _, name := range Names() {
		img, err := Image(name)
		if err != nil {
			t.Fatal(err)
		}
		if b := img.Bounds(); b != image.Rect(0, 0, 1920, 1200) {
			t.Errorf("%s: bounds %v", name, b)
		}
		for i := 3; i < len(img.Pix); i += 4 {
			if img.Pix[i] != 255 {
				t.Errorf("%s: pixel %d is not opaque", name, i/4)
				break
			}
		}
	}
}

func TestCachedAndConcurrent(t *testing.T) {
	name := Names()[0]
	resetCache(name)
	var wg sync.WaitGroup
	got := make([]*image.RGBA, 8)
	for i := range got {
		wg.Go(func() {
			img, err := Image(name)
			if err != nil {
				t.Error(err)
			}
			got[i] = img
		})
	}
	wg.Wait()
	for _, img := range got {
		if img != got[0] {
			t.Fatal("concurrent callers got different images")
		}
	}
	again, _ := Image(name)
	if again != got[0] {
		t.Error("second call did not return the cached image")
	}
}

// TestDeterministic renders every scene again, uncached, on one and on three goroutines;
// the bytes must not change.
func TestDeterministic(t *testing.T) {
	names := Names()
	if raceEnabled {
		// The race detector makes painting ~10× slower: one scene of each kind.
		names = []string{"alpine-lake", "flower-meadow"}
	}
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	for _, name := range names {
		first, err := Image(name)
		if err != nil {
			t.Fatal(err)
		}
		want := digest(first)
		for _, procs := range []int{1, 3} {
			runtime.GOMAXPROCS(procs)
			resetCache(name)
			img, _ := Image(name)
			if got := digest(img); got != want {
				t.Errorf("%s: GOMAXPROCS=%d gave %s, first render %s", name, procs, got, want)
			}
		}
	}
}

// golden pins every scene's pixels: any change to a scene, or to the maths under it,
// shows here. After an intended change, run with -run TestGolden -v and copy the
// printed table.
var golden = map[string]string{
	"alpine-lake":   "26fb950c18a80ead110953348b4919f73e38977c22b6f32e87a3848e3dc00325",
	"night-city":    "475427e4a856354cd91db791e613ce1f1bb31f6c6de09237b4e80408063386e0",
	"desert-dunes":  "153bfb3278371688c4743f1d20de1f357e68e6ba908a362f85ba1b9ada84744e",
	"flower-meadow": "95108c27ebb28252fd3193f8a460519c8df9662d7dfd1cea985f407f3dd9a1fa",
	"misty-pines":   "1dc8785c06f32d729660aea37b52ce1afb06fb390cedde0c2ce32f3662f7b195",
	"bookshelf":     "8da982a4aca5ee733080ea74c476886657d93425ec89d569b3d035da86ada17d",
	"snow-field":    "3aab3a86e46dd6945bf26ff57eab593b87f0a0d0526496070855a8e704c7d358",
	"fruit-market":  "dbac9b192717b6c0e196e819a765b13d5971888b34fc3edfebb2599da18fa71b",
	"sunset-sea":    "0c4a50f1e5ed392df597cd1353e97ea18b9e89cbfa186acc5290b983c980c891",
	"coral-reef":    "73cc28d931e2ad49fe48c6d50ab89d98f053b9a71b8c13b5ba0935e57ef919ba",
	"iceberg-bay":   "cad31dd18c9a4d6beece16f2f91e70bbd2e49d6312eaf770d5bf359a1e18be13",
	"stained-glass": "7a6a3e7008ffc924248c6e7abbb20c037902fb38efb59c3eed9e6c633e73bf97",
	"balloon-sky":   "1c195ac8c8d71d0c842044e06fa3d529a32edabef50b7c47d26e4b1fffd85b92",
	"autumn-forest": "02ee36eca4a19718261e9cfbb2a4b86b9b832e1655de98aaa32e6033ccebb603",
	"moonlit-bay":   "919e2e34c7f586feaf7bbd93193f3b50a9043af6828eb3a3562cd0acee76cab4",
	"harbor-town":   "043921ca6b26b2b2dad919a37df97d986802f2f304461b8714d7b60bcda8c241",
}

func TestGolden(t *testing.T) {
	var table string
	for _, name := range Names() {
		img, _ := Image(name)
		got := digest(img)
		table += fmt.Sprintf("\t%q: %q,\n", name, got)
		if want := golden[name]; got != want {
			t.Errorf("%s: sha256 %s, want %s", name, got, want)
		}
	}
	if t.Failed() {
		t.Logf("current table:\n%s", table)
	}
}

func digest(img *image.RGBA) string {
	return fmt.Sprintf("%x", sha256.Sum256(img.Pix))
}

// TestDistinct compares 120×75 thumbnails: every pair of scenes must differ clearly.
func TestDistinct(t *testing.T) {
	names := Names()
	thumbs := make([]*image.RGBA, len(names))
	for i, n := range names {
		img, _ := Image(n)
		thumbs[i] = shrink(img, 16)
	}
	for i := range thumbs {
		for j := i + 1; j < len(thumbs); j++ {
			var sum int
			a, b := thumbs[i].Pix, thumbs[j].Pix
			for k := range a {
				if k%4 != 3 {
					sum += absInt(int(a[k]) - int(b[k]))
				}
			}
			if mad := float64(sum) / float64(len(a)/4*3); mad < minThumbDiff {
				t.Errorf("%s and %s too alike: mean absolute difference %.1f", names[i], names[j], mad)
			}
		}
	}
}

const (
	minThumbDiff = 20.0 // mean absolute difference (of 255) between two scenes' thumbnails
	flatVariance = 4.0  // a 16×16 block whose luma variance is below this is low-detail
	calmMinFlat  = 0.30 // calm scenes: at least this fraction of low-detail blocks
	busyMaxFlat  = 0.15 // busy scenes: at most this fraction
)

// TestDetail checks the scene table's calm flags against the pictures: calm scenes have
// large low-detail areas, busy ones hardly any.
func TestDetail(t *testing.T) {
	for _, s := range scenes {
		img, _ := Image(s.name)
		f := flatFraction(img)
		t.Logf("%-14s calm=%-5v low-detail blocks %.2f", s.name, s.calm, f)
		if s.calm && f < calmMinFlat {
			t.Errorf("%s: calm, but only %.2f of blocks are low-detail (want ≥ %.2f)", s.name, f, calmMinFlat)
		}
		if !s.calm && f > busyMaxFlat {
			t.Errorf("%s: busy, but %.2f of blocks are low-detail (want ≤ %.2f)", s.name, f, busyMaxFlat)
		}
	}
}

// flatFraction is the fraction of 16×16 blocks that are low-detail.
func flatFraction(img *image.RGBA) float64 {
	var flat, total int
	for by := 0; by+16 <= height; by += 16 {
		for bx := 0; bx+16 <= width; bx += 16 {
			if flatBlock(img, bx, by) {
				flat++
			}
			total++
		}
	}
	return float64(flat) / float64(total)
}

// flatBlock reports whether the luma variance of the 16×16 block at (bx, by) is below
// flatVariance.
func flatBlock(img *image.RGBA, bx, by int) bool {
	var s, s2 float64
	for y := by; y < by+16; y++ {
		for x := bx; x < bx+16; x++ {
			p := img.Pix[y*img.Stride+4*x:]
			l := 0.299*float64(p[0]) + 0.587*float64(p[1]) + 0.114*float64(p[2])
			s += l
			s2 += l * l
		}
	}
	mean := s / 256
	return s2/256-mean*mean < flatVariance
}

func absInt(v int) int {
	if v < 0 {
		return -v
	}
	return v
}

// BenchmarkImage renders each scene once per iteration, uncached.
func BenchmarkImage(b *testing.B) {
	for _, s := range scenes {
		b.Run(s.name, func(b *testing.B) {
			for b.Loop() {
				render(s)
			}
		})
	}
}
