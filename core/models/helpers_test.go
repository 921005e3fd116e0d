package models

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"testing"

	"github.com/jigbench/jigbench/core/dataset"
)

var (
	datasetOnce sync.Once
	datasetDir  string
	datasetErr  error
)

// testDataset is a small dataset (6 demo images × grids 2 and 3, size 256,
// half of the images in eval), made once per test binary.
func testDataset(t *testing.T) string {
	t.Helper()
	datasetOnce.Do(func() {
		dir, err := osMkdirTemp()
		if err != nil {
			datasetErr = err
			return
		}
		c := dataset.DefaultConfig()
		c.DemoCount, c.Grids, c.Seed, c.EvalFraction = 6, []int{2, 3}, 7, 0.5
		c.Options.Size = 256
		c.Out = filepath.Join(dir, "ds")
		_, datasetErr = dataset.Run(context.Background(), c)
		datasetDir = c.Out
	})
	if datasetErr != nil {
		t.Fatal(datasetErr)
	}
	return datasetDir
}

func osMkdirTemp() (string, error) { return os.MkdirTemp("", "jigbench-models-test-") }

func TestMain(m *testing.M) {
	code := m.Run()
	if datasetDir != "" {
		os.RemoveAll(filepath.Dir(datasetDir))
	}
	os.Exit(code)
}

func itoa(n int) string     { return strconv.Itoa(n) }
func uitoa(n uint64) string { return strconv.FormatUint(n, 10) }
func pad5(n int) string     { return fmt.Sprintf("%05d", n) }
