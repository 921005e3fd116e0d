package app

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"math/big"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/jigbench/jigbench/core/fsutil"
	"github.com/jigbench/jigbench/core/puzzle"
	"github.com/jigbench/jigbench/core/render"
	"github.com/jigbench/jigbench/core/score"
	"github.com/jigbench/jigbench/core/solve"
)

const solveUsage = `usage: jigbench solve DIR [--mode shape|content] [--sheet shape|rect] [--count]
                      [--limit 1000000] [--out FILE]
    Solves the instance in DIR (a folder with instance.json, shape.png and
    rect.png) classically and writes the answer, {"<id>": [row, col], …}
    (the format 'jigbench score' reads), to FILE or stdout; a summary goes
    to stderr.
    --mode shape (default): backtracking over the pieces' side signatures
      (pieces[].sides of instance.json) — a shape-consistent arrangement,
      one of possibly very many.
    --mode content: reads only the sheet image and the public fields of
      instance.json (grid, piece size, layout, slots); derives each piece's
      sides from its silhouette and places the pieces by how their borders
      continue each other, under the shape constraints. Pieces it cannot
      tell apart (the same sides and the same seams with every other piece:
      a flat sky, still water) are a tie: the summary says how many, since
      any order of them over their cells is as good an answer. Where the
      sides cannot be read (classic tabs a pixel across), it places the
      pieces by content alone and the summary says why.
    --sheet: which sheet content mode reads (default shape; rect has no
      shapes, only content).
    --count: instead of an answer, print {"id":…,"consistent_arrangements":
      "<decimal>","signature_layouts":k,"limit_reached":false}: the exact
      number of shape-consistent arrangements (k distinct signature layouts
      × the orders of pieces with equal signatures), counted up to --limit
      layouts; limit_reached true means the numbers are lower bounds.
`

func init() {
	register(&command{
		name:    "solve",
		summary: "solve an instance classically (shape constraints or sheet content), or count its shape-consistent arrangements",
		usage:   solveUsage,
		run:     runSolve,
	})
}

func runSolve(e *env, args []string) error {
	fs := newFlags("solve")
	mode := fs.String("mode", "shape", "shape or content")
	sheet := fs.String("sheet", puzzle.ConditionShape, "shape or rect (content mode)")
	count := fs.Bool("count", false, "count the shape-consistent arrangements")
	limit := fs.Uint64("limit", solve.DefaultLimit, "most signature layouts counted")
	out := fs.String("out", "", "write the answer to this file instead of stdout")
	// DIR may come before or after the flags.
	if err := parseFlags(fs, args, true); err != nil {
		return err
	}
	var dirs []string
	for fs.NArg() > 0 {
		dirs = append(dirs, fs.Arg(0))
		if err := parseFlags(fs, fs.Args()[1:], true); err != nil {
			return err
		}
	}
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	switch {
	case len(dirs) != 1:
		return usagef("give exactly one instance folder")
	case *mode != "shape" && *mode != "content":
		return usagef("--mode is shape or content, not %q", *mode)
	case *sheet != puzzle.ConditionShape && *sheet != puzzle.ConditionRect:
		return usagef("--sheet is shape or rect, not %q", *sheet)
	case *count && *mode != "shape":
		return usagef("--count counts shape-consistent arrangements; it goes with --mode shape")
	case *count && set["out"]:
		return usagef("--count prints to stdout; --out is for answers")
	case set["sheet"] && *mode != "content":
		return usagef("--sheet is read by --mode content only")
	case set["limit"] && !*count:
		return usagef("--limit bounds --count")
	case *limit == 0:
		return usagef("--limit must be at least 1")
	}
	dir := dirs[0]
	if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
		return fmt.Errorf("%s is not an instance folder; give the folder that holds instance.json", dir)
	}
	start := time.Now()
	if *count {
		return solveCount(e, dir, *limit, start)
	}
	var pred []int
	var n int
	var id, summary string
	switch *mode {
	case "shape":
		inst, err := puzzle.ReadInstance(filepath.Join(dir, render.FileInstance))
		if err != nil {
			return err
		}
		n, id = inst.Grid, inst.ID
		if pred, err = solve.SolveShape(n, inst.Sides()); err != nil {
			return fmt.Errorf("%s: %w", inst.ID, err)
		}
		summary = "a shape-consistent arrangement (run with --count for how many there are)"
	case "content":
		file := render.FileShape
		if *sheet == puzzle.ConditionRect {
			file = render.FileRect
		}
		pub, res, err := solve.SolveContentDir(dir, file)
		if err != nil {
			return err
		}
		n, id, pred = pub.Grid, pub.ID, res.Pred
		switch {
		case res.Shaped:
			summary = "content and shape (sides read from the silhouettes)"
		case res.Unread != nil:
			summary = fmt.Sprintf("content only (the tabs could not be read from the sheet: %v)", res.Unread)
		default:
			summary = "content only (no tabs on this sheet)"
		}
		summary += fmt.Sprintf(", seam cost %.4g", res.Cost)
		if t := len(res.Ties); t > 0 {
			tied := 0
			for _, c := range res.Ties {
				tied += len(c)
			}
			classes := "classes"
			if t == 1 {
				classes = "class"
			}
			summary += fmt.Sprintf("; %d pieces in %d %s look alike to it and tie (their order within a class is arbitrary)", tied, t, classes)
		}
	}
	data := []byte(score.MappingJSON(pred, n) + "\n")
	if *out != "" {
		if err := fsutil.WriteFile(*out, data); err != nil {
			return err // it names the file
		}
	} else if _, err := e.stdout.Write(data); err != nil {
		return err
	}
	fmt.Fprintf(e.stderr, "%s: %d×%d solved by %s mode in %s: %s\n", id, n, n, *mode, time.Since(start).Round(time.Millisecond), summary)
	return nil
}

