package vigor

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/jigbench/jigbench/core/fsutil"
)

// SplitFormat is the format tag of split.json (docs/formats.md, "Splits").
const SplitFormat = "jigbench.vigor-split/v1"

// SplitFile is the name of the split description inside a split folder.
const SplitFile = "split.json"

// maxSplitBytes bounds split.json; a paper-sized split is well under 1 MiB.
const maxSplitBytes = 64 << 20

// Split is a meta-evaluation split: the items raters and the judge score.
type Split struct {
	Format string `json:"format"`
	Name   string `json:"name"`
	Items  []Item `json:"items"`
	// Rubrics optionally overrides the default rubric text per subdomain:
	// subdomain → track → dimension name → text.
	Rubrics map[string]map[Track]map[string]string `json:"rubrics,omitempty"`
	// FramesFromVideo is how many frames video items show unless they say
	// (0: DefaultVideoFrames).
	FramesFromVideo int `json:"frames_from_video,omitempty"`

	// Dir is the split folder; item paths are relative to it.
	Dir string `json:"-"`

	index     map[string]int
	overrides map[string]map[Track][NumDims]string // validated Rubrics
	digest    string                               // Digest, once computed
}

// Item is one output to be scored.
type Item struct {
	ID          string   `json:"id"`
	Track       Track    `json:"track"`
	Domain      string   `json:"domain,omitempty"`
	Subdomain   string   `json:"subdomain,omitempty"`
	Model       string   `json:"model,omitempty"`
	Instruction string   `json:"instruction,omitempty"`
	Input       string   `json:"input,omitempty"`
	Output      string   `json:"output,omitempty"` // result track: the final image
	Frames      []string `json:"frames,omitempty"` // process track: the frame sequence
	// Video is a process item's output as a video, instead of Frames;
	// FramesFromVideo overrides the split's frame count (video.go).
	Video           string `json:"video,omitempty"`
	FramesFromVideo int    `json:"frames_from_video,omitempty"`
	GTImage         string `json:"gt_image,omitempty"`
	GTText          string `json:"gt_text,omitempty"`
}

// Paths lists the item's files with the field each comes from, in display
// order: input, output, frames, ground truth.
func (it *Item) Paths() []ItemPath {
	var ps []ItemPath
	add := func(field, p string) {
		if p != "" {
			ps = append(ps, ItemPath{field, p})
		}
	}
	add("input", it.Input)
	add("output", it.Output)
	for i, f := range it.Frames {
		add(fmt.Sprintf("frames[%d]", i), f)
	}
	add("video", it.Video)
	add("gt_image", it.GTImage)
	return ps
}

// ItemPath is one file an item names.
type ItemPath struct {
	Field string // "input", "output", "frames[3]", "video", "gt_image"
	Path  string // as written in split.json, slash-separated
}

// Problem is one thing wrong with a split.
type Problem struct {
	Item  string // item id, "#N" for an item without a usable id, "" for the split
	Field string // the field concerned, if any
	Msg   string
	// Fatal problems make the split unusable; the others are warnings.
	Fatal bool
}

func (p Problem) String() string {
	var b strings.Builder
	if p.Item != "" {
		b.WriteString("item " + p.Item + ": ")
	}
	if p.Field != "" {
		b.WriteString(p.Field + ": ")
	}
	b.WriteString(p.Msg)
	return b.String()
}

// SplitError is returned by Load for a split with fatal problems.
type SplitError struct {
	Path     string    // the split.json path
	Problems []Problem // the fatal problems, at least one
}

