package models

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/parquet-go/parquet-go"

	"github.com/jigbench/jigbench/core/fsutil"
	"github.com/jigbench/jigbench/core/progress"
	"github.com/jigbench/jigbench/core/puzzle"
)

// hfImage is the Hugging Face Image feature: the PNG bytes and a path.
type hfImage struct {
	Bytes []byte `parquet:"bytes,uncompressed,plain"`
	Path  string `parquet:"path"`
}

// hfRow is one row of the export: one instance × condition (docs/models.md).
type hfRow struct {
	ID        string  `parquet:"id,snappy"`
	Grid      int32   `parquet:"grid"`
	Condition string  `parquet:"condition,snappy"`
	Image     hfImage `parquet:"image"`
	Prompt    string  `parquet:"prompt,snappy"`
	Answer    string  `parquet:"answer,snappy"`
	Source    string  `parquet:"source,snappy"`
	Seed      int64   `parquet:"seed"`
	Split     string  `parquet:"split,snappy"`
}

// hfFeatures are the columns as `datasets` features, in column order.
var hfFeatures = []struct{ name, dtype string }{
	{"id", "string"}, {"grid", "int32"}, {"condition", "string"}, {"image", "image"},
	{"prompt", "string"}, {"answer", "string"}, {"source", "string"}, {"seed", "int64"}, {"split", "string"},
}

// hfMetadata is the parquet key-value "huggingface" entry that makes
// `datasets` restore the Image type.
func hfMetadata() string {
	var b strings.Builder
	b.WriteString(`{"info":{"features":{`)
	for i, f := range hfFeatures {
		if i > 0 {
			b.WriteByte(',')
		}
		if f.dtype == "image" {
			fmt.Fprintf(&b, `%q:{"_type":"Image"}`, f.name)
		} else {
			fmt.Fprintf(&b, `%q:{"dtype":%q,"_type":"Value"}`, f.name, f.dtype)
		}
	}
	b.WriteString(`}}}`)
	return b.String()
}

// HFOptions tune the Hugging Face export; the zero value is ready to use.
type HFOptions struct {
	RowGroupBytes int64 // a row group closes past this many bytes; default 100 MB
	FileBytes     int64 // a file closes past this many bytes; default 1 GB
	// Progress, if set, is called after each row, counting rows.
	Progress progress.Func
}

// HFSplit describes one exported split.
type HFSplit struct {
	Name  string   `json:"name"`
	Rows  int      `json:"num_examples"`
	Bytes int64    `json:"num_bytes"`
	Files []string `json:"files"` // relative to the export folder
}

// ExportHF writes the dataset under truth (a folder with manifest.jsonl) to
// out as a Hugging Face dataset: out/data/<split>-NNNNN-of-MMMMM.parquet, one
// row per instance × condition, and out/README.md, the dataset card. Rows
// stream: at most one row group is held in memory. Files from an earlier
// export of the same split are replaced.
func ExportHF(ctx context.Context, truth, out string, opt HFOptions) ([]HFSplit, error) {
	if opt.RowGroupBytes <= 0 {
		opt.RowGroupBytes = 100 << 20
	}
	if opt.FileBytes <= 0 {
		opt.FileBytes = 1 << 30
	}
	items, err := ListInstances(truth, SplitAll)
	if err != nil {
		return nil, err
	}
	if items[0].Split == "" {
		return nil, fmt.Errorf("%s has no manifest.jsonl; export a dataset made by 'jigbench dataset'", truth)
	}
	dataDir := filepath.Join(out, "data")
	if err := os.MkdirAll(dataDir, 0o755); err != nil {
		return nil, fmt.Errorf("cannot create %s: %v", dataDir, fsutil.WithoutPath(err))
	}
	conds := []string{puzzle.ConditionShape, puzzle.ConditionRect}
	total, done := len(items)*len(conds), 0
	var splits []HFSplit
	for _, name := range []string{SplitTrain, SplitEval} {
		var in []Item
		for _, it := range items {
			if it.Split == name {
				in = append(in, it)
			}
		}
		if len(in) == 0 {
			continue
		}
		sp, err := writeSplit(ctx, dataDir, name, in, conds, opt, func() {
			done++
			opt.Progress.Call(progress.Report{Done: int64(done), Total: int64(total)})
		})
		if err != nil {
			return nil, err
		}
		splits = append(splits, sp)
	}
	card := datasetCard(splits)
	if err := fsutil.WriteFile(filepath.Join(out, "README.md"), []byte(card)); err != nil {
		return nil, err
	}
	return splits, nil
}

