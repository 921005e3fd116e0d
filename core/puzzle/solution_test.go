package puzzle

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
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
	f.Add([]byte(` {"pieces":[{"id":0,"s":"]\"}"}],"Grid":2,"format":"jigbench.instance/v1","so\u006cution":{"0":[0,0],"1":[0,1],"2":[1,0],"3":[1,1]},"grid":2} `))
	f.Fuzz(func(t *testing.T, data []byte) {
		sf, err := parseSolution(data)
		// What decoding the whole file accepts, reading the three fields
		// accepts too, with the same result (it may accept more: it does
		// not decode the members it skips).
		if whole, werr := parseSolutionWhole(data); werr == nil && (err != nil || whole.Grid != sf.Grid || !reflect.DeepEqual(whole.Solution, sf.Solution)) {
			t.Fatalf("whole file: grid %d %v; three fields: grid %d %v, %v", whole.Grid, whole.Solution, sf.Grid, sf.Solution, err)
		}
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

// parseSolutionWhole is parseSolution as it was: the whole file decoded. The
// fuzz target holds the new one to it.
func parseSolutionWhole(data []byte) (solutionFile, error) {
	var f solutionFile
	data, err := instanceText(data)
	if err != nil {
		return f, err
	}
	if err := json.Unmarshal(data, &f); err != nil {
		return f, err
	}
	return f, f.check()
}

func TestSelectFields(t *testing.T) {
	cases := []struct{ in, want string }{
		{`{}`, `{}`},
		{` {"a":1, "grid" : 2 ,"pieces":[{"x":"]}"}],"GRID":3} `, `{"grid":2,"GRID":3}`},
		{`{"gr\u0069d":[1,{"a":[]}],"ſolution":"s"}`, `{"gr\u0069d":[1,{"a":[]}],"ſolution":"s"}`},
		{`{"x":"a\"b","solution":null}`, `{"solution":null}`},
	}
	for _, c := range cases {
		got, err := selectFields([]byte(c.in), "grid", "solution")
		if err != nil || string(got) != c.want {
			t.Errorf("selectFields(%s) = %s, %v; want %s", c.in, got, err, c.want)
		}
	}
	for _, bad := range []string{``, `[]`, `{"a":1`, `{"a":[1}`, `{"a":"x}`, `{"a":1}x`, `{"a" 1}`, `{"a":1,}`, `{"a":}`, `{"a":1 2}`, "{\"a\":\"\x01\"}", `{"a\":1}`} {
		if got, err := selectFields([]byte(bad), "a"); err == nil {
			t.Errorf("selectFields(%q) accepted: %s", bad, got)
		}
	}
}

func BenchmarkParseSolution(b *testing.B) {
	p := mustNew(b, 16, 7, DefaultOptions())
	data, err := p.Instance("x", 1024, 640).MarshalIndent()
	if err != nil {
		b.Fatal(err)
	}
	b.Run("fields", func(b *testing.B) {
		for range b.N {
			if _, err := parseSolution(data); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("whole", func(b *testing.B) {
		for range b.N {
			if _, err := parseSolutionWhole(data); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// FuzzSolutionObject holds the fast solution reader to encoding/json: where
// it accepts, encoding/json gives the same solution.
func FuzzSolutionObject(f *testing.F) {
	f.Add([]byte(`{"0":[0,0],"1":[0,1],"2":[1,0],"3":[1,1]}`))
	f.Add([]byte(` { "1" : [ -1 , 20 ] , "0": [3,4] } `))
	f.Add([]byte(`{"0":[0,0],"0":[0,1]}`))
	f.Add([]byte(`{"01":[0,0]}`))
	f.Add([]byte(`{"-0":[0,0]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		sol, ok := parseSolutionObject(data)
		if !ok {
			return
		}
		var m map[string][2]int
		if err := json.Unmarshal(data, &m); err != nil {
			t.Fatalf("fast reader accepted %q, encoding/json refused it: %v", data, err)
		}
		if len(m) != len(sol) {
			t.Fatalf("%q: %d pieces, encoding/json %d", data, len(sol), len(m))
		}
		for id, c := range sol {
			if v, ok := m[strconv.Itoa(id)]; !ok || v != [2]int{c.Row, c.Col} {
				t.Fatalf("%q: piece %d at %v, encoding/json %v", data, id, c, v)
			}
		}
	})
}
