package dataset

import (
	"bufio"
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/jigbench/jigbench/core/fsutil"
	"github.com/jigbench/jigbench/core/progress"
	"github.com/jigbench/jigbench/core/puzzle"
	"github.com/jigbench/jigbench/core/render"
	"github.com/jigbench/jigbench/core/render/demo"
)

// Result is what a run did.
type Result struct {
	// Manifest is the manifest written: Out/manifest.jsonl, or for a shard
	// Out/shards/I-of-N.jsonl (joined into manifest.jsonl by Merge).
	Manifest    string
	Sources     int // sources with at least one instance in the manifest
	Instances   int // lines in the manifest
	Train, Eval int // instances in each split
	Generated   int // instances written by this run
	Resumed     int // instances found finished from an earlier run
	// Errors lists every source and instance left out, by file then grid.
	Errors []Issue
	// Notes holds the first maxNotes notes (one per source, e.g. "smaller than
	// the size; not enlarged"); NoteCount counts them all.
	Notes     []Issue
	NoteCount int
	Elapsed   time.Duration
}

const maxNotes = 100

// Run generates the dataset c describes into c.Out and returns what it did.
//
// Instances already in c.Out from an earlier run with the same settings are
// kept (each instance folder is written atomically, so a folder that exists
// is complete), so a run that was killed or cancelled finishes, when started
// again, with the same bytes as one that never stopped. Sources that cannot be
// read or decoded, and instances that cannot be made (an image too small for
// a grid), are reported through c.OnIssue and in Result.Errors, and left out;
// everything else completes. Failing to write the output stops the run.
//
// Cancelling ctx stops the run within about one instance per worker; the
// error then wraps context.Canceled (test it with errors.Is) and the
// finished instance folders stay for the next run. The manifest is written
// only by a run that completes.
func Run(ctx context.Context, c Config) (*Result, error) {
	c, err := c.normalized()
	if err != nil {
		return nil, err
	}
	plan, err := Scan(c)
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(c.Out, 0o755); err != nil {
		return nil, fmt.Errorf("create output folder %s: %w", c.Out, fsutil.WithoutPath(err))
	}
	if err := claimFolder(c.Out, c); err != nil {
		return nil, err
	}
	manifestDir, manifestName := c.Out, FileManifest
	if c.Shard.Sharded() {
		manifestDir, manifestName = filepath.Join(c.Out, DirShards), shardBase(c.Shard)+".jsonl"
		if err := os.MkdirAll(manifestDir, 0o755); err != nil {
			return nil, fmt.Errorf("create %s: %w", manifestDir, fsutil.WithoutPath(err))
		}
	}
	if err := removeLeftovers(c, plan, manifestDir); err != nil {
		return nil, err
	}

	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	r := &runner{
		c: c, ctx: ctx, cancel: cancel,
		cpu:     make(chan struct{}, c.Workers),
		window:  make(chan struct{}, 4*c.Workers+8),
		loadCh:  make(chan *job),
		genCh:   make(chan *task, c.Workers),
		results: make(chan *job, 4*c.Workers+8),
		start:   time.Now(),
	}
	r.prog.Total = plan.Instances
	res := &Result{Manifest: filepath.Join(manifestDir, manifestName)}
	for _, is := range plan.Issues {
		r.issue(is)
		res.Errors = append(res.Errors, is)
	}
	r.report()

	tmp, err := fsutil.Create(res.Manifest)
	if err != nil {
		return nil, err
	}
	defer tmp.Close() // a no-op after Commit
	w := bufio.NewWriterSize(tmp, 64<<10)

	go r.dispatch(plan.sources)
	var loaders, generators sync.WaitGroup
	for range c.Workers {
		loaders.Go(func() {
			for j := range r.loadCh {
				r.load(j)
			}
		})
		generators.Go(func() {
			for t := range r.genCh {
				r.generate(t)
			}
		})
	}
	go func() {
		loaders.Wait()
		close(r.genCh)
		generators.Wait()
		close(r.results)
	}()

	// Write the manifest in source order as sources finish, holding at most
	// the window of sources in flight.
	pending := map[int]*job{}
	next := 0
	for j := range r.results {
		pending[j.idx] = j
		for pj := pending[next]; pj != nil; pj = pending[next] {
			delete(pending, next)
			next++
			if ctx.Err() == nil {
				if err := r.collect(pj, w, res); err != nil {
					cancel(err)
				}
			}
			<-r.window
		}
	}
	res.Elapsed = time.Since(r.start)
	res.Generated, res.Resumed = r.prog.Generated, r.prog.Resumed
	if ctx.Err() != nil {
		if cause := context.Cause(ctx); !errors.Is(cause, context.Canceled) {
			return res, cause
		}
		return res, fmt.Errorf("stopped after %d of %d instances; run again with the same settings to resume: %w",
			r.prog.Done, r.prog.Total, context.Canceled)
	}
	slices.SortFunc(res.Errors, func(a, b Issue) int {
		if c := strings.Compare(a.File, b.File); c != 0 {
			return c
		}
		return a.Grid - b.Grid
	})
	if err := w.Flush(); err != nil {
		return res, err
	}
	if err := tmp.Commit(); err != nil {
		return res, err
	}
	if c.Shard.Sharded() {
		sf := shardFile{
			Format: ShardFormat, Shard: c.Shard.Index, Of: c.Shard.Count,
			SourcesListed: plan.Listed, SourcesDigest: plan.digest, Sources: plan.Sources,
			Instances: res.Instances, Skipped: res.Errors,
		}
		if sf.Skipped == nil {
			sf.Skipped = []Issue{}
		}
		if err := fsutil.WriteFile(filepath.Join(manifestDir, shardBase(c.Shard)+".json"), marshalIndent(sf)); err != nil {
			return res, err
		}
	}
	r.report()
	return res, nil
}