// writeSplit writes one split's files under temporary names and, once all
// are complete, gives them their final names (which need the file count).
func writeSplit(ctx context.Context, dataDir, split string, items []Item, conds []string, opt HFOptions, rowDone func()) (HFSplit, error) {
	sp := HFSplit{Name: split}
	var files []*fsutil.File
	var sizes []*countingWriter // each file's bytes
	abort := func() {
		for _, f := range files {
			f.Close()
		}
	}
	var w *parquet.GenericWriter[hfRow]
	var cw *countingWriter
	var groupBytes int64
	closeFile := func() error {
		if w == nil {
			return nil
		}
		err := w.Close()
		w = nil
		return err
	}
	row := make([]hfRow, 1)
	pages := new(pageBufferPool)
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	// The writer copies each image into its page buffer, so the reader can
	// reuse the image's buffer: without this, every export allocated and
	// zeroed as many bytes as it wrote.
	free := make(chan []byte, readAhead+2)
	for next := range readRows(ctx, items, conds, split, free) {
		if next.err != nil {
			abort()
			return sp, next.err
		}
		if w == nil {
			f, err := fsutil.Create(filepath.Join(dataDir, fmt.Sprintf("%s-%05d.parquet", split, len(files))))
			if err != nil {
				abort()
				return sp, err
			}
			files = append(files, f)
			cw = &countingWriter{f: f}
			sizes = append(sizes, cw)
			w = parquet.NewGenericWriter[hfRow](cw,
				parquet.KeyValueMetadata("huggingface", hfMetadata()),
				// Without these, parquet-go keeps whole images as page
				// bounds and index entries: files 5 × the PNG bytes.
				parquet.SkipPageBounds("image", "bytes"),
				parquet.DataPageStatistics(false),
				parquet.ColumnIndexSizeLimit(func([]string) int { return 16 }),
				// Pages of about 1 MB (two sheets) keep the column and
				// encoding buffers at a size parquet-go reuses; 16 MB
				// pages had them grown and copied for every page.
				parquet.PageBufferSize(1<<20),
				parquet.ColumnPageBuffers(pages),
				parquet.CreatedBy("jigbench", "", ""))
			groupBytes = 0
		}
		row[0] = next.row
		if _, err := w.Write(row); err != nil {
			abort()
			return sp, fmt.Errorf("write %s parquet: %v", split, err)
		}
		select {
		case free <- next.row.Image.Bytes:
		default:
		}
		sp.Rows++
		r := &next.row
		size := int64(len(r.Image.Bytes) + len(r.Prompt) + len(r.Answer) + len(r.ID) + 64)
		groupBytes += size
		if groupBytes >= opt.RowGroupBytes {
			if err := w.Flush(); err != nil {
				abort()
				return sp, fmt.Errorf("write %s parquet: %v", split, err)
			}
			groupBytes = 0
			if cw.n >= opt.FileBytes {
				if err := closeFile(); err != nil {
					abort()
					return sp, fmt.Errorf("write %s parquet: %v", split, err)
				}
			}
		}
		rowDone()
	}
	if err := ctx.Err(); err != nil {
		abort()
		return sp, err
	}
	if err := closeFile(); err != nil {
		abort()
		return sp, fmt.Errorf("write %s parquet: %v", split, err)
	}
	// Earlier exports' files of this split would match the card's glob.
	old, _ := filepath.Glob(filepath.Join(dataDir, split+"-*-of-*.parquet"))
	for i, f := range files {
		name := fmt.Sprintf("%s-%05d-of-%05d.parquet", split, i, len(files))
		sp.Bytes += sizes[i].n
		// fsutil.Create named the temporary file after its own target; move
		// the finished file to its final name.
		if err := f.Commit(); err != nil {
			abort()
			return sp, err
		}
		tmpTarget := filepath.Join(dataDir, fmt.Sprintf("%s-%05d.parquet", split, i))
		if err := os.Rename(tmpTarget, filepath.Join(dataDir, name)); err != nil {
			return sp, fmt.Errorf("cannot name %s: %v", name, fsutil.WithoutPath(err))
		}
		sp.Files = append(sp.Files, "data/"+name)
	}
	for _, o := range old {
		if !containsPath(sp.Files, "data/"+filepath.Base(o)) {
			os.Remove(o)
		}
	}
	return sp, nil
}

