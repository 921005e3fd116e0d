package app

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/jigbench/jigbench/core/vigor"
)

// TestRateRealWindow rates a split in the real binary under Xvfb with the
// keyboard only (xdotool), including the key sequences that used to store
// wrong values, quits with Ctrl+Q, starts again, checks the app resumes at
// the first unrated item, and compares every stored value with what was
// typed. Then the same at a 1024×600 screen in compact mode, checking that
// the window and its status line are on screen. `make smoke` runs it.
func TestRateRealWindow(t *testing.T) {
	if os.Getenv("JIGBENCH_SMOKE") == "" {
		t.Skip("set JIGBENCH_SMOKE=1 (make smoke) to rate in a real window under Xvfb")
	}
	for _, tool := range []string{"Xvfb", "xwd", "xdotool"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s not installed (.ci/deps test installs it)", tool)
		}
	}
	bin := buildBinary(t)
	t.Run("1440x900", func(t *testing.T) { rateRealWindow(t, bin, "1440x900", false) })
	t.Run("1024x600-compact", func(t *testing.T) { rateRealWindow(t, bin, "1024x600", true) })
}

// keyStep is what the test types on one item and what must be stored.
type keyStep struct {
	keys    []string // xdotool key names, typed one by one
	want    vigor.Scores
	comment string
	flagged bool
}

func ks(s string) []string { return strings.Fields(s) }

// resultSteps and processSteps are the keyboard scripts, used in turn.
var resultSteps = []keyStep{
	{keys: ks("1 2 3 4 Return"), want: vigor.Scores{1, 1, 1, 1}},
	// A double Enter: the second must not save the next item.
	{keys: ks("2 0 Return Return"), want: vigor.Scores{0, 1, 0, 0}},
	// Switching panes by mouse (the pane list takes the focus) and back.
	{keys: ks("1 click:Generate click:Rate 0 Return"), want: vigor.Scores{1, 0, 0, 0}},
	// Switching panes and back mid-item.
	{keys: ks("3 ctrl+2 ctrl+4 0 Return"), want: vigor.Scores{0, 0, 1, 0}},
	// A dialog (comment) and back.
	{keys: ks("c o d d Return 1 0 Return"), want: vigor.Scores{1, 0, 0, 0}, comment: "odd"},
	// Enter with nothing chosen saves nothing; ↓ Y chooses and sets.
	{keys: ks("Return Down y 0 Return"), want: vigor.Scores{0, 1, 0, 0}},
	{keys: ks("f 4 0 Return"), want: vigor.Scores{0, 0, 0, 1}, flagged: true},
}

// navRows is where the pane list's rows are, from the window's top left
// (below the menu bar), in Fyne units at scale 1.
var navRows = map[string][2]int{"Generate": {60, 49}, "Rate": {60, 166}}

var processSteps = []keyStep{
	// The old "1 80 2 70": digits only type, so it is 180…, refused; Tab
	// cannot leave a refused field; Esc drops it.
	{keys: ks("1 8 0 2 7 0 Tab Escape 8 0 Tab 7 0 Tab 5 Tab 1 0 0 Return"), want: vigor.Scores{80, 70, 5, 100}},
	// Too many digits: the fourth is refused, the field keeps 100.
	{keys: ks("1 0 0 0 Tab BackSpace 0 Tab 9 Tab 0 Tab 3 3 Return"), want: vigor.Scores{100, 9, 0, 33}},
	// Over 100, and a pane switch mid-item.
	{keys: ks("1 5 0 BackSpace BackSpace 4 5 Tab ctrl+1 ctrl+4 6 0 Tab 7 Tab 8 Return"), want: vigor.Scores{45, 60, 7, 8}},
	// Shift+Tab goes back; typing replaces the score shown.
	{keys: ks("1 Tab 2 Tab 3 Tab 4 shift+Tab shift+Tab 9 9 Return"), want: vigor.Scores{1, 99, 3, 4}},
	{keys: ks("1 Tab 2 Tab 3 Tab 4 Return"), want: vigor.Scores{1, 2, 3, 4}},
}

