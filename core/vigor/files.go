package vigor

import (
	"bufio"
	"errors"
	"fmt"
	"image"
	_ "image/gif" // image formats a split may hold
	_ "image/jpeg"
	_ "image/png"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"

	_ "golang.org/x/image/webp"

	"github.com/jigbench/jigbench/core/fsutil"
)

// MaxImagePixels is the largest image a split may name. Decoding a bigger
// one would take gigabytes; a header claiming more is refused unread.
const MaxImagePixels = 100_000_000

// checkFiles checks every path of every item: inside the folder (also after
// following symlinks), present, a regular file, an image whose header
// decodes and is at most MaxImagePixels. Only headers are read.
func checkFiles(dir string, s *Split) []Problem {
	root, err := os.OpenRoot(dir)
	if err != nil {
		return []Problem{{Msg: fmt.Sprintf("open split folder: %v", err), Fatal: true}}
	}
	defer root.Close()
	realDir, err := filepath.EvalSymlinks(dir)
	if err != nil {
		return []Problem{{Msg: fmt.Sprintf("open split folder: %v", err), Fatal: true}}
	}
	c := fileChecker{root: root, dir: dir, realDir: realDir, seen: make(map[string]error), videos: make(map[string]bool)}
	for i := range s.Items {
		if v := s.Items[i].Video; v != "" {
			c.videos[v] = true // ffprobe checks these (checkVideos)
		}
	}
	var probs []Problem
	for i := range s.Items {
		it := &s.Items[i]
		for _, p := range it.Paths() {
			if checkRelPath(p.Path) != nil {
				continue // already reported by ParseSplit
			}
			if err := c.check(p.Path); err != nil {
				probs = append(probs, Problem{Item: it.ID, Field: p.Field, Msg: err.Error(), Fatal: true})
			}
		}
	}
	return probs
}

type fileChecker struct {
	root    *os.Root
	dir     string
	realDir string
	seen    map[string]error // frames and inputs are often shared
	videos  map[string]bool  // paths named as videos, not images
}

func (c *fileChecker) check(rel string) error {
	if err, ok := c.seen[rel]; ok {
		return err
	}
	err := c.checkOnce(rel)
	c.seen[rel] = err
	return err
}

func (c *fileChecker) checkOnce(rel string) error {
	native := filepath.FromSlash(rel)
	// EvalSymlinks gives a clear message for a link out of the folder; the
	// open through os.Root below is what actually enforces confinement.
	if real, err := filepath.EvalSymlinks(filepath.Join(c.dir, native)); err == nil {
		if r, err := filepath.Rel(c.realDir, real); err != nil || !filepath.IsLocal(r) {
			return fmt.Errorf("%q is a symbolic link that leads outside the split folder", rel)
		}
	}
	f, err := fsutil.OpenIn(c.root, native, strconv.Quote(rel))
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("%q does not exist in the split folder", rel)
		}
		return err
	}
	defer f.Close()
	if c.videos[rel] {
		return nil
	}
	cfg, format, err := image.DecodeConfig(bufio.NewReader(f))
	if err != nil {
		return fmt.Errorf("%q is not a readable PNG, JPEG, GIF or WebP image (%v)", rel, err)
	}
	if cfg.Width <= 0 || cfg.Height <= 0 {
		return fmt.Errorf("%q is a %s image with no pixels (%d×%d)", rel, format, cfg.Width, cfg.Height)
	}
	if px := int64(cfg.Width) * int64(cfg.Height); px > MaxImagePixels {
		return fmt.Errorf("%q claims %d×%d pixels (%s megapixels); images over %d megapixels are refused",
			rel, cfg.Width, cfg.Height, strconv.FormatFloat(float64(px)/1e6, 'f', -1, 64), MaxImagePixels/1_000_000)
	}
	return nil
}