type rowOrErr struct {
	row hfRow
	err error
}

// readAhead is how many rows readRows reads ahead of the writer.
const readAhead = 4

// readRows reads the rows' files on a goroutine of its own, a few rows
// ahead, so reading and parsing overlap with encoding and writing. It reads
// images into buffers taken from free when there are any.
func readRows(ctx context.Context, items []Item, conds []string, split string, free <-chan []byte) <-chan rowOrErr {
	ch := make(chan rowOrErr, readAhead)
	go func() {
		defer close(ch)
		send := func(r rowOrErr) bool {
			select {
			case ch <- r:
				return r.err == nil
			case <-ctx.Done():
				return false
			}
		}
		answers := readAnswers(ctx, items)
		for i := range items {
			it := &items[i]
			a, ok := <-answers
			if !ok {
				return // cancelled
			}
			if a.err != nil {
				send(rowOrErr{err: a.err})
				return
			}
			answer := a.answer
			for _, cond := range conds {
				var buf []byte
				select {
				case buf = <-free:
				default:
				}
				png, err := readFileInto(it.SheetPath(cond), buf)
				if err != nil {
					send(rowOrErr{err: fmt.Errorf("instance %s: cannot read its %s sheet: %v", it.ID, cond, fsutil.WithoutPath(err))})
					return
				}
				prompt, err := os.ReadFile(it.PromptPath(cond))
				if err != nil {
					send(rowOrErr{err: fmt.Errorf("instance %s: cannot read its %s prompt: %v", it.ID, cond, fsutil.WithoutPath(err))})
					return
				}
				if !send(rowOrErr{row: hfRow{
					ID: it.ID, Grid: int32(it.Grid), Condition: cond,
					Image:  hfImage{Bytes: png, Path: it.ID + "/" + cond + ".png"},
					Prompt: string(prompt), Answer: answer, Source: it.Source, Seed: int64(it.Seed), Split: split,
				}}) {
					return
				}
			}
		}
	}()
	return ch
}

type answerOrErr struct {
	answer string
	err    error
}

// readAnswers decodes the items' answers in order on a goroutine of its
// own: parsing instance.json costs about as much CPU as reading the two
// sheets, so doing it beside the reads keeps the writer fed.
func readAnswers(ctx context.Context, items []Item) <-chan answerOrErr {
	ch := make(chan answerOrErr, 2*readAhead)
	go func() {
		defer close(ch)
		for i := range items {
			answer, err := items[i].AnswerJSON()
			select {
			case ch <- answerOrErr{answer, err}:
			case <-ctx.Done():
				return
			}
			if err != nil {
				return
			}
		}
	}()
	return ch
}

// readFileInto reads the file at path into buf, which it grows as needed.
func readFileInto(path string, buf []byte) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	b := bytes.NewBuffer(buf[:0])
	if fi, err := f.Stat(); err == nil && fi.Size() < 1<<30 {
		b.Grow(int(fi.Size()) + bytes.MinRead)
	}
	_, err = b.ReadFrom(f)
	return b.Bytes(), err
}

// pageChunk is the size of a pageBuffer's chunks: large enough that the
// pages go to the file in few writes, small enough that a small column's
// buffer wastes little.
const pageChunk = 1 << 20

// pageBufferPool holds each column's encoded pages until its row group is
// written. parquet-go's default pool keeps them in 32 KB chunks from a
// sync.Pool that garbage collections empty, so every row group allocated
// its 100 MB again and wrote it in 32 KB pieces; this pool keeps its chunks
// for the whole export and writes each in one call.
type pageBufferPool struct {
	mu     sync.Mutex
	chunks [][]byte // free chunks
}

func (p *pageBufferPool) GetBuffer() io.ReadWriteSeeker { return &pageBuffer{pool: p} }

func (p *pageBufferPool) PutBuffer(rw io.ReadWriteSeeker) {
	b, ok := rw.(*pageBuffer)
	if !ok {
		return
	}
	p.mu.Lock()
	p.chunks = append(p.chunks, b.chunks...)
	p.mu.Unlock()
	b.chunks, b.size, b.off = nil, 0, 0
}