// writeWindowSplit writes a split of nResult result and nProcess process
// items with small pictures.
func writeWindowSplit(t *testing.T, dir string, nResult, nProcess int) *vigor.Split {
	t.Helper()
	if err := os.MkdirAll(filepath.Join(dir, "img"), 0o755); err != nil {
		t.Fatal(err)
	}
	n := 0
	pic := func(name string) string {
		n++
		m := image.NewRGBA(image.Rect(0, 0, 96, 64))
		for y := range 64 {
			for x := range 96 {
				m.Set(x, y, color.RGBA{uint8(n * 37), uint8(x * 2), uint8(y * 3), 255})
			}
		}
		var b bytes.Buffer
		if err := png.Encode(&b, m); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "img", name), b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		return "img/" + name
	}
	sp := &vigor.Split{Name: "window-split"}
	for i := range nResult {
		id := fmt.Sprintf("r-%02d", i+1)
		sp.Items = append(sp.Items, vigor.Item{ID: id, Track: vigor.TrackResult, Domain: "Symbolic", Subdomain: "Sorting",
			Model: "m", Instruction: "Sort the balls (" + id + ").", Input: pic(id + "-in.png"), Output: pic(id + "-out.png"),
			GTImage: pic(id + "-gt.png"), GTText: "Red left, blue right."})
	}
	for i := range nProcess {
		id := fmt.Sprintf("p-%02d", i+1)
		it := vigor.Item{ID: id, Track: vigor.TrackProcess, Domain: "Physical", Subdomain: "Maze Navigation",
			Model: "m", Instruction: "Walk the maze (" + id + ").", Input: pic(id + "-in.png"), GTText: "Reaches the exit."}
		for k := range 2 {
			it.Frames = append(it.Frames, pic(fmt.Sprintf("%s-f%d.png", id, k)))
		}
		sp.Items = append(sp.Items, it)
	}
	if err := vigor.WriteSplit(dir, sp); err != nil {
		t.Fatal(err)
	}
	loaded, err := vigor.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	return loaded
}

// realWindow is the binary running on an Xvfb screen.
type realWindow struct {
	t       *testing.T
	display string
	env     []string
	bin     string
	cmd     *exec.Cmd
	exited  chan error
	log     bytes.Buffer
	id      string
}

func (w *realWindow) start() {
	w.t.Helper()
	w.log.Reset()
	w.cmd = exec.Command(w.bin)
	w.cmd.Env = w.env
	w.cmd.Stdout, w.cmd.Stderr = &w.log, &w.log
	if err := w.cmd.Start(); err != nil {
		w.t.Fatal(err)
	}
	w.exited = make(chan error, 1)
	cmd := w.cmd
	go func() { w.exited <- cmd.Wait() }()
	w.id = ""
	waitFor(w.t, 60*time.Second, "the jigbench window", func() bool {
		w.alive()
		out, err := w.xdo("search", "--onlyvisible", "--name", "^jigbench")
		if err != nil {
			return false
		}
		w.id = strings.Fields(out)[0]
		return true
	})
}

// alive fails the test when the app has exited.
func (w *realWindow) alive() {
	select {
	case err := <-w.exited:
		w.exited <- err
		w.t.Fatalf("jigbench exited (%v):\n%s", err, w.log.String())
	default:
	}
}

func (w *realWindow) xdo(args ...string) (string, error) {
	c := exec.Command("xdotool", args...)
	c.Env = w.env
	out, err := c.Output()
	return string(out), err
}

// title is the window's title ("jigbench — split" once a split is open).
func (w *realWindow) title() string {
	out, _ := w.xdo("getwindowname", w.id)
	return strings.TrimSpace(out)
}

// press types keys one at a time into the window, as a rater would.
func (w *realWindow) press(keys ...string) {
	w.t.Helper()
	w.alive()
	if _, err := w.xdo("windowfocus", "--sync", w.id); err != nil {
		w.t.Fatalf("xdotool windowfocus: %v", err)
	}
	for _, k := range keys {
		if pane, ok := strings.CutPrefix(k, "click:"); ok {
			at := navRows[pane]
			if _, err := w.xdo("mousemove", "--window", w.id, strconv.Itoa(at[0]), strconv.Itoa(at[1]), "click", "1"); err != nil {
				w.t.Fatalf("xdotool click on %s: %v", pane, err)
			}
			time.Sleep(400 * time.Millisecond)
			continue
		}
		if _, err := w.xdo("key", "--clearmodifiers", k); err != nil {
			w.t.Fatalf("xdotool key %s: %v", k, err)
		}
		time.Sleep(120 * time.Millisecond) // a fast rater; the app has drawn by then
	}
}