func (e *SplitError) Error() string {
	msg := fmt.Sprintf("split %s: %s", e.Path, e.Problems[0])
	if n := len(e.Problems) - 1; n > 0 {
		msg += fmt.Sprintf(" (and %d more problem%s; 'jigbench vigor check' lists them all)", n, plural(n))
	}
	return msg
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// Load reads and validates the split in dir, including every file it names
// (existence, confinement to the folder, image headers). It fails on the
// fatal problems with a *SplitError naming the file and the item.
func Load(dir string) (*Split, error) { return load(dir, true) }

// LoadMeta is Load without looking at the image files: enough for
// statistics, import and export, which need only the items' metadata.
func LoadMeta(dir string) (*Split, error) { return load(dir, false) }

func load(dir string, files bool) (*Split, error) {
	s, probs := check(dir, files)
	var fatal []Problem
	for _, p := range probs {
		if p.Fatal {
			fatal = append(fatal, p)
		}
	}
	if len(fatal) > 0 {
		return nil, &SplitError{Path: filepath.Join(dir, SplitFile), Problems: fatal}
	}
	if files {
		// The store keys ratings by it (store_identity.go); the files were just checked.
		if _, err := s.Digest(); err != nil {
			return nil, err
		}
	}
	return s, nil
}

// Check validates the split in dir and returns every problem found, fatal
// ones and warnings, in item order. An empty result means the split is fine.
func Check(dir string) []Problem {
	s, probs := check(dir, true)
	if s != nil {
		// Videos are opened with ffprobe here, not on every Load.
		probs = append(probs, checkVideos(context.Background(), s, DefaultVideoLimits)...)
		sortProblems(s, probs)
	}
	return probs
}

func check(dir string, files bool) (*Split, []Problem) {
	data, err := readSplitFile(dir)
	if err != nil {
		return nil, []Problem{{Msg: err.Error(), Fatal: true}}
	}
	s, probs := ParseSplit(data)
	if s == nil {
		return nil, probs
	}
	s.Dir = dir
	if files {
		probs = append(probs, checkFiles(dir, s)...)
		sortProblems(s, probs)
	}
	return s, probs
}

// readSplitFile reads split.json through the folder root, so a split.json
// that is itself a symlink out of the folder is refused too.
func readSplitFile(dir string) ([]byte, error) {
	root, err := os.OpenRoot(dir)
	if err != nil {
		return nil, fmt.Errorf("open split folder %s: %w", dir, err)
	}
	defer root.Close()
	f, err := fsutil.OpenIn(root, SplitFile, filepath.Join(dir, SplitFile))
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxSplitBytes+1))
	if err != nil {
		return nil, fmt.Errorf("read %s in %s: %w", SplitFile, dir, err)
	}
	if len(data) > maxSplitBytes {
		return nil, fmt.Errorf("%s in %s is larger than %d MiB", SplitFile, dir, maxSplitBytes>>20)
	}
	return data, nil
}

// ParseSplit parses and validates split.json contents without touching the
// file system. It returns nil when the data cannot be used at all; otherwise
// the split and its problems (which may include fatal ones).
func ParseSplit(data []byte) (*Split, []Problem) {
	data = fsutil.TrimBOM(data)
	if err := fsutil.CheckUTF8(data); err != nil {
		return nil, []Problem{{Msg: "not valid JSON text: " + err.Error(), Fatal: true}}
	}
	var top map[string]json.RawMessage
	if err := json.Unmarshal(data, &top); err != nil {
		return nil, []Problem{{Msg: "not a JSON object: " + jsonErr(err, data), Fatal: true}}
	}
	var probs []Problem
	fatal := func(item, field, format string, a ...any) {
		probs = append(probs, Problem{Item: item, Field: field, Msg: fmt.Sprintf(format, a...), Fatal: true})
	}
	warn := func(item, field, format string, a ...any) {
		probs = append(probs, Problem{Item: item, Field: field, Msg: fmt.Sprintf(format, a...)})
	}

	s := &Split{index: make(map[string]int)}
	for _, k := range sortedKeys(top) {
		v := top[k]
		var err error
		switch k {
		case "format":
			err = json.Unmarshal(v, &s.Format)
		case "name":
			err = json.Unmarshal(v, &s.Name)
		case "items", "rubrics":
			// below
		case "frames_from_video":
			if err = json.Unmarshal(v, &s.FramesFromVideo); err == nil {
				if msg := checkFrameCount(s.FramesFromVideo); msg != "" {
					fatal("", k, "%s", msg)
				}
			}
		default:
			warn("", k, "unknown field, ignored")
		}
		if err != nil && k == "frames_from_video" {
			fatal("", k, "want a whole number")
		} else if err != nil {
			fatal("", k, "want a string")
		}
	}
	switch {
	case top["format"] == nil:
		fatal("", "format", "missing; want %q", SplitFormat)
	case s.Format != SplitFormat:
		fatal("", "format", "is %q; want %q", s.Format, SplitFormat)
	}
	if err := checkName(s.Name); err != nil {
		fatal("", "name", "%v", err)
	}

	var raws []json.RawMessage
	if v, ok := top["items"]; !ok {
		fatal("", "items", "missing")
	} else if err := json.Unmarshal(v, &raws); err != nil {
		fatal("", "items", "want a list of item objects")
	}
	if len(raws) == 0 && top["items"] != nil {
		fatal("", "items", "the split has no items")
	}
	firstAt := make(map[string]int) // id → position in the file, for messages
	for i, raw := range raws {
		it, label, itemProbs := parseItem(i, raw)
		probs = append(probs, itemProbs...)
		if it == nil {
			continue
		}
		if j, dup := firstAt[it.ID]; dup {
			fatal(label, "id", "used by items #%d and #%d; ids must be unique", j+1, i+1)
			continue
		}
		if it.ID != "" {
			firstAt[it.ID] = i
			s.index[it.ID] = len(s.Items)
		}
		s.Items = append(s.Items, *it)
	}
	if v, ok := top["rubrics"]; ok {
		probs = append(probs, s.parseRubrics(v)...)
	}
	sortProblems(s, probs)
	return s, probs
}