func (p *pageBufferPool) chunk() []byte {
	p.mu.Lock()
	defer p.mu.Unlock()
	if n := len(p.chunks); n > 0 {
		c := p.chunks[n-1]
		p.chunks = p.chunks[:n-1]
		return c
	}
	return make([]byte, pageChunk)
}

// pageBuffer is an in-memory io.ReadWriteSeeker in pageChunk chunks.
type pageBuffer struct {
	pool   *pageBufferPool
	chunks [][]byte
	size   int // bytes written
	off    int // the read or write position
}

func (b *pageBuffer) Write(p []byte) (int, error) {
	n := len(p)
	for len(p) > 0 {
		i, at := b.off/pageChunk, b.off%pageChunk
		if i == len(b.chunks) {
			b.chunks = append(b.chunks, b.pool.chunk())
		}
		k := copy(b.chunks[i][at:], p)
		p = p[k:]
		b.off += k
	}
	b.size = max(b.size, b.off)
	return n, nil
}

func (b *pageBuffer) Read(p []byte) (int, error) {
	if b.off >= b.size {
		return 0, io.EOF
	}
	i, at := b.off/pageChunk, b.off%pageChunk
	n := copy(p, b.chunks[i][at:min(pageChunk, at+b.size-b.off)])
	b.off += n
	return n, nil
}

// WriteTo writes the rest of the buffer a chunk a call; bufio passes
// writes this large straight to the file.
func (b *pageBuffer) WriteTo(w io.Writer) (int64, error) {
	var written int64
	for b.off < b.size {
		i, at := b.off/pageChunk, b.off%pageChunk
		n, err := w.Write(b.chunks[i][at:min(pageChunk, at+b.size-b.off)])
		b.off += n
		written += int64(n)
		if err != nil {
			return written, err
		}
	}
	return written, nil
}

func (b *pageBuffer) Seek(offset int64, whence int) (int64, error) {
	switch whence {
	case io.SeekCurrent:
		offset += int64(b.off)
	case io.SeekEnd:
		offset += int64(b.size)
	}
	if offset < 0 {
		return 0, fmt.Errorf("seek to %d, before the start", offset)
	}
	b.off = int(min(offset, int64(b.size)))
	return int64(b.off), nil
}

func containsPath(list []string, p string) bool {
	for _, x := range list {
		if x == p {
			return true
		}
	}
	return false
}

type countingWriter struct {
	f *fsutil.File
	n int64
}

func (c *countingWriter) Write(p []byte) (int, error) {
	n, err := c.f.Write(p)
	c.n += int64(n)
	return n, err
}

// datasetCard is README.md: YAML front matter `datasets` reads (configs,
// features, splits, an empty licence for the user to fill) and a short text.
func datasetCard(splits []HFSplit) string {
	var b strings.Builder
	b.WriteString("---\nlicense: \"\"\npretty_name: JigShape\ntask_categories:\n- image-text-to-text\nconfigs:\n- config_name: default\n  data_files:\n")
	for _, s := range splits {
		fmt.Fprintf(&b, "  - split: %s\n    path: data/%s-*.parquet\n", s.Name, s.Name)
	}
	b.WriteString("dataset_info:\n  features:\n")
	for _, f := range hfFeatures {
		fmt.Fprintf(&b, "  - name: %s\n    dtype: %s\n", f.name, f.dtype)
	}
	b.WriteString("  splits:\n")
	var size int64
	for _, s := range splits {
		fmt.Fprintf(&b, "  - name: %s\n    num_bytes: %d\n    num_examples: %d\n", s.Name, s.Bytes, s.Rows)
		size += s.Bytes
	}
	fmt.Fprintf(&b, "  download_size: %d\n  dataset_size: %d\n---\n\n", size, size)
	b.WriteString("# JigShape\n\nJigsaw puzzles for vision-language models, exported by jigbench. Each row is one " +
		"instance in one condition: `shape` (tab-and-blank pieces) or `rect` (straight cuts). `image` is the sheet of " +
		"numbered pieces, `prompt` the task, `answer` the solution as JSON mapping each piece ID to its `[row, col]`.\n\n")
	b.WriteString("| split | rows | files |\n|---|--:|--:|\n")
	for _, s := range splits {
		fmt.Fprintf(&b, "| %s | %d | %d |\n", s.Name, s.Rows, len(s.Files))
	}
	b.WriteString("\nFill in `license` above with the licence of the source images before sharing.\n")
	return b.String()
}