// quit presses Ctrl+Q and waits for the app to end.
func (w *realWindow) quit() {
	w.t.Helper()
	w.press("ctrl+q")
	select {
	case err := <-w.exited:
		if err != nil {
			w.t.Fatalf("jigbench ended with %v after Ctrl+Q:\n%s", err, w.log.String())
		}
	case <-time.After(20 * time.Second):
		w.t.Fatalf("Ctrl+Q did not quit:\n%s", w.log.String())
	}
}

func (w *realWindow) kill() {
	if w.cmd != nil && w.cmd.ProcessState == nil {
		w.cmd.Process.Kill()
		<-w.exited
	}
}

// stored reads the rater's ratings from the app's database.
func stored(t *testing.T, db string, sp *vigor.Split) map[string]vigor.Rating {
	t.Helper()
	if _, err := os.Stat(db); err != nil {
		return nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	s, err := vigor.OpenStoreReadOnly(ctx, db)
	if err != nil {
		return nil // being created
	}
	defer s.Close()
	got, err := s.Ratings(ctx, sp, "tester")
	if err != nil {
		return nil
	}
	return got
}

func rateRealWindow(t *testing.T, bin, screen string, compact bool) {
	home := t.TempDir()
	config := filepath.Join(home, "config")
	splitDir := filepath.Join(home, "split")
	sp := writeWindowSplit(t, splitDir, 9, 5)
	// A fresh config folder that knows only which split to open on Rate.
	prefs, _ := json.Marshal(map[string]any{"rate.last_split": splitDir, "window.pane": 3})
	prefsDir := filepath.Join(config, "fyne", "io.github.jigbench.jigbench")
	if err := os.MkdirAll(prefsDir, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(prefsDir, "preferences.json"), prefs, 0o600); err != nil {
		t.Fatal(err)
	}
	db := filepath.Join(config, "jigbench", "ratings.db")

	display := startXvfb(t, screen)
	env := append(os.Environ(), "DISPLAY="+display, "LANG=en_US.UTF-8", "HOME="+home,
		"XDG_CONFIG_HOME="+config, "XDG_CACHE_HOME="+filepath.Join(home, "cache"), "XDG_DATA_HOME="+filepath.Join(home, "data"))
	w := &realWindow{t: t, display: display, env: env, bin: bin}
	defer w.kill()

	w.start()
	time.Sleep(2 * time.Second) // the name prompt is drawn
	w.press(ks("t e s t e r Return")...)
	waitFor(t, 30*time.Second, "the split to open", func() bool { w.alive(); return strings.Contains(w.title(), sp.Name) })
	if compact {
		w.press("r")
	}

	order := sp.Order("tester")
	items := 12
	if compact {
		items = 3
	}
	want := map[string]keyStep{}
	nr, np := 0, 0
	for k := range items {
		it := sp.Items[order[k]]
		var step keyStep
		if it.Track == vigor.TrackResult {
			step = resultSteps[nr%len(resultSteps)]
			nr++
		} else {
			step = processSteps[np%len(processSteps)]
			np++
		}
		w.press(step.keys...)
		want[it.ID] = step
		waitFor(t, 20*time.Second, "the rating of "+it.ID+" to be stored", func() bool {
			w.alive()
			r, ok := stored(t, db, sp)[it.ID]
			return ok && r.Scores == step.want
		})
		if step.keys[len(step.keys)-1] == "Return" && step.keys[len(step.keys)-2] == "Return" {
			time.Sleep(time.Second)
			if _, ok := stored(t, db, sp)[sp.Items[order[k+1]].ID]; ok {
				t.Fatalf("the second Enter on %s stored the next item %s", it.ID, sp.Items[order[k+1]].ID)
			}
		}
	}
	if compact {
		checkOnScreen(t, w, screen)
	}
	w.quit()

	// Again: the app opens on Rate, on the split, at the first unrated item.
	w.start()
	waitFor(t, 30*time.Second, "the split to open again", func() bool { w.alive(); return strings.Contains(w.title(), sp.Name) })
	next := sp.Items[order[items]]
	step := keyStep{keys: ks("1 0 Return"), want: vigor.Scores{1, 0, 0, 0}}
	if next.Track == vigor.TrackProcess {
		step = keyStep{keys: ks("1 1 Tab 2 2 Tab 3 3 Tab 4 4 Return"), want: vigor.Scores{11, 22, 33, 44}}
	}
	w.press(step.keys...)
	want[next.ID] = step
	waitFor(t, 20*time.Second, "the first unrated item "+next.ID+" to be rated after the restart", func() bool {
		w.alive()
		r, ok := stored(t, db, sp)[next.ID]
		return ok && r.Scores == step.want
	})
	w.quit()

	got := stored(t, db, sp)
	if len(got) != len(want) {
		t.Errorf("the database holds %d ratings, want %d", len(got), len(want))
	}
	for id, step := range want {
		r := got[id]
		if r.Scores != step.want || r.Comment != step.comment || r.Flagged != step.flagged {
			t.Errorf("%s: stored %v comment %q flagged %v; typed %v comment %q flagged %v",
				id, r.Scores, r.Comment, r.Flagged, step.want, step.comment, step.flagged)
		}
	}
	t.Logf("%s: %d items rated by keyboard, every stored value as typed", screen, len(want))
}

// checkOnScreen checks the window lies inside the screen and its bottom
// rows (the status line) are drawn, from a screenshot; it keeps the
// screenshot as PNG when JIGBENCH_SHOTS names a folder.
func checkOnScreen(t *testing.T, w *realWindow, screen string) {
	t.Helper()
	sw, sh := 0, 0
	fmt.Sscanf(screen, "%dx%d", &sw, &sh)
	out, err := w.xdo("getwindowgeometry", "--shell", w.id)
	if err != nil {
		t.Fatal(err)
	}
	geo := map[string]int{}
	for _, line := range strings.Fields(out) {
		if k, v, ok := strings.Cut(line, "="); ok {
			geo[k], _ = strconv.Atoi(v)
		}
	}
	x, y, ww, wh := geo["X"], geo["Y"], geo["WIDTH"], geo["HEIGHT"]
	if x < 0 || y < 0 || x+ww > sw || y+wh > sh || ww == 0 {
		t.Fatalf("window at %d,%d size %d×%d is not inside the %d×%d screen", x, y, ww, wh, sw, sh)
	}
	c := exec.Command("xwd", "-root", "-silent", "-display", w.display)
	shot, err := c.Output()
	if err != nil {
		t.Fatal(err)
	}
	img, err := xwdImage(shot)
	if err != nil {
		t.Fatal(err)
	}
	if dir := os.Getenv("JIGBENCH_SHOTS"); dir != "" {
		var b bytes.Buffer
		png.Encode(&b, img)
		os.WriteFile(filepath.Join(dir, "rate-real-"+screen+".png"), b.Bytes(), 0o644)
	}
	// The status line: the bottom 24 rows of the window carry text.
	seen := map[color.RGBA]bool{}
	for py := y + wh - 24; py < y+wh; py++ {
		for px := x; px < x+ww; px++ {
			seen[img.RGBAAt(px, py)] = true
		}
	}
	if len(seen) < 3 {
		t.Fatalf("the window's bottom rows have %d colours: no status line on screen", len(seen))
	}
	t.Logf("window %d×%d at %d,%d inside %s; status line drawn (%d colours)", ww, wh, x, y, screen, len(seen))
}

// xwdImage decodes an XWD dump of 24 or 32 bits per pixel.
func xwdImage(xwd []byte) (*image.RGBA, error) {
	if len(xwd) < 100 {
		return nil, errors.New("xwd output too short")
	}
	field := func(i int) int { return int(binary.BigEndian.Uint32(xwd[4*i:])) }
	headerSize, width, height := field(0), field(4), field(5)
	bpp, perLine, ncolors := field(11), field(12), field(19)
	if bpp != 24 && bpp != 32 {
		return nil, fmt.Errorf("xwd: %d bits per pixel, want 24 or 32", bpp)
	}
	start := headerSize + 12*ncolors
	if start+height*perLine > len(xwd) {
		return nil, errors.New("xwd: image runs past the data")
	}
	img := image.NewRGBA(image.Rect(0, 0, width, height))
	step := bpp / 8
	for y := range height {
		row := xwd[start+y*perLine:]
		for x := range width {
			p := row[x*step:]
			img.SetRGBA(x, y, color.RGBA{p[2], p[1], p[0], 255}) // BGRX, little-endian server
		}
	}
	return img, nil
}
