package app

import (
	"context"
	"image"
	"io"
	"strings"

	"github.com/jigbench/jigbench/core/fsutil"
	"github.com/jigbench/jigbench/core/puzzle"
	"github.com/jigbench/jigbench/core/render"
	"github.com/jigbench/jigbench/core/score"
	"github.com/jigbench/jigbench/core/scoreplot"
)

// scoreAnalyses are score's outputs beyond the report (docs/analysis.md):
// the model comparison, the scaling plot, the ablation heatmap and the paper
// tables.
type scoreAnalyses struct {
	compareA, compareB string
	plot               string
	plotMetric         score.PlotMetric
	aboveChance        bool
	ablation           string
	latex, paperMD     string
	paperCondition     string
}

// Chart sizes of the files score draws, in pixels.
const (
	plotWidth, plotHeight = 900, 480
	ablationWidth         = 900
)

func parseAnalysisFlags(compare, plot, plotMetric string, aboveChance bool, paperCond string) (*scoreAnalyses, error) {
	a := &scoreAnalyses{plot: plot, aboveChance: aboveChance, paperCondition: paperCond}
	if compare != "" {
		parts := strings.Split(compare, ",")
		if len(parts) != 2 || strings.TrimSpace(parts[0]) == "" || strings.TrimSpace(parts[1]) == "" {
			return nil, usagef("--compare wants two model names, A,B; got %q", compare)
		}
		a.compareA, a.compareB = strings.TrimSpace(parts[0]), strings.TrimSpace(parts[1])
	}
	switch {
	case plot != "" && plotMetric == "":
		return nil, usagef("--plot needs --plot-metric pa, em, aa or sc")
	case plot == "" && (plotMetric != "" || aboveChance):
		return nil, usagef("--plot-metric and --above-chance need --plot FILE.png")
	case paperCond != puzzle.ConditionShape && paperCond != puzzle.ConditionRect:
		return nil, usagef("--paper-condition must be shape or rect")
	}
	if plot != "" {
		m, err := score.ParsePlotMetric(plotMetric)
		if err != nil {
			return nil, usagef("--plot-metric: %v", err)
		}
		a.plotMetric = m
	}
	return a, nil
}

// compareModels adds the requested comparison to the report, before it is
// written.
func (a *scoreAnalyses) compareModels(ctx context.Context, rep *score.Report) error {
	if a.compareA == "" {
		return nil
	}
	return rep.Compare(ctx, a.compareA, a.compareB)
}

// write draws and writes every requested file.
func (a *scoreAnalyses) write(rep *score.Report) error {
	if a.plot != "" {
		c, err := scoreplot.Scaling(rep, a.plotMetric, a.aboveChance)
		if err != nil {
			return err
		}
		if err := writePNGFile(a.plot, render.DrawScalingChart(c, plotWidth, plotHeight, render.LightPlotStyle(1))); err != nil {
			return err
		}
	}
	if a.ablation != "" {
		if len(rep.Ablation) == 0 {
			return usagef("--ablation-heatmap: no model was answered in both conditions (give --condition shape and --condition rect answers)")
		}
		c := scoreplot.Ablation(rep)
		height := 130 + 56*len(c.Rows)
		if err := writePNGFile(a.ablation, render.DrawDiffChart(c, ablationWidth, height, render.LightPlotStyle(1))); err != nil {
			return err
		}
	}
	if a.latex != "" {
		if err := fsutil.WriteWith(a.latex, func(w io.Writer) error { return rep.WriteLaTeX(w, a.paperCondition) }); err != nil {
			return err
		}
	}
	if a.paperMD != "" {
		if err := fsutil.WriteWith(a.paperMD, func(w io.Writer) error { return rep.WritePaperMarkdown(w, a.paperCondition) }); err != nil {
			return err
		}
	}
	return nil
}

func writePNGFile(path string, img *image.RGBA) error {
	data, err := render.EncodePNG(img)
	if err != nil {
		return err
	}
	return fsutil.WriteFile(path, data)
}
