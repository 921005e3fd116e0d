package ui

import (
	"fmt"
	"image"
	"io"
	"path/filepath"
	"strings"

	"github.com/jigbench/jigbench/core/fsutil"
	"github.com/jigbench/jigbench/core/render"
	"github.com/jigbench/jigbench/core/vigor"
)

// Exporting the Agreement report: Markdown, CSV, JSON or a PNG sheet of
// every picture.

func (a *AgreementPane) exportDialog(ext string) {
	if a.report == nil {
		a.status.Set("Nothing to export yet: compute the report first.")
		return
	}
	name := a.report.Split + "-agreement." + ext
	a.saveFile("Export the agreement report", name, Filter{Name: strings.ToUpper(ext), Extensions: []string{ext}}, a.Export)
}

// exportChartSize is the size of one chart in an exported PNG sheet.
const exportChartW, exportChartH = 720, 560

// Export writes the report shown; the format follows the extension: .md
// (Markdown), .csv, .json, or .png (every picture, every condition and
// track, on one sheet).
func (a *AgreementPane) Export(path string) {
	rep, pd := a.report, a.plots
	if rep == nil {
		return
	}
	ext := strings.ToLower(filepath.Ext(path))
	var charts []chartFunc
	if ext == ".png" {
		for _, c := range pd.Conditions {
			for _, t := range vigor.Tracks {
				if _, ok := pd.Grid(c, t); ok {
					charts = append(charts, a.heatmapChart(c, t), a.confusionChart(c, t))
				}
			}
		}
		for _, t := range vigor.Tracks {
			if sc := a.scatterChart(t); sc != nil {
				charts = append(charts, sc)
			}
		}
	}
	a.status.Set("Exporting " + path + "…")
	a.work.Go(func() func() {
		err := fsutil.WriteWith(path, func(w io.Writer) error {
			switch ext {
			case ".md", ".markdown":
				return rep.WriteMarkdown(w)
			case ".csv":
				return rep.WriteCSV(w)
			case ".json":
				return rep.WriteJSON(w)
			case ".png":
				st := render.LightPlotStyle(1)
				var imgs []*image.RGBA
				for _, c := range charts {
					imgs = append(imgs, c(exportChartW, exportChartH, st))
				}
				data, err := render.EncodePNG(render.ChartSheet(imgs, 3, 8, st.Background))
				if err != nil {
					return err
				}
				_, err = w.Write(data)
				return err
			}
			return fmt.Errorf("%s: unknown format; name the file .md, .csv, .json or .png", filepath.Base(path))
		})
		return func() {
			if err != nil {
				a.showError(err)
				return
			}
			a.status.Set("Exported " + path)
		}
	})
}
