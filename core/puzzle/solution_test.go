package puzzle

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func TestReadSolutionMatchesTheInstance(t *testing.T) {
	p := mustNew(t, 4, 7, DefaultOptions())
	inst := p.Instance("x", 160, 96)
	data, err := inst.MarshalIndent()
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "instance.json")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	n, sol, err := ReadSolution(path)
	if err != nil {
		t.Fatal(err)
	}
	if n != 4 || !reflect.DeepEqual(sol, inst.Solution) {
		t.Fatalf("ReadSolution gave grid %d, %v; want 4, %v", n, sol, inst.Solution)
	}
	idx := Solution{{0, 1}, {1, 0}, {1, 1}, {0, 0}}.Indices(2)
	if !reflect.DeepEqual(idx, []int{1, 2, 3, 0}) {
		t.Fatalf("Indices = %v", idx)
	}
}

func TestParseSolutionRejectsBrokenSolutions(t *testing.T) {
	const head = `{"format":"jigbench.instance/v1","grid":2,"solution":`
	cases := map[string]string{
		"not json":       "{",
		"wrong format":   strings.Replace(head, InstanceFormat, "other/v9", 1) + `{"0":[0,0],"1":[0,1],"2":[1,0],"3":[1,1]}}`,
		"grid too small": strings.Replace(head, `"grid":2`, `"grid":1`, 1) + `{"0":[0,0]}}`,
		"too few pieces": head + `{"0":[0,0],"1":[0,1],"2":[1,0]}}`,
		"outside grid":   head + `{"0":[0,0],"1":[0,1],"2":[1,0],"3":[1,2]}}`,
		"same cell":      head + `{"0":[0,0],"1":[0,1],"2":[1,0],"3":[0,0]}}`,
		"bad piece id":   head + `{"0":[0,0],"1":[0,1],"2":[1,0],"9":[1,1]}}`,
	}
	for name, data := range cases {
		if _, err := parseSolution([]byte(data)); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
	if _, err := parseSolution([]byte(head + `{"0":[1,1],"1":[0,1],"2":[1,0],"3":[0,0]}}`)); err != nil {
		t.Errorf("a valid solution was refused: %v", err)
	}
}

func FuzzParseSolution(f *testing.F) {
	f.Add([]byte(`{"format":"jigbench.instance/v1","grid":2,"solution":{"0":[0,0],"1":[0,1],"2":[1,0],"3":[1,1]}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		sf, err := parseSolution(data)
		if err != nil {
			return
		}
		seen := map[int]bool{}
		for _, k := range sf.Solution.Indices(sf.Grid) {
			if k < 0 || k >= sf.Grid*sf.Grid || seen[k] {
				t.Fatalf("accepted solution %v puts pieces off the grid or together", sf.Solution)
			}
			seen[k] = true
		}
	})
}
