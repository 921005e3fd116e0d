package vigor

import (
	"bufio"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

func openTestStore(t *testing.T) *Store {
	t.Helper()
	st, err := OpenStore(context.Background(), filepath.Join(t.TempDir(), "ratings.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

func TestStoreSaveGetListDelete(t *testing.T) { forEachStore(t, testStoreSaveGetListDelete) }

func testStoreSaveGetListDelete(t *testing.T, st *Store) {
	ctx := context.Background()
	clock := time.Date(2026, 3, 1, 12, 0, 0, 123456789, time.FixedZone("X", 3600))
	st.now = func() time.Time { return clock }

	r := Rating{Split: "s", Item: "r-0001", Annotator: "ann", Scores: Scores{1, 0, NoScore, 1}, Comment: "hm, \"quoted\""}
	saved, err := st.Save(ctx, r)
	if err != nil {
		t.Fatal(err)
	}
	if !saved.Created.Equal(clock) || saved.Created.Location() != time.UTC {
		t.Errorf("created %v, want %v in UTC", saved.Created, clock)
	}
	got, err := st.Get(ctx, "s", "r-0001", "ann")
	if err != nil {
		t.Fatal(err)
	}
	if got.Scores != r.Scores || got.Comment != r.Comment || got.Flagged || !got.Updated.Equal(clock) {
		t.Errorf("Get = %+v", got)
	}

	// Update: created stays, updated moves.
	clock = clock.Add(time.Minute)
	r.Scores[2], r.Flagged = 1, true
	saved, err = st.Save(ctx, r)
	if err != nil {
		t.Fatal(err)
	}
	if !saved.Created.Equal(clock.Add(-time.Minute)) || !saved.Updated.Equal(clock) {
		t.Errorf("after update: created %v updated %v", saved.Created, saved.Updated)
	}
	got, _ = st.Get(ctx, "s", "r-0001", "ann")
	if !got.Scores.Complete() || !got.Flagged || !got.Created.Equal(saved.Created) {
		t.Errorf("after update Get = %+v", got)
	}

	for _, rr := range []Rating{
		{Split: "s", Item: "p-0001", Annotator: "ann", Scores: Scores{10, 20, 30, 40}},
		{Split: "s", Item: "r-0001", Annotator: "other", Scores: Unscored()},
		{Split: "t", Item: "r-0001", Annotator: "ann", Scores: Scores{1, 1, 1, 1}},
	} {
		if _, err := st.Save(ctx, rr); err != nil {
			t.Fatal(err)
		}
	}
	list, err := st.List(ctx, Query{Split: "s", Annotator: "ann"})
	if err != nil || len(list) != 2 || list[0].Item != "p-0001" {
		t.Fatalf("List = %+v, %v", list, err)
	}
	flagged, _ := st.List(ctx, Query{Split: "s", FlaggedOnly: true})
	if len(flagged) != 1 || flagged[0].Item != "r-0001" {
		t.Errorf("flagged = %+v", flagged)
	}
	names, _ := st.Annotators(ctx, "s")
	if strings.Join(names, ",") != "ann,other" {
		t.Errorf("annotators = %v", names)
	}
	if err := st.Delete(ctx, "s", "", "r-0001", "ann"); err != nil {
		t.Fatal(err)
	}
	if _, err := st.Get(ctx, "s", "r-0001", "ann"); !errors.Is(err, ErrNotFound) {
		t.Errorf("after Delete, Get error = %v", err)
	}

	// Bad ratings are refused before they reach the database.
	for _, bad := range []Rating{
		{Split: "", Item: "x", Annotator: "a", Scores: Unscored()},
		{Split: "s", Item: "x", Annotator: "", Scores: Unscored()},
		{Split: "s", Item: "x", Annotator: "a", Scores: Scores{101, 0, 0, 0}},
		{Split: "s", Item: "x", Annotator: "a", Scores: Scores{-2, 0, 0, 0}},
		{Split: "s", Item: "x", Annotator: "a", Scores: Unscored(), Comment: strings.Repeat("x", maxCommentLen+1)},
	} {
		if _, err := st.Save(ctx, bad); err == nil {
			t.Errorf("Save(%+v) accepted", bad)
		}
	}
}

func TestStoreDurabilitySettings(t *testing.T) {
	st := openTestStore(t)
	ctx := context.Background()
	// Every pooled connection carries the pragmas: check several at once.
	var conns []*sql.Conn
	for range 3 {
		c, err := st.db.Conn(ctx)
		if err != nil {
			t.Fatal(err)
		}
		conns = append(conns, c)
	}
	for _, c := range conns {
		var mode string
		var sync, fk, busy int
		c.QueryRowContext(ctx, "PRAGMA journal_mode").Scan(&mode)
		c.QueryRowContext(ctx, "PRAGMA synchronous").Scan(&sync)
		c.QueryRowContext(ctx, "PRAGMA foreign_keys").Scan(&fk)
		c.QueryRowContext(ctx, "PRAGMA busy_timeout").Scan(&busy)
		if mode != "wal" || sync != 2 || fk != 1 || busy < 1000 {
			t.Errorf("journal_mode=%s synchronous=%d foreign_keys=%d busy_timeout=%d", mode, sync, fk, busy)
		}
		c.Close()
	}
	if err := st.CheckIntegrity(ctx); err != nil {
		t.Error(err)
	}
}

func TestStoreMigrations(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "ratings.db")
	// A database made by the first schema version, holding a rating.
	legacyStore(t, path, 1, Rating{Split: "s", Item: "i", Annotator: "a", Scores: Scores{1, 0, 1, 0}})

	st, err := OpenStore(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	var v, applied, idx int
	st.db.QueryRowContext(ctx, "PRAGMA user_version").Scan(&v)
	st.db.QueryRowContext(ctx, "SELECT count(*) FROM schema_migrations").Scan(&applied)
	st.db.QueryRowContext(ctx, "SELECT count(*) FROM sqlite_master WHERE type = 'index' AND name = 'ratings_by_annotator'").Scan(&idx)
	if v != len(migrations) || applied != len(migrations) || idx != 1 {
		t.Errorf("after migration: user_version %d, %d migrations recorded, index %d; want %d, %d, 1", v, applied, idx, len(migrations), len(migrations))
	}
	if r, err := st.Get(ctx, "s", "i", "a"); err != nil || r.Scores != (Scores{1, 0, 1, 0}) {
		t.Errorf("rating lost in migration: %+v %v", r, err)
	}
	// Reopening is a no-op.
	st.Close()
	st, err = OpenStore(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	// A database from a newer jigbench is refused, not damaged.
	st.db.ExecContext(ctx, fmt.Sprintf("PRAGMA user_version = %d", len(migrations)+5))
	st.Close()
	if _, err := OpenStore(ctx, path); err == nil || !strings.Contains(err.Error(), "newer") {
		t.Errorf("opening a newer schema: %v", err)
	}
}

func TestStoreProgressAndNextUnrated(t *testing.T) { forEachStore(t, testStoreProgressAndNextUnrated) }

func testStoreProgressAndNextUnrated(t *testing.T, st *Store) {
	ctx := context.Background()
	sp := SyntheticSplit("prog", 3, 2) // r-0001..r-0003, p-0001..p-0002
	save := func(item string, s Scores, flagged bool) {
		t.Helper()
		if _, err := st.Save(ctx, Rating{Split: "prog", Item: item, Annotator: "ann", Scores: s, Flagged: flagged}); err != nil {
			t.Fatal(err)
		}
	}
	save("r-0001", Scores{1, 1, 1, 1}, false)
	save("r-0002", Scores{1, NoScore, 1, 1}, true) // partial
	save("p-0002", Scores{50, 50, 50, 50}, false)
	p, err := st.RaterProgress(ctx, sp, "ann")
	if err != nil {
		t.Fatal(err)
	}
	want := RaterProgress{Result: TrackProgress{Total: 3, Rated: 1, Partial: 1, Flagged: 1}, Process: TrackProgress{Total: 2, Rated: 1}}
	if p != want {
		t.Errorf("progress = %+v, want %+v", p, want)
	}
	if p.Total().Rated != 2 || p.Total().Total != 5 {
		t.Errorf("total = %+v", p.Total())
	}
	order := []int{0, 1, 2, 3, 4} // r1 r2 r3 p1 p2
	pos, ok, err := st.NextUnrated(ctx, sp, "ann", order, -1)
	if err != nil || !ok || pos != 1 { // r-0002 is only partly rated
		t.Errorf("NextUnrated from start = %d, %v, %v", pos, ok, err)
	}
	pos, _, _ = st.NextUnrated(ctx, sp, "ann", order, 3)
	if pos != 1 { // wraps past the rated p-0002
		t.Errorf("NextUnrated after p-0001 = %d, want 1", pos)
	}
	for _, it := range []string{"r-0002", "r-0003", "p-0001"} {
		save(it, Scores{1, 1, 1, 1}, false)
	}
	if _, ok, _ := st.NextUnrated(ctx, sp, "ann", order, -1); ok {
		t.Error("everything is rated, yet NextUnrated found an item")
	}
}

// The crash test: a child process saves ratings in a loop and prints each
// one's sequence number once Save has returned; the parent SIGKILLs it at
// random moments. Afterwards the store must pass integrity_check and hold
// every acknowledged rating (or a later one for the same key).
const crashEnvDB, crashEnvRound = "JIGBENCH_VIGOR_CRASH_DB", "JIGBENCH_VIGOR_CRASH_ROUND"

const crashItems = 40

// crashRating is the rating with sequence number seq: its key and values
// are functions of seq, so the parent can check what it reads back.
func crashRating(seq int) Rating {
	n := seq % 1_000_000
	return Rating{
		Split:     "crash",
		Item:      fmt.Sprintf("item-%03d", n%crashItems),
		Annotator: fmt.Sprintf("ann-%d", (seq/1_000_000)%3),
		Scores:    Scores{n % 101, (n * 7) % 101, (n * 13) % 101, (n * 17) % 101},
		Flagged:   n%3 == 0,
		Comment:   "seq=" + strconv.Itoa(seq),
	}
}

func TestStoreCrashChild(t *testing.T) {
	path := os.Getenv(crashEnvDB)
	if path == "" {
		t.Skip("run by TestNoRatingLost as a child process")
	}
	round, _ := strconv.Atoi(os.Getenv(crashEnvRound))
	st, err := OpenStore(context.Background(), path)
	if err != nil {
		fmt.Println("error", err)
		os.Exit(3)
	}
	var mu sync.Mutex
	var wg sync.WaitGroup
	deadline := time.Now().Add(30 * time.Second) // never outlive a dead parent for long
	for w := range 2 {                           // two writers, to exercise the write lock
		wg.Add(1)
		go func() {
			defer wg.Done()
			for n := w; time.Now().Before(deadline); n += 2 {
				seq := round*1_000_000 + n
				if _, err := st.Save(context.Background(), crashRating(seq)); err != nil {
					fmt.Println("error", err)
					os.Exit(3)
				}
				mu.Lock()
				fmt.Fprintf(os.Stdout, "ack %d\n", seq)
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	os.Exit(0)
}

func TestNoRatingLost(t *testing.T) {
	if runtime.GOOS == "windows" || runtime.GOOS == "js" || runtime.GOOS == "wasip1" {
		t.Skip("needs child processes and SIGKILL")
	}
	rounds := 30
	if testing.Short() {
		rounds = 5
	}
	path := filepath.Join(t.TempDir(), "ratings.db")
	rng := rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), 7))
	lastAck := make(map[[2]string]int) // key → highest acknowledged seq
	totalAcks := 0
	for round := range rounds {
		cmd := exec.Command(os.Args[0], "-test.run=^TestStoreCrashChild$", "-test.count=1")
		cmd.Env = append(os.Environ(), crashEnvDB+"="+path, crashEnvRound+"="+strconv.Itoa(round))
		out, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		cmd.Stderr = os.Stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		ackc := make(chan int, 1<<16) // every acknowledged seq, closed at EOF
		childErr := make(chan string, 1)
		go func() {
			defer close(ackc)
			sc := bufio.NewScanner(out)
			for sc.Scan() {
				line := sc.Text()
				if s, ok := strings.CutPrefix(line, "ack "); ok {
					n, _ := strconv.Atoi(s)
					ackc <- n
				} else if strings.HasPrefix(line, "error ") {
					childErr <- line
				}
			}
		}()
		// Kill at a random moment. One round in five: at a random time,
		// often while the store opens. The others: once the child has
		// acknowledged a random number of saves (so a slow, loaded machine
		// still kills mid-loop), after a random extra delay.
		var seqs []int
		if round%5 == 0 {
			time.Sleep(time.Duration(rng.IntN(300)) * time.Millisecond)
		} else {
			target := 1 + rng.IntN(25)
			for len(seqs) < target {
				seq, ok := <-ackc
				if !ok {
					break
				}
				seqs = append(seqs, seq)
			}
			time.Sleep(time.Duration(rng.IntN(15)) * time.Millisecond)
		}
		cmd.Process.Kill() // SIGKILL
		cmd.Wait()
		for seq := range ackc {
			seqs = append(seqs, seq)
		}
		select {
		case e := <-childErr:
			t.Fatalf("round %d: the child failed: %s", round, e)
		default:
		}
		for _, seq := range seqs {
			r := crashRating(seq)
			k := [2]string{r.Item, r.Annotator}
			lastAck[k] = max(lastAck[k], seq)
		}
		totalAcks += len(seqs)

		st, err := OpenStore(context.Background(), path)
		if err != nil {
			t.Fatalf("round %d: reopening after SIGKILL: %v", round, err)
		}
		if err := st.CheckIntegrity(context.Background()); err != nil {
			t.Fatalf("round %d: %v", round, err)
		}
		for k, seq := range lastAck {
			got, err := st.Get(context.Background(), "crash", k[0], k[1])
			if err != nil {
				t.Fatalf("round %d: acknowledged rating %v (seq %d) lost: %v", round, k, seq, err)
			}
			stored, _ := strconv.Atoi(strings.TrimPrefix(got.Comment, "seq="))
			want := crashRating(stored)
			// A later save may have committed before the kill, unacknowledged.
			if stored < seq || got.Scores != want.Scores || got.Flagged != want.Flagged {
				t.Fatalf("round %d: %v holds seq %d %+v; acknowledged seq %d", round, k, stored, got, seq)
			}
		}
		st.Close()
	}
	if totalAcks < rounds/2 {
		t.Errorf("only %d ratings acknowledged in %d rounds: the child hardly ran", totalAcks, rounds)
	}
	t.Logf("%d rounds, %d acknowledged saves, %d keys checked", rounds, totalAcks, len(lastAck))
}