// runner is one run's pipeline: a dispatcher hands sources in name order to
// loaders (read, hash, check what is finished, decode, scale for each grid),
// which hand each unfinished instance to generators (generate, encode,
// write). Decoding and generating hold one of Workers CPU tokens, so Workers
// bounds the cores in use. A decoded source (up to 400 MB at the pixel
// limit) lives only while it is scaled, inside its CPU token, so at most
// Workers of them are in memory at once; what waits for a generator is the
// scaled image, a few MB. The window bounds the sources in flight.
type runner struct {
	c      Config
	ctx    context.Context
	cancel context.CancelCauseFunc

	cpu     chan struct{} // CPU tokens
	window  chan struct{} // sources dispatched and not yet collected
	loadCh  chan *job
	genCh   chan *task
	results chan *job // jobs whose every task is settled

	mu    sync.Mutex // serialises Progress and OnIssue calls
	prog  tally
	start time.Time
}

// job is one source on its way through the pipeline.
type job struct {
	idx       int
	ref       sourceRef
	sha       [32]byte
	src       *render.Source // name, digest and size; the pixels are dropped once prepared
	tasks     []*task        // one per grid, in grid order
	remaining atomic.Int32   // tasks handed to generators and not yet settled
	issue     *Issue         // the whole source was left out
}

// task is one instance.
type task struct {
	job   *job
	entry Entry
	state taskState
	issue *Issue
	note  string
	prep  *render.Prepared // the source scaled and cropped for this grid
}

type taskState uint8

const (
	taskPending taskState = iota
	taskDone
	taskResumed
	taskFailed
)

func (r *runner) dispatch(sources []sourceRef) {
	defer close(r.loadCh)
	for i, s := range sources {
		select {
		case r.window <- struct{}{}:
		case <-r.ctx.Done():
			return
		}
		select {
		case r.loadCh <- &job{idx: i, ref: s}:
		case <-r.ctx.Done():
			<-r.window
			return
		}
	}
}

func (r *runner) acquire() { r.cpu <- struct{}{} }
func (r *runner) release() { <-r.cpu }

