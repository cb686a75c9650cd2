package cli

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// packageImports are the imports of every package of the module, by its
// folder under the root, its tests left out; testdata is not the module.
func packageImports(t *testing.T, root string) map[string][]string {
	t.Helper()
	out := map[string][]string{}
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if name := d.Name(); path != root && (name == "testdata" || strings.HasPrefix(name, ".")) {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		dir, _ := filepath.Rel(root, filepath.Dir(path))
		for _, im := range f.Imports {
			p, _ := strconv.Unquote(im.Path.Value)
			if !slices.Contains(out[dir], p) {
				out[dir] = append(out[dir], p)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// The house keeps the design card's rules (issue 18, STYLE.md): backoff
// and ledger are pure, knowing nothing of terminals, files, clocks or the
// network; no package draws pictures and styles a terminal, or reads TOML
// and styles a terminal; main.go is the root's only package file.
func TestTheHouseKeepsItsRules(t *testing.T) {
	root := filepath.Join("..", "..")
	imports := packageImports(t, root)
	if len(imports) < 10 {
		t.Fatalf("found %d packages, want the module's", len(imports))
	}
	impure := []string{"os", "io", "io/fs", "net", "net/http", "syscall", "os/signal", "bufio", "log",
		"github.com/charmbracelet/bubbletea", "github.com/charmbracelet/lipgloss", "github.com/charmbracelet/bubbles",
		"github.com/charmbracelet/huh", "github.com/muesli/termenv", "golang.org/x/term", "gonum.org/v1/plot"}
	has := func(dir, prefix string) bool {
		return slices.ContainsFunc(imports[dir], func(p string) bool { return p == prefix || strings.HasPrefix(p, prefix+"/") })
	}
	for dir, ims := range imports {
		if dir == "backoff" || dir == "ledger" || strings.HasPrefix(dir, "backoff"+string(filepath.Separator)) || strings.HasPrefix(dir, "ledger"+string(filepath.Separator)) {
			for _, p := range ims {
				if slices.Contains(impure, p) {
					t.Errorf("%s imports %s: backoff and ledger are pure", dir, p)
				}
			}
		}
		styles := has(dir, "github.com/charmbracelet/lipgloss")
		if styles && has(dir, "gonum.org/v1/plot") {
			t.Errorf("%s imports both gonum/plot and lipgloss: pictures and the terminal's styles are two packages", dir)
		}
		if styles && has(dir, "github.com/BurntSushi/toml") {
			t.Errorf("%s imports both TOML and lipgloss: a plan is the program's input, not a view", dir)
		}
	}
	// A pure package may name time's types (a TOML datetime is a
	// time.Time) but never reads the clock or waits.
	for _, dir := range []string{"backoff", "ledger", filepath.Join("backoff", "plan"), filepath.Join("backoff", "advice"), filepath.Join("ledger", "glyph")} {
		if clock := readsTheClock(t, filepath.Join(root, dir)); clock != "" {
			t.Errorf("%s: %s: backoff and ledger take no clock", dir, clock)
		}
	}
	entries, err := os.ReadDir(root)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if !e.IsDir() && strings.HasSuffix(e.Name(), ".go") && e.Name() != "main.go" {
			t.Errorf("the root holds %s: main.go wires, and nothing else of Go lives there", e.Name())
		}
	}
}

// readsTheClock is the first call in dir's package files that reads the
// clock or waits (time.Now, time.Sleep, a timer, ...), as file:name, or "".
func readsTheClock(t *testing.T, dir string) string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	clock := []string{"Now", "Since", "Until", "Sleep", "After", "AfterFunc", "NewTimer", "NewTicker", "Tick"}
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(token.NewFileSet(), name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		found := ""
		ast.Inspect(f, func(n ast.Node) bool {
			if sel, ok := n.(*ast.SelectorExpr); ok && found == "" {
				if x, ok := sel.X.(*ast.Ident); ok && x.Name == "time" && slices.Contains(clock, sel.Sel.Name) {
					found = filepath.Base(name) + ": time." + sel.Sel.Name
				}
			}
			return found == ""
		})
		if found != "" {
			return found
		}
	}
	return ""
}
