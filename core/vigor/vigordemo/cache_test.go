package vigordemo

import (
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"testing"

	"github.com/jigbench/jigbench/core/vigor"
)

// TestCacheRoundTrip writes the demo the way the app does, reads the
// cached copy back, and refuses copies that are incomplete or name files
// outside their folder.
func TestCacheRoundTrip(t *testing.T) {
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	t.Setenv("HOME", t.TempDir())
	written, err := prepare()
	if err != nil {
		t.Fatal(err)
	}
	if filepath.Base(written.Dir) != "vigor-demo-v"+strconv.Itoa(Version) || len(written.Humans) == 0 {
		t.Fatalf("demo written as %+v", written)
	}
	again, err := prepare() // the cached copy, not a new one
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(again, written) {
		t.Fatalf("read back %+v, wrote %+v", again, written)
	}
	for _, c := range vigor.Conditions {
		for _, j := range written.Judge[c] {
			if _, err := os.Stat(j); err != nil {
				t.Fatalf("judge run %s: %v", j, err)
			}
		}
	}

	if err := os.WriteFile(filepath.Join(written.Dir, demoIndex), []byte(`{"humans":["../../etc/passwd"]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := readDemo(written.Dir); err == nil {
		t.Fatal("an index naming a file outside the folder was accepted")
	}
	os.Remove(filepath.Join(written.Dir, demoIndex))
	if _, err := readDemo(written.Dir); err == nil {
		t.Fatal("a copy without its index (half written) was accepted")
	}
}
