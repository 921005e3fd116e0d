package screenshot

import (
	"path/filepath"
	"slices"
	"testing"

	"fyne.io/fyne/v2"

	"github.com/jigbench/jigbench/core/render"
)

// TestScreenshotsWritesEveryPane moved here from ui/ui_test.go with the
// screenshots.
func TestScreenshotsWritesEveryPane(t *testing.T) {
	dir := t.TempDir()
	files, err := Write(dir, "test", []fyne.Size{{Width: 800, Height: 500}})
	if err != nil {
		t.Fatal(err)
	}
	for _, pane := range []string{"generate", "ablation", "score", "rate", "agreement"} {
		for _, theme := range []string{"light", "dark"} {
			want := filepath.Join(dir, pane+"-"+theme+"-800x500.png")
			if !slices.Contains(files, want) {
				t.Errorf("no %s", want)
			}
		}
	}
	for _, f := range files {
		img, err := render.LoadImage(f)
		if err != nil {
			t.Fatal(err)
		}
		if img.Rect.Dx() != 800 || img.Rect.Dy() != 500 {
			t.Errorf("%s is %v", f, img.Rect)
		}
	}
}