// load identifies a source, settles its finished instances and hands the
// others to the generators. Every job ends up in r.results exactly once.
func (r *runner) load(j *job) {
	if r.ctx.Err() != nil {
		r.results <- j
		return
	}
	var src *render.Source
	var err error
	if j.ref.demo() {
		r.acquire()
		src, err = demoSource(j.ref.name)
		r.release()
		if err == nil {
			j.sha = src.SHA256
		}
	} else {
		j.sha, err = hashFile(j.ref.path)
	}
	if err != nil {
		r.failSource(j, err)
		r.results <- j
		return
	}
	split := SplitOf(r.c.Seed, j.sha, r.c.EvalFraction)
	var todo []*task
	for _, n := range r.c.Grids {
		seed := InstanceSeed(r.c.Seed, j.sha, n)
		id := puzzle.InstanceID(j.ref.name, n, seed, r.c.Options.TabStyle)
		t := &task{job: j, entry: Entry{
			ID: id, Grid: n, Split: split, Source: j.ref.name, SourceFile: j.ref.file,
			SourceSHA256: hexSHA(j.sha), Seed: seed, Path: id, Files: InstanceFiles,
		}}
		j.tasks = append(j.tasks, t)
		if checkFinished(filepath.Join(r.c.Out, id), &t.entry, r.c.Options) {
			t.state = taskResumed
			r.count(func(p *tally) { p.Resumed++ })
		} else {
			todo = append(todo, t)
		}
	}
	if len(todo) == 0 {
		r.results <- j
		return
	}
	if src == nil {
		r.acquire()
		if r.ctx.Err() == nil {
			src, err = decodeFile(j.ref, j.sha)
		}
		r.release()
		if r.ctx.Err() != nil {
			r.results <- j
			return
		}
		if err != nil {
			r.failSource(j, err)
			r.results <- j
			return
		}
	}
	r.acquire()
	todo = r.prepare(src, todo)
	r.release()
	j.src = src.WithoutPixels()
	if len(todo) == 0 {
		r.results <- j
		return
	}
	j.remaining.Store(int32(len(todo)))
	for _, t := range todo {
		r.genCh <- t
	}
}

// prepare scales src for each task's grid and returns the tasks that can be
// generated; a grid the source cannot make is left out with its reason.
func (r *runner) prepare(src *render.Source, todo []*task) []*task {
	ok := todo[:0]
	for _, t := range todo {
		if r.ctx.Err() != nil {
			return nil
		}
		prep, err := render.Prepare(src, r.c.Options.Size, t.entry.Grid)
		if err != nil {
			r.failTask(t, err)
			continue
		}
		t.prep = prep
		ok = append(ok, t)
	}
	return ok
}

// failTask leaves out one instance.
func (r *runner) failTask(t *task, err error) {
	is := newIssue(t.job.ref.file, t.job.ref.name, t.entry.Grid, err)
	t.state, t.issue = taskFailed, &is
	r.issue(is)
	r.count(func(p *tally) { p.Failed++ })
}

// failSource leaves out every instance of j not already finished.
func (r *runner) failSource(j *job, err error) {
	is := newIssue(j.ref.file, j.ref.name, 0, err)
	j.issue = &is
	n := len(r.c.Grids)
	for _, t := range j.tasks {
		if t.state == taskResumed {
			n--
		}
	}
	r.issue(is)
	r.count(func(p *tally) { p.Failed += n })
}

// generate makes, encodes and writes one instance.
func (r *runner) generate(t *task) {
	j := t.job
	r.acquire()
	if r.ctx.Err() == nil {
		r.produce(t)
	}
	r.release()
	t.prep = nil // let the scaled image go
	if j.remaining.Add(-1) == 0 {
		r.results <- j
	}
}

func (r *runner) produce(t *task) {
	j, e := t.job, &t.entry
	g, err := render.GenerateFrom(j.src, t.prep, e.Grid, e.Seed, r.c.Options)
	if err == nil && g.Instance.ID != e.ID {
		err = fmt.Errorf("internal error: generated ID %s, expected %s", g.Instance.ID, e.ID)
	}
	var files map[string][]byte
	if err == nil {
		files, err = g.Files()
	}
	if err != nil {
		r.failTask(t, err)
		return
	}
	names := make([]string, 0, len(files))
	for name := range files {
		names = append(names, name)
	}
	slices.Sort(names)
	if !slices.Equal(names, InstanceFiles) {
		r.cancel(fmt.Errorf("internal error: an instance has files %v, the manifest lists %v", names, InstanceFiles))
		return
	}
	if _, err := render.WriteInstanceDir(r.c.Out, e.ID, files); err != nil {
		r.cancel(err)
		return
	}
	t.state, t.note = taskDone, g.Note
	r.count(func(p *tally) { p.Generated++ })
}

// collect writes j's manifest lines and records its issues.
func (r *runner) collect(j *job, w io.Writer, res *Result) error {
	if j.issue != nil {
		res.Errors = append(res.Errors, *j.issue)
	}
	lines, noted := 0, false
	for _, t := range j.tasks {
		switch t.state {
		case taskDone, taskResumed:
			if _, err := w.Write(t.entry.marshal()); err != nil {
				return fmt.Errorf("write manifest: %w", fsutil.WithoutPath(err))
			}
			lines++
			if t.entry.Split == SplitEval {
				res.Eval++
			} else {
				res.Train++
			}
		case taskFailed:
			res.Errors = append(res.Errors, *t.issue)
		}
		if t.note != "" && !noted {
			noted = true
			res.NoteCount++
			if len(res.Notes) < maxNotes {
				res.Notes = append(res.Notes, Issue{File: j.ref.file, Message: t.note, Note: true})
			}
		}
	}
	res.Instances += lines
	if lines > 0 {
		res.Sources++
	}
	return nil
}

