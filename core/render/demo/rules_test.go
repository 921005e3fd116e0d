package demo

import (
	"fmt"
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// The tests here enforce the package's determinism rules (see the package comment) on
// its own source, so a change that would make pixels differ between architectures is
// caught on any machine, not only on one that fuses multiply-adds.

var source struct {
	once  sync.Once
	fset  *token.FileSet
	files []*ast.File
	info  *types.Info
	err   error
}

// checkedSource type-checks the package's non-test files (once).
func checkedSource(t *testing.T) (*token.FileSet, []*ast.File, *types.Info) {
	t.Helper()
	source.once.Do(func() {
		source.fset, source.files, source.info, source.err = typeCheck()
	})
	if source.err != nil {
		t.Fatal(source.err)
	}
	return source.fset, source.files, source.info
}

func typeCheck() (*token.FileSet, []*ast.File, *types.Info, error) {
	names, err := filepath.Glob("*.go")
	if err != nil {
		return nil, nil, nil, err
	}
	fset := token.NewFileSet()
	var files []*ast.File
	for _, n := range names {
		if strings.HasSuffix(n, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, n, nil, 0)
		if err != nil {
			return nil, nil, nil, err
		}
		files = append(files, f)
	}
	info := &types.Info{
		Types: map[ast.Expr]types.TypeAndValue{},
		Uses:  map[*ast.Ident]types.Object{},
	}
	conf := types.Config{Importer: importer.Default()}
	if _, err := conf.Check("demo", fset, files, info); err != nil {
		return nil, nil, nil, fmt.Errorf("type-check: %w", err)
	}
	return fset, files, info, nil
}

// inspectWithParents walks f calling visit with each node and its nearest ancestor
// that is not a parenthesis.
func inspectWithParents(f *ast.File, visit func(n, parent ast.Node)) {
	var stack []ast.Node
	ast.Inspect(f, func(n ast.Node) bool {
		if n == nil {
			stack = stack[:len(stack)-1]
			return true
		}
		var parent ast.Node
		for i := len(stack) - 1; i >= 0; i-- {
			if _, paren := stack[i].(*ast.ParenExpr); !paren {
				parent = stack[i]
				break
			}
		}
		visit(n, parent)
		stack = append(stack, n)
		return true
	})
}

func isFloat(info *types.Info, e ast.Expr) bool {
	tv, ok := info.Types[e]
	if !ok || tv.Value != nil { // constants are folded exactly
		return false
	}
	b, ok := tv.Type.Underlying().(*types.Basic)
	return ok && b.Info()&types.IsFloat != 0
}

// exactMath are the math functions whose results IEEE 754 (or their definition) makes
// identical on every architecture.
var exactMath = map[string]bool{
	"Sqrt": true, "Floor": true, "Ceil": true, "Trunc": true, "Abs": true,
	"Min": true, "Max": true, "Inf": true,
}

// TestNoFusedMultiplyAdd: every floating-point product must be rounded explicitly
// (float64(a*b)) unless it only feeds another product, a quotient, a comparison or an
// exact function. Anything else might be fused with a later addition into an FMA on
// arm64 or amd64 v3 and round differently.
func TestNoFusedMultiplyAdd(t *testing.T) {
	fset, files, info := checkedSource(t)
	for _, f := range files {
		inspectWithParents(f, func(n, parent ast.Node) {
			if as, ok := n.(*ast.AssignStmt); ok && as.Tok == token.MUL_ASSIGN && isFloat(info, as.Lhs[0]) {
				t.Errorf("%s: float *= may be fused; write x = float64(x * y)", fset.Position(n.Pos()))
			}
			be, ok := n.(*ast.BinaryExpr)
			if !ok || be.Op != token.MUL || !isFloat(info, be) {
				return
			}
			switch p := parent.(type) {
			case *ast.BinaryExpr:
				switch p.Op {
				case token.MUL, token.QUO, token.LSS, token.LEQ, token.GTR, token.GEQ, token.EQL, token.NEQ:
					return
				}
			case *ast.CallExpr:
				if tv, ok := info.Types[p.Fun]; ok && tv.IsType() {
					return // an explicit conversion rounds
				}
				if id, ok := p.Fun.(*ast.Ident); ok && (id.Name == "min" || id.Name == "max") {
					return
				}
				if sel, ok := p.Fun.(*ast.SelectorExpr); ok && isPkg(info, sel, "math") && exactMath[sel.Sel.Name] {
					return
				}
			}
			t.Errorf("%s: product %s is not rounded; write float64(…)", fset.Position(be.Pos()), exprString(fset, be))
		})
	}
}

// TestDeterminismRules: no math function but the exact ones, no global math/rand, no
// clock, no iteration over maps.
func TestDeterminismRules(t *testing.T) {
	fset, files, info := checkedSource(t)
	for _, f := range files {
		for _, imp := range f.Imports {
			if p := strings.Trim(imp.Path.Value, `"`); p == "time" || p == "math/rand" || p == "math/cmplx" {
				t.Errorf("%s: imports %s", fset.Position(imp.Pos()), p)
			}
		}
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.SelectorExpr:
				if _, isFunc := info.Uses[n.Sel].(*types.Func); !isFunc {
					return true
				}
				if isPkg(info, n, "math") && !exactMath[n.Sel.Name] {
					t.Errorf("%s: math.%s differs between architectures; use this package's own", fset.Position(n.Pos()), n.Sel.Name)
				}
				if isPkg(info, n, "math/rand/v2") && n.Sel.Name != "New" && n.Sel.Name != "NewPCG" {
					t.Errorf("%s: rand.%s uses the global generator; use newRand", fset.Position(n.Pos()), n.Sel.Name)
				}
			case *ast.RangeStmt:
				if tv, ok := info.Types[n.X]; ok {
					if _, isMap := tv.Type.Underlying().(*types.Map); isMap {
						t.Errorf("%s: ranging over a map has no fixed order", fset.Position(n.Pos()))
					}
				}
			}
			return true
		})
	}
}

func isPkg(info *types.Info, sel *ast.SelectorExpr, path string) bool {
	id, ok := sel.X.(*ast.Ident)
	if !ok {
		return false
	}
	pn, ok := info.Uses[id].(*types.PkgName)
	return ok && pn.Imported().Path() == path
}

func exprString(fset *token.FileSet, e ast.Expr) string {
	start, end := fset.Position(e.Pos()), fset.Position(e.End())
	src, err := os.ReadFile(start.Filename)
	if err != nil || end.Offset > len(src) {
		return "?"
	}
	return string(src[start.Offset:end.Offset])
}