// countReport is --count's output (docs/cli.md).
type countReport struct {
	ID                     string `json:"id"`
	ConsistentArrangements string `json:"consistent_arrangements"`
	SignatureLayouts       uint64 `json:"signature_layouts"`
	LimitReached           bool   `json:"limit_reached"`
}

func solveCount(e *env, dir string, limit uint64, start time.Time) error {
	inst, err := puzzle.ReadInstance(filepath.Join(dir, render.FileInstance))
	if err != nil {
		return err
	}
	c, err := solve.CountShape(inst.Grid, inst.Sides(), solve.CountOptions{Limit: limit})
	if err != nil {
		return fmt.Errorf("%s: %w", inst.ID, err)
	}
	b, err := json.Marshal(countReport{
		ID: inst.ID, ConsistentArrangements: c.Arrangements.String(),
		SignatureLayouts: c.Layouts, LimitReached: c.LimitReached,
	})
	if err != nil {
		return err
	}
	fmt.Fprintln(e.stdout, string(b))
	var rep []string
	for _, m := range c.Repeated {
		rep = append(rep, fmt.Sprintf("%d×%s/%s/%s/%s", m.Count, m.Sides[0], m.Sides[1], m.Sides[2], m.Sides[3]))
	}
	note := "exact"
	switch {
	case c.LimitReached && c.Layouts == 0:
		note = "counting stopped when its memory budget ran out, before the first layout was found"
	case c.Stopped == "limit":
		note = fmt.Sprintf("lower bound: counting stopped at --limit %d layouts", limit)
	case c.Stopped == "states":
		note = "lower bound: counting stopped when its memory budget ran out"
	}
	fmt.Fprintf(e.stderr, "%s: %s shape-consistent arrangements (%s) = %d signature layouts × %s orders of look-alike pieces; %d distinct signatures among %d pieces; %s\n",
		inst.ID, short(c.Arrangements), note, c.Layouts, short(c.Permutations), c.Signatures, inst.Grid*inst.Grid, time.Since(start).Round(time.Millisecond),
	)
	if len(rep) > 0 && len(rep) <= 12 {
		fmt.Fprintf(e.stderr, "  repeated signatures (top/right/bottom/left): %s\n", strings.Join(rep, ", "))
	}
	if c.Arrangements.Sign() == 0 && !c.LimitReached {
		return errors.New(inst.ID + ": no shape-consistent arrangement exists; the sides in instance.json contradict each other")
	}
	return nil
}

// short writes a big integer in full up to 24 digits, else as ≈d.ddde+N.
func short(x *big.Int) string {
	s := x.String()
	if len(s) <= 24 {
		return s
	}
	return fmt.Sprintf("≈%c.%se+%d (%d digits)", s[0], s[1:4], len(s)-1, len(s))
}