func (r *runner) count(f func(*tally)) {
	r.mu.Lock()
	defer r.mu.Unlock()
	f(&r.prog)
	r.prog.Done = r.prog.Generated + r.prog.Resumed + r.prog.Failed
	r.reportLocked()
}

func (r *runner) report() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.reportLocked()
}

func (r *runner) reportLocked() {
	p := &r.prog
	p.Elapsed = time.Since(r.start)
	p.Rate, p.ETA = 0, 0
	if p.Generated > 0 && p.Elapsed > 0 {
		p.Rate = float64(p.Generated) / p.Elapsed.Seconds()
		p.ETA = time.Duration(float64(p.Total-p.Done) / p.Rate * float64(time.Second))
	}
	r.c.Progress.Call(progress.Report{Done: int64(p.Done), Total: int64(p.Total), Detail: p.String()})
}

func (r *runner) issue(is Issue) {
	if r.c.OnIssue == nil {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.c.OnIssue(is)
}

// hashFile streams a file through SHA-256.
func hashFile(path string) ([32]byte, error) {
	var sum [32]byte
	f, err := os.Open(path)
	if err != nil {
		return sum, fmt.Errorf("cannot open: %w", fsutil.WithoutPath(err))
	}
	defer f.Close()
	h := sha256.New()
	n, err := io.Copy(h, io.LimitReader(f, render.MaxSourceBytes+1))
	if err != nil {
		return sum, fmt.Errorf("cannot read: %w", fsutil.WithoutPath(err))
	}
	if n > render.MaxSourceBytes {
		return sum, fmt.Errorf("larger than %d MB; jigbench reads images up to that size", render.MaxSourceBytes>>20)
	}
	h.Sum(sum[:0])
	return sum, nil
}

// decodeFile reads and decodes a source whose hash was taken before.
func decodeFile(ref sourceRef, sha [32]byte) (*render.Source, error) {
	data, err := os.ReadFile(ref.path)
	if err != nil {
		return nil, fmt.Errorf("cannot read: %w", fsutil.WithoutPath(err))
	}
	src, err := render.DecodeSource(ref.file, ref.name, data)
	if err != nil {
		return nil, err
	}
	if src.SHA256 != sha {
		return nil, errors.New("the file changed while the dataset was being generated")
	}
	return src, nil
}

func demoSource(name string) (*render.Source, error) {
	img, err := demo.Image(name)
	if err != nil {
		return nil, err
	}
	return render.SourceFromImage(name, img), nil
}

var instanceIDPattern = regexp.MustCompile(`^(.+)-g[0-9]+-s[0-9]+$`)

// removeLeftovers deletes what an interrupted run of this shard left behind:
// temporary instance folders of its own sources and its temporary manifest.
// Other shards' leftovers are theirs (they may be running right now).
func removeLeftovers(c Config, plan *Plan, manifestDir string) error {
	mine := make(map[string]bool, len(plan.sources))
	for _, s := range plan.sources {
		mine[s.name] = true
	}
	entries, err := os.ReadDir(c.Out)
	if err != nil {
		return fmt.Errorf("read %s: %w", c.Out, fsutil.WithoutPath(err))
	}
	for _, e := range entries {
		owner, ok := fsutil.IsTemp(e.Name())
		if !ok {
			continue
		}
		m := instanceIDPattern.FindStringSubmatch(owner)
		if (m != nil && mine[m[1]]) || (owner == FileManifest && !c.Shard.Sharded()) ||
			(owner == FileDataset && !c.Shard.Sharded()) {
			if err := os.RemoveAll(filepath.Join(c.Out, e.Name())); err != nil {
				return fmt.Errorf("remove leftover %s: %w", e.Name(), fsutil.WithoutPath(err))
			}
		}
	}
	if c.Shard.Sharded() {
		entries, err := os.ReadDir(manifestDir)
		if err != nil {
			return fmt.Errorf("read %s: %w", manifestDir, fsutil.WithoutPath(err))
		}
		base := shardBase(c.Shard)
		for _, e := range entries {
			if owner, ok := fsutil.IsTemp(e.Name()); ok && strings.HasPrefix(owner, base+".") {
				os.Remove(filepath.Join(manifestDir, e.Name()))
			}
		}
	}
	return nil
}
