package ui

import (
	"image"
	"sync"

	"github.com/jigbench/jigbench/core/render"
)

// Item images are decoded ahead of time so that moving to the next item only
// swaps decoded pictures: the Rate pane asks the cache for the images of the
// next few items while the rater looks at the current one.

// maxItemImageSide caps the longer side an item image is kept at; a bigger
// one is scaled down when decoded (a rater cannot see more on a laptop, and
// a frame sequence of huge images would not fit in memory).
const maxItemImageSide = 2048

// thumbHeight is the height of a frame's thumbnail in the strip, in pixels.
const thumbHeight = 72

// itemImage is one decoded image of an item.
type itemImage struct {
	pyr   *render.Pyramid
	thumb *image.RGBA // small copy for the frame strip
	err   error
}

// imageCache keeps decoded item images, least recently used first out, up
// to a byte budget. It is safe for concurrent use; loads of the same path
// are done once.
type imageCache struct {
	mu       sync.Mutex
	entries  map[string]*cacheEntry
	clock    uint64
	bytes    int64
	maxBytes int64
	// decode is the decoder (tests count calls through it).
	decode func(path string) itemImage
}

type cacheEntry struct {
	img   itemImage
	bytes int64
	used  uint64
	ready chan struct{} // closed when img is set
}

func newImageCache(maxBytes int64) *imageCache {
	return &imageCache{entries: make(map[string]*cacheEntry), maxBytes: maxBytes, decode: decodeItemImage}
}

// decodeItemImage decodes path with core/render (format and size limits,
// EXIF orientation), scales it down to maxItemImageSide if needed, and
// builds its pyramid and thumbnail.
func decodeItemImage(path string) itemImage {
	src, err := render.LoadSource(path)
	if err != nil {
		return itemImage{err: err}
	}
	// The file is decoded once, above; both branches work from src.
	var rgba *image.RGBA
	if max(src.Width, src.Height) > maxItemImageSide {
		prep, err := render.Prepare(src, maxItemImageSide, 1)
		if err != nil {
			return itemImage{err: err}
		}
		rgba = prep.Image
	} else {
		rgba = src.RGBA()
	}
	pyr := render.NewPyramid(rgba)
	s := pyr.Size()
	tw := max(1, s.X*thumbHeight/max(1, s.Y))
	thumb := image.NewRGBA(image.Rect(0, 0, tw, thumbHeight))
	pyr.Viewport(thumb, 0, 0, float64(thumbHeight)/float64(max(1, s.Y)), [3]uint8{128, 128, 128})
	return itemImage{pyr: pyr, thumb: thumb}
}

func (im itemImage) size() int64 {
	if im.pyr == nil {
		return 256
	}
	s := im.pyr.Size()
	return int64(s.X)*int64(s.Y)*4*4/3 + int64(len(im.thumb.Pix))
}

// Peek returns the image at path if it is decoded already; it never waits.
func (c *imageCache) Peek(path string) (itemImage, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.entries[path]
	if !ok {
		return itemImage{}, false
	}
	select {
	case <-e.ready:
		c.clock++
		e.used = c.clock
		return e.img, true
	default:
		return itemImage{}, false
	}
}

// Has reports whether path is decoded or being decoded.
func (c *imageCache) Has(path string) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	_, ok := c.entries[path]
	return ok
}

// Load returns the image at path, decoding it unless it is cached; it
// blocks, so call it off the UI goroutine.
func (c *imageCache) Load(path string) itemImage {
	c.mu.Lock()
	e, ok := c.entries[path]
	if !ok {
		e = &cacheEntry{ready: make(chan struct{})}
		c.entries[path] = e
	}
	c.clock++
	e.used = c.clock
	c.mu.Unlock()
	if ok {
		<-e.ready
		return e.img
	}
	img := c.decode(path)
	c.mu.Lock()
	e.img, e.bytes = img, img.size()
	close(e.ready)
	c.bytes += e.bytes
	c.evict(path)
	c.mu.Unlock()
	return img
}

// evict drops the least recently used decoded images until the cache fits
// its budget, never keep.
func (c *imageCache) evict(keep string) {
	for c.bytes > c.maxBytes {
		var victim string
		var oldest uint64
		for p, e := range c.entries {
			select {
			case <-e.ready:
			default:
				continue // still decoding
			}
			if p != keep && (victim == "" || e.used < oldest) {
				victim, oldest = p, e.used
			}
		}
		if victim == "" {
			return
		}
		c.bytes -= c.entries[victim].bytes
		delete(c.entries, victim)
	}
}

// Forget empties the cache (another split was opened).
func (c *imageCache) Forget() {
	c.mu.Lock()
	defer c.mu.Unlock()
	for p, e := range c.entries {
		select {
		case <-e.ready:
			c.bytes -= e.bytes
			delete(c.entries, p)
		default: // a load in flight finishes and adds itself
		}
	}
}
