package dataset_test

import (
	"context"
	"errors"
	"fmt"

	"github.com/jigbench/jigbench/core/dataset"
	"github.com/jigbench/jigbench/core/progress"
)

// A form (the GUI's "Generate dataset…") fills a Config, checks it, shows
// what it will make, then runs it on a goroutine with a cancel function
// behind its Cancel button. Progress and OnIssue arrive on worker
// goroutines: a Fyne UI hands them to its own goroutine with fyne.Do.
func ExampleRun() {
	c := dataset.DefaultConfig() // grids 4, 8, 12, 16; eval 0.1; size 1024
	c.Images, c.Seed, c.Out = "photos", 1, "jigshape"
	if err := c.Validate(); err != nil {
		fmt.Println(err) // one sentence, fit for the form
		return
	}
	plan, err := dataset.Scan(c) // lists the images without reading them
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%d images × %d grids = %d instances\n", plan.Sources, len(c.Grids), plan.Instances)

	ctx, cancel := context.WithCancel(context.Background()) // cancel() = the Cancel button
	defer cancel()
	c.Progress = func(p progress.Report) {
		// p.Fraction() for a progress bar; p.Detail is the line
		// "120/400 instances (30%) · 4.21/s · ETA 1m06s".
		_ = p.Detail
	}
	c.OnIssue = func(is dataset.Issue) { fmt.Println("skipped", is.Error()) }
	res, err := dataset.Run(ctx, c)
	switch {
	case errors.Is(err, context.Canceled):
		fmt.Println("cancelled; the same settings resume:", err)
	case err != nil:
		fmt.Println(err)
	default:
		fmt.Printf("%d instances (%d train, %d eval) in %s; %d skipped\n",
			res.Instances, res.Train, res.Eval, res.Manifest, len(res.Errors))
	}
}
