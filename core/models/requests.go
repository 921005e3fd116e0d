package models

import (
	"bufio"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/jigbench/jigbench/core/batch"
	"github.com/jigbench/jigbench/core/fsutil"
	"github.com/jigbench/jigbench/core/progress"
	"github.com/jigbench/jigbench/core/render"
)

// RequestOptions shape the chat-completions requests.
type RequestOptions struct {
	Conditions  []string // shape, rect or both, in that order
	Model       string
	MaxTokens   int
	Temperature float64
	// ImageBase, if set, sends images as URLs <ImageBase>/<id>/<condition>.png
	// instead of inline PNG data URIs.
	ImageBase string
}

// DefaultMaxTokens is the completion budget of a request.
const DefaultMaxTokens = 4096

// WriteRequests writes one batch request line per instance × condition to w,
// in the items' order and then condition order. The same inputs give the
// same bytes. report (may be nil) is called after each line, counting lines.
func WriteRequests(ctx context.Context, w io.Writer, items []Item, opt RequestOptions, report progress.Func) (int, error) {
	if opt.MaxTokens <= 0 {
		opt.MaxTokens = DefaultMaxTokens
	}
	bw := bufio.NewWriterSize(w, 1<<20)
	head := fmt.Sprintf(`"method":"POST","url":%s,"body":{"model":%s,"max_tokens":%d,"temperature":%s,"messages":[`,
		jsonString(batch.ChatPath), jsonString(opt.Model), opt.MaxTokens, strconv.FormatFloat(opt.Temperature, 'g', -1, 64))
	base := strings.TrimRight(opt.ImageBase, "/")
	total := len(items) * len(opt.Conditions)
	n := 0
	var enc []byte // the data URI, reused
	for i := range items {
		it := &items[i]
		for _, cond := range opt.Conditions {
			if err := ctx.Err(); err != nil {
				return n, err
			}
			system, user, err := readPrompt(it, cond)
			if err != nil {
				return n, err
			}
			bw.WriteString(`{"custom_id":`)
			bw.WriteString(jsonString(batch.CustomID(it.ID, cond)))
			bw.WriteByte(',')
			bw.WriteString(head)
			if system != "" {
				bw.WriteString(`{"role":"system","content":`)
				bw.WriteString(jsonString(system))
				bw.WriteString(`},`)
			}
			bw.WriteString(`{"role":"user","content":[{"type":"text","text":`)
			bw.WriteString(jsonString(user))
			bw.WriteString(`},{"type":"image_url","image_url":{"url":"`)
			if base != "" {
				bw.WriteString(jsonInner(base + "/" + it.ID + "/" + cond + ".png"))
			} else if enc, err = dataURI(enc[:0], it.SheetPath(cond)); err != nil {
				return n, fmt.Errorf("instance %s: %v", it.ID, err)
			} else {
				bw.Write(enc)
			}
			bw.WriteString(`","detail":"high"}}]}]}}` + "\n")
			n++
			report.Call(progress.Report{Done: int64(n), Total: int64(total)})
		}
	}
	if err := bw.Flush(); err != nil {
		return n, err
	}
	return n, nil
}

// dataURI appends a PNG file as a base64 data URI to dst.
func dataURI(dst []byte, path string) ([]byte, error) {
	data, err := fsutil.ReadFile(path, render.MaxSourceBytes)
	if err != nil {
		return dst, fmt.Errorf("cannot read its sheet: %v", err)
	}
	if len(data) < 8 || string(data[:8]) != "\x89PNG\r\n\x1a\n" {
		return dst, fmt.Errorf("%s is not a PNG file", path)
	}
	dst = append(dst, "data:image/png;base64,"...)
	return base64.StdEncoding.AppendEncode(dst, data), nil
}

func jsonString(s string) string {
	b, _ := json.Marshal(s) // a string cannot fail
	return string(b)
}

// jsonInner is s as the inside of a JSON string.
func jsonInner(s string) string {
	q := jsonString(s)
	return q[1 : len(q)-1]
}
