package render

import (
	"errors"
	"fmt"
	"image"
	"os"
	"path/filepath"
	"sync"

	"github.com/jigbench/jigbench/core/fsutil"
	"github.com/jigbench/jigbench/core/puzzle"
)

// Generated is one instance in memory: its geometry, instance.json and images.
type Generated struct {
	Puzzle   *puzzle.Puzzle
	Instance *puzzle.Instance
	Solved   *image.RGBA // the answer: resized, cropped source
	Shape    *image.RGBA // shuffled sheet, tab-and-blank pieces
	Rect     *image.RGBA // the same sheet with straight cuts
	Note     string      // something worth telling the user, or ""
}

// Generate builds the instance of src at grid n with seed and options.
func Generate(src *Source, n int, seed uint64, opt puzzle.Options) (*Generated, error) {
	if err := puzzle.ValidateGrid(n); err != nil {
		return nil, err
	}
	if err := opt.Validate(); err != nil {
		return nil, err
	}
	prep, err := Prepare(src, opt.Size, n)
	if err != nil {
		return nil, err
	}
	return GenerateFrom(src, prep, n, seed, opt)
}

// GenerateFrom builds the instance from an already prepared solved image
// (Prepare(src, opt.Size, n)), so a preview can change the seed, tab style or
// ratio without scaling the source again.
func GenerateFrom(src *Source, prep *Prepared, n int, seed uint64, opt puzzle.Options) (*Generated, error) {
	b := prep.Image.Rect
	p, err := puzzle.New(n, seed, src.SHA256, b.Dx(), b.Dy(), opt)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", src.Name, err)
	}
	if opt.Hints == puzzle.HintsSimilarity {
		if err := p.GroupBySimilarity(ColourHistograms(p, prep.Image)); err != nil {
			return nil, fmt.Errorf("%s: %w", src.Name, err)
		}
	}
	g := &Generated{
		Puzzle:   p,
		Instance: p.Instance(src.Name, src.Width, src.Height),
		Solved:   prep.Image,
		Note:     prep.Note,
	}
	// The two sheets only read the puzzle and the solved image: draw them
	// side by side.
	var wg sync.WaitGroup
	wg.Go(func() { g.Shape = Sheet(p, prep.Image, true, DefaultSheet) })
	g.Rect = Sheet(p, prep.Image, false, DefaultSheet)
	wg.Wait()
	return g, nil
}

// Instance file names (docs/formats.md, "The instance file").
const (
	FileInstance   = puzzle.InstanceFile
	FileShape      = "shape.png"
	FileRect       = "rect.png"
	FileSolved     = "solved.png"
	FilePromptShap = "prompt-shape.txt"
	FilePromptRect = "prompt-rect.txt"
)

// Files returns the instance folder's files by name, encoding one image
// after another (a batch runs instances side by side instead).
func (g *Generated) Files() (map[string][]byte, error) { return g.files(false) }

// files is Files; concurrent encodes the three images at once, which a
// single instance written on several cores wants. The bytes are the same.
func (g *Generated) files(concurrent bool) (map[string][]byte, error) {
	js, err := g.Instance.MarshalIndent()
	if err != nil {
		return nil, err
	}
	files := map[string][]byte{
		FileInstance:   js,
		FilePromptShap: []byte(puzzle.PromptWithHints(g.Puzzle.N, puzzle.ConditionShape, g.Instance.Hints)),
		FilePromptRect: []byte(puzzle.PromptWithHints(g.Puzzle.N, puzzle.ConditionRect, g.Instance.Hints)),
	}
	names := [3]string{FileShape, FileRect, FileSolved}
	imgs := [3]*image.RGBA{g.Shape, g.Rect, g.Solved}
	var data [3][]byte
	var errs [3]error
	encode := func(i int) { data[i], errs[i] = EncodePNG(imgs[i]) }
	if concurrent {
		var wg sync.WaitGroup
		for i := range imgs {
			wg.Go(func() { encode(i) })
		}
		wg.Wait()
	} else {
		for i := range imgs {
			encode(i)
		}
	}
	for i, name := range names {
		if errs[i] != nil {
			return nil, fmt.Errorf("encode %s: %w", name, errs[i])
		}
		files[name] = data[i]
	}
	return files, nil
}

// WriteDir writes the instance to out/<id>/ and returns that path. The folder
// appears complete or not at all: files go to a temporary folder that is
// renamed into place. An existing instance folder of the same ID is replaced.
func (g *Generated) WriteDir(out string) (string, error) {
	files, err := g.files(true)
	if err != nil {
		return "", err
	}
	return WriteInstanceDir(out, g.Instance.ID, files)
}

// WriteInstanceDir writes files into out/id/ atomically (see WriteDir).
func WriteInstanceDir(out, id string, files map[string][]byte) (string, error) {
	if err := os.MkdirAll(out, 0o755); err != nil {
		return "", fmt.Errorf("create output folder: %w", fsutil.WithoutPath(err))
	}
	final := filepath.Join(out, id)
	tmp, err := os.MkdirTemp(out, fsutil.TempPattern(id))
	if err != nil {
		return "", fmt.Errorf("write into %s: %w", out, fsutil.WithoutPath(err))
	}
	defer os.RemoveAll(tmp) // a no-op after the rename
	for name, data := range files {
		if err := writeFile(filepath.Join(tmp, name), data); err != nil {
			return "", err
		}
	}
	if err := os.Chmod(tmp, 0o755); err != nil {
		return "", err
	}
	if _, err := os.Stat(final); err == nil {
		if _, err := os.Stat(filepath.Join(final, FileInstance)); err != nil {
			return "", fmt.Errorf("%s exists and is not an instance folder; move it away first", final)
		}
		if err := os.RemoveAll(final); err != nil {
			return "", fmt.Errorf("replace %s: %w", final, fsutil.WithoutPath(err))
		}
	} else if !errors.Is(err, os.ErrNotExist) {
		return "", err
	}
	if err := os.Rename(tmp, final); err != nil {
		return "", fmt.Errorf("finish %s: %w", final, fsutil.WithoutPath(err))
	}
	return final, nil
}

func writeFile(path string, data []byte) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o644)
	if err != nil {
		return fmt.Errorf("write %s: %w", path, fsutil.WithoutPath(err))
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		return fmt.Errorf("write %s: %w", path, fsutil.WithoutPath(err))
	}
	return f.Close()
}
