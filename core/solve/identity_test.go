package solve

import (
	"fmt"
	"os"
	"strings"
	"testing"
)

// TestSolveIdentity (JIGBENCH_IDENTITY=FILE) solves a fixed set of rect and
// shape sheets and writes each answer (Pred, Cost, Misfits) to FILE, or, when
// FILE exists, compares the answers with it line by line: a check that a
// change meant only to make the solver faster leaves every answer as it
// was. Instances from JIGBENCH_IDENTITY_SET (names as in JIGBENCH_TABLE),
// grids from JIGBENCH_IDENTITY_GRIDS.
func TestSolveIdentity(t *testing.T) {
	file := os.Getenv("JIGBENCH_IDENTITY")
	if file == "" {
		t.Skip("set JIGBENCH_IDENTITY=FILE to run")
	}
	set := "Storm.jpg,Wood.jpg,YellowFlower.jpg,Aqua.jpg,Garden.jpg,Dune.jpg,bookshelf,fruit-market,night-city,coral-reef"
	if s := os.Getenv("JIGBENCH_IDENTITY_SET"); s != "" {
		set = s
	}
	grids := envGrids("JIGBENCH_IDENTITY_GRIDS", []int{8, 16, 32})
	var got []string
	for _, name := range strings.Split(set, ",") {
		for _, n := range grids {
			gen := surveyInstance(t, name, "", n)
			for _, rect := range []bool{true, false} {
				res, _, _ := solveSheet(t, gen, rect)
				got = append(got, fmt.Sprintf("%s n=%d rect=%v cost=%x misfits=%d pred=%v",
					name, n, rect, res.Cost, res.Misfits, res.Pred))
			}
		}
	}
	want, err := os.ReadFile(file)
	if os.IsNotExist(err) {
		if err := os.WriteFile(file, []byte(strings.Join(got, "\n")+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("wrote %d answers to %s", len(got), file)
		return
	}
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(string(want), "\n"), "\n")
	if len(lines) != len(got) {
		t.Fatalf("%s holds %d answers, the run gave %d", file, len(lines), len(got))
	}
	for i := range got {
		if got[i] != lines[i] {
			t.Errorf("answer %d differs: %.60s… (was %.60s…)", i, got[i], lines[i])
		}
	}
}