// parseItem decodes and checks one item. label names it in problems.
func parseItem(i int, raw json.RawMessage) (*Item, string, []Problem) {
	label := fmt.Sprintf("#%d", i+1)
	var probs []Problem
	fatal := func(field, format string, a ...any) {
		probs = append(probs, Problem{Item: label, Field: field, Msg: fmt.Sprintf(format, a...), Fatal: true})
	}
	warn := func(field, format string, a ...any) {
		probs = append(probs, Problem{Item: label, Field: field, Msg: fmt.Sprintf(format, a...)})
	}

	// The id first, so later problems can name the item.
	var idOnly struct {
		ID any `json:"id"`
	}
	if err := json.Unmarshal(raw, &idOnly); err != nil {
		fatal("", "want an item object")
		return nil, label, probs
	}
	if id, ok := idOnly.ID.(string); ok && checkID(id) == nil {
		label = id
	}

	var it Item
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&it); err != nil {
		var te *json.UnmarshalTypeError
		switch {
		case errors.As(err, &te):
			want := "a string"
			switch te.Field {
			case "frames":
				want = "a list of paths"
			case "frames_from_video":
				want = "a whole number"
			}
			fatal(te.Field, "want %s", want)
			return nil, label, probs
		case strings.HasPrefix(err.Error(), "json: unknown field "):
			warn(strings.Trim(strings.TrimPrefix(err.Error(), "json: unknown field "), `"`), "unknown field, ignored")
			it = Item{}
			if err := json.Unmarshal(raw, &it); err != nil {
				fatal("", "%s", jsonErr(err, raw))
				return nil, label, probs
			}
		default:
			fatal("", "%s", jsonErr(err, raw))
			return nil, label, probs
		}
	}

	if err := checkID(it.ID); err != nil {
		fatal("id", "%v", err)
	}
	switch it.Track {
	case TrackResult:
		if it.Output == "" {
			fatal("output", "missing; a result item needs its output image")
		}
		if len(it.Frames) > 0 {
			warn("frames", "ignored on the result track")
		}
		if it.Video != "" {
			warn("video", "ignored on the result track")
		}
	case TrackProcess:
		probs = append(probs, checkVideoFields(label, &it)...)
	case "":
		fatal("track", "missing; want %q or %q", TrackResult, TrackProcess)
	default:
		fatal("track", "is %q; want %q or %q", it.Track, TrackResult, TrackProcess)
	}
	if it.Input == "" {
		fatal("input", "missing; every item needs its input image")
	}
	if it.GTImage == "" && strings.TrimSpace(it.GTText) == "" {
		fatal("gt_image", "neither gt_image nor gt_text is given; an item needs at least one")
	}
	for _, p := range it.Paths() {
		if err := checkRelPath(p.Path); err != nil {
			fatal(p.Field, "%v", err)
		}
	}
	for _, f := range []struct{ name, v string }{
		{"domain", it.Domain}, {"subdomain", it.Subdomain}, {"model", it.Model}, {"instruction", it.Instruction},
	} {
		if strings.TrimSpace(f.v) == "" {
			warn(f.name, "missing")
		}
	}
	return &it, label, probs
}

