package vigor

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/jigbench/jigbench/core/vigor/pgtest"
)

// Five processes save to one server at once: each its own ratings, and all
// of them the same one. Every row and every revision must be there once.
const pgChildURL, pgChildID = "JIGBENCH_PG_CHILD_URL", "JIGBENCH_PG_CHILD_ID"

const (
	pgWriters      = 5
	pgSavesPerProc = 40
)

func pgChildRating(id, n int) Rating {
	return Rating{Split: "conc", SplitDigest: "d", Item: fmt.Sprintf("item-%02d", n), Annotator: fmt.Sprintf("w%d", id),
		Scores: Scores{(id*7 + n) % 101, n % 2, (id + n) % 101, NoScore}, Comment: fmt.Sprintf("w%d-%d", id, n)}
}

func TestPostgresWriterChild(t *testing.T) {
	url := os.Getenv(pgChildURL)
	if url == "" {
		t.Skip("run by TestPostgresConcurrentProcesses as a child process")
	}
	id, _ := strconv.Atoi(os.Getenv(pgChildID))
	ctx := context.Background()
	st, err := OpenStoreAt(ctx, url, false) // all five migrate the new database at once
	if err != nil {
		fmt.Println("error", err)
		os.Exit(3)
	}
	for n := range pgSavesPerProc {
		own := pgChildRating(id, n)
		shared := Rating{Split: "conc", SplitDigest: "d", Item: "shared", Annotator: "all", Scores: Unscored(), Comment: own.Comment}
		for _, r := range []Rating{own, shared} {
			if _, err := st.Save(ctx, r); err != nil {
				fmt.Println("error", err)
				os.Exit(3)
			}
		}
	}
	st.Close()
	os.Exit(0)
}

func TestPostgresConcurrentProcesses(t *testing.T) {
	srv := pgtest.Shared(t)
	url := srv.FreshDB(t)
	var wg sync.WaitGroup
	outs := make([][]byte, pgWriters)
	errs := make([]error, pgWriters)
	for id := range pgWriters {
		wg.Add(1)
		go func() {
			defer wg.Done()
			cmd := exec.Command(os.Args[0], "-test.run=^TestPostgresWriterChild$", "-test.count=1")
			cmd.Env = append(os.Environ(), pgChildURL+"="+url, pgChildID+"="+strconv.Itoa(id))
			outs[id], errs[id] = cmd.CombinedOutput()
		}()
	}
	wg.Wait()
	for id := range pgWriters {
		if errs[id] != nil {
			t.Fatalf("writer %d: %v: %s", id, errs[id], outs[id])
		}
	}
	ctx := context.Background()
	st, err := OpenStoreAt(ctx, url, true)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	all, err := st.List(ctx, Query{Split: "conc"})
	if err != nil {
		t.Fatal(err)
	}
	if want := pgWriters*pgSavesPerProc + 1; len(all) != want {
		t.Fatalf("%d ratings, want %d", len(all), want)
	}
	for id := range pgWriters {
		for n := range pgSavesPerProc {
			want := pgChildRating(id, n)
			got, err := st.Get(ctx, "conc", want.Item, want.Annotator)
			if err != nil || got.Scores != want.Scores || got.Comment != want.Comment {
				t.Errorf("writer %d save %d: %+v %v", id, n, got, err)
			}
		}
	}
	revs, err := st.Revisions(ctx, Query{Split: "conc"})
	if err != nil {
		t.Fatal(err)
	}
	if want := 2 * pgWriters * pgSavesPerProc; len(revs) != want {
		t.Errorf("%d revisions, want %d", len(revs), want)
	}
	// The shared rating's revisions form one chain: each one's old values
	// are the previous one's new values, every save there exactly once.
	var prev *Values
	seen := map[string]int{}
	for _, rv := range revs {
		if rv.Item != "shared" {
			continue
		}
		if !reflect.DeepEqual(rv.Old, prev) {
			t.Fatalf("revision %d: old %+v, but the previous change left %+v", rv.ID, rv.Old, prev)
		}
		prev = rv.New
		seen[rv.New.Comment]++
	}
	for id := range pgWriters {
		for n := range pgSavesPerProc {
			if c := fmt.Sprintf("w%d-%d", id, n); seen[c] != 1 {
				t.Errorf("shared save %s recorded %d times", c, seen[c])
			}
		}
	}
	shared, _ := st.Get(ctx, "conc", "shared", "all")
	if prev == nil || shared.Comment != prev.Comment {
		t.Errorf("the shared rating holds %q, its last revision %+v", shared.Comment, prev)
	}
}