// checkRelPath refuses paths that could leave the split folder or that would
// not mean the same file on every OS.
func checkRelPath(p string) error {
	switch {
	case strings.ContainsRune(p, '\\'):
		return fmt.Errorf("%q uses backslashes; write paths with forward slashes", p)
	case strings.HasPrefix(p, "/") || filepath.IsAbs(p) || filepath.VolumeName(p) != "" || hasDriveLetter(p):
		return fmt.Errorf("%q is an absolute path; paths must be relative to the split folder", p)
	case !filepath.IsLocal(filepath.FromSlash(p)):
		return fmt.Errorf("%q leaves the split folder", p)
	case hasControl(p):
		return fmt.Errorf("%q contains control characters", p)
	}
	return nil
}

// hasDriveLetter catches "C:/x" written on a non-Windows machine.
func hasDriveLetter(p string) bool {
	return len(p) >= 2 && p[1] == ':' && unicode.IsLetter(rune(p[0]))
}

func hasControl(s string) bool {
	return strings.ContainsFunc(s, unicode.IsControl) || !utf8.ValidString(s)
}

const maxIDLen = 256

func checkID(id string) error {
	switch {
	case id == "":
		return errors.New("missing")
	case len(id) > maxIDLen:
		return fmt.Errorf("longer than %d bytes", maxIDLen)
	case hasControl(id) || strings.TrimSpace(id) != id:
		return fmt.Errorf("%q has control characters or surrounding spaces", id)
	}
	return nil
}

func checkName(name string) error {
	if name == "" {
		return errors.New("missing; ratings are stored under the split's name")
	}
	return checkID(name)
}

// sortProblems orders problems by item position, keeping the order within
// an item, so Check lists them as a person reads the split.
func sortProblems(s *Split, probs []Problem) {
	pos := func(label string) int {
		if label == "" {
			return -1
		}
		if i, ok := s.index[label]; ok {
			return i
		}
		var n int
		if _, err := fmt.Sscanf(label, "#%d", &n); err == nil {
			return n - 1
		}
		return len(s.Items)
	}
	sort.SliceStable(probs, func(a, b int) bool { return pos(probs[a].Item) < pos(probs[b].Item) })
}

func sortedKeys[V any](m map[string]V) []string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	slices.Sort(ks)
	return ks
}

// jsonErr describes a JSON error with the line it happened on.
func jsonErr(err error, data []byte) string {
	var se *json.SyntaxError
	if errors.As(err, &se) {
		return fmt.Sprintf("line %d: %v", lineAt(data, se.Offset), err)
	}
	return err.Error()
}

// lineAt is the 1-based line number of byte offset off in data.
func lineAt(data []byte, off int64) int {
	off = min(max(off, 0), int64(len(data)))
	return bytes.Count(data[:off], []byte{'\n'}) + 1
}

// Item returns the item with the given id.
func (s *Split) Item(id string) (*Item, bool) {
	i, ok := s.index[id]
	if !ok {
		return nil, false
	}
	return &s.Items[i], true
}

// Count returns the number of items on track t.
func (s *Split) Count(t Track) int {
	n := 0
	for i := range s.Items {
		if s.Items[i].Track == t {
			n++
		}
	}
	return n
}

// Order returns the item indices in the order annotator sees them: a
// shuffle seeded by the split name and the annotator (PCG), so it is the
// same on every laptop and session, and differs between raters so order
// effects do not line up.
func (s *Split) Order(annotator string) []int {
	h := fnv.New64a()
	io.WriteString(h, s.Name)
	h.Write([]byte{0})
	io.WriteString(h, annotator)
	r := rand.New(rand.NewPCG(h.Sum64(), 0x76_69_67_6f_72)) // "vigor"
	order := make([]int, len(s.Items))
	for i := range order {
		order[i] = i
	}
	r.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
	return order
}

// WriteSplit writes s as dir/split.json (atomically: a reader never sees a
// half-written file). The image files are the caller's business.
func WriteSplit(dir string, s *Split) error {
	if s.Format == "" {
		s.Format = SplitFormat
	}
	data, err := json.MarshalIndent(s, "", "  ")
	if err != nil {
		return fmt.Errorf("write split %s: %w", s.Name, err)
	}
	return fsutil.WriteFile(filepath.Join(dir, SplitFile), append(data, '\n'))
}