// The server goes away mid-session: the save fails with a clear error, what
// was acknowledged is kept, and once the server is back the same Store
// saves again (database/sql's pool replaces the dead connections).
func TestPostgresServerGoesAway(t *testing.T) {
	pgtest.Shared(t) // skips where no server can be had
	srv, err := pgtest.Start()
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Remove()
	ctx := context.Background()
	st, err := OpenStoreAt(ctx, srv.URL("postgres"), false)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	var acked []Rating
	for n := range 10 {
		acked = append(acked, mustSave(t, st, pgChildRating(0, n)))
	}
	srv.Stop()
	_, err = st.Save(ctx, pgChildRating(0, 10))
	if err == nil {
		t.Fatal("a save to a stopped server succeeded")
	}
	msg := err.Error()
	t.Logf("what the Rate pane shows: %s", msg)
	if !strings.Contains(msg, "ratings server postgres://jig:xxxxx@127.0.0.1:") || !strings.Contains(msg, "was not confirmed") ||
		strings.Contains(msg, pgtest.Password) {
		t.Errorf("error with the server stopped: %q", msg)
	}
	// The next call, on a fresh connection, finds nobody there.
	if _, err := st.List(ctx, Query{}); err == nil || !strings.Contains(err.Error(), "not reachable") ||
		strings.Contains(err.Error(), pgtest.Password) {
		t.Errorf("list with the server stopped: %v", err)
	}
	if err := srv.Restart(); err != nil {
		t.Fatal(err)
	}
	mustSave(t, st, pgChildRating(0, 11)) // the first save after the restart
	for _, want := range append(acked, pgChildRating(0, 11)) {
		got, err := st.Get(ctx, "conc", want.Item, want.Annotator)
		if err != nil || got.Scores != want.Scores || got.Comment != want.Comment {
			t.Errorf("after the restart %s: %+v %v", want.Item, got, err)
		}
	}
}

// The password never shows: not in Path, not in any error.
func TestPostgresRedactsPassword(t *testing.T) {
	srv := pgtest.Shared(t)
	ctx := context.Background()
	st := openPostgresTestStore(t)
	if strings.Contains(st.Path(), pgtest.Password) || !strings.Contains(st.Path(), "xxxxx") {
		t.Errorf("Path() = %q", st.Path())
	}
	const wrong = "Wr0ng-passw0rd-here"
	cases := map[string]string{
		"wrong password": strings.Replace(srv.URL("postgres"), pgtest.Password, wrong, 1),
		"no server":      fmt.Sprintf("postgres://jig:%s@127.0.0.1:1/db?sslmode=disable", wrong),
		"malformed":      fmt.Sprintf("postgres://jig:%s@127.0.0.1:port/db", wrong),
		"no database":    strings.Replace(srv.URL("postgres"), pgtest.Password, wrong, 1) + "&dbname=x",
	}
	for name, url := range cases {
		_, err := OpenStoreAt(ctx, url, false)
		if err == nil {
			t.Errorf("%s: opened", name)
			continue
		}
		t.Logf("%s: %v", name, err)
		if strings.Contains(err.Error(), wrong) {
			t.Errorf("%s: the error shows the password: %v", name, err)
		}
	}
	// A failing statement on an open store: the error is redacted too.
	st.secret = "relation" // pretend the password were in the server's message
	_, err := st.db.ExecContext(ctx, "SELECT * FROM no_such_relation")
	if e := st.explain(err); e == nil || strings.Contains(e.Error(), "relation") {
		t.Errorf("explain left the secret in: %v", e)
	}
}

func TestStoreLocationOrderAndRedaction(t *testing.T) {
	t.Setenv(StoreEnv, "")
	def, err := DefaultStorePath()
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ flag, env, setting, want string }{
		{"", "", "", def},
		{"", "", " postgres://a@h/d ", "postgres://a@h/d"},
		{"", "/env.db", "postgres://a@h/d", "/env.db"},
		{"/flag.db", "/env.db", "postgres://a@h/d", "/flag.db"},
	} {
		t.Setenv(StoreEnv, c.env)
		if got, err := StoreLocationFor(c.flag, c.setting); err != nil || got != c.want {
			t.Errorf("StoreLocationFor(%q, %q) with env %q = %q, %v; want %q", c.flag, c.setting, c.env, got, err, c.want)
		}
	}
	for in, want := range map[string]string{
		"postgres://jig:s3cret@db.lab:5432/ratings": "postgres://jig:xxxxx@db.lab:5432/ratings",
		"/home/r/ratings.db":                        "/home/r/ratings.db",
		"postgres://jig:s3cret@db.lab:bad/x":        "a malformed server URL",
	} {
		if got := RedactLocation(in); got != want {
			t.Errorf("RedactLocation(%q) = %q, want %q", in, got, want)
		}
	}
}
