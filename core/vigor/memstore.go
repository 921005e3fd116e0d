package vigor

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"sync"
	"time"
)

// MemStore keeps ratings in memory, with the Store's checks and ordering:
// the demo split is rated into one, so a first-time rater can try rating
// without writing into the real ratings database, and pictures of the app
// do not depend on what was rated before. It is safe for concurrent use.
type MemStore struct {
	mu      sync.Mutex
	ratings map[ratingKey]Rating
	revs    []Revision
	splits  map[string][]string // name → identities opened, first first
	now     func() time.Time
}

type ratingKey struct{ split, digest, item, annotator string }

// NewMemStore makes an empty store.
func NewMemStore() *MemStore {
	return &MemStore{ratings: make(map[ratingKey]Rating), splits: make(map[string][]string), now: time.Now}
}

// Save is Store.Save: it stamps Updated and keeps Created of an earlier rating.
func (s *MemStore) Save(_ context.Context, r Rating) (Rating, error) {
	if err := checkRating(&r); err != nil {
		return Rating{}, fmt.Errorf("save rating: %w", err)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	k := r.key()
	now := s.now().UTC()
	r.Created, r.Updated = now, now
	old, found := s.ratings[k]
	if found {
		r.Created = old.Created
	}
	s.ratings[k] = r
	s.revs = append(s.revs, Revision{ID: int64(len(s.revs) + 1), Split: r.Split, SplitDigest: r.SplitDigest, Item: r.Item, Annotator: r.Annotator,
		Action: ActionSave, At: now, Old: valuesOf(oldOf(old, found)), New: valuesOf(&r)})
	return r, nil
}

// BindSplit is Store.BindSplit: it records sp's identity, attaches the
// ratings of its name saved without one, and returns a *SplitChangedError
// when other identities of the name were opened before.
func (s *MemStore) BindSplit(_ context.Context, sp *Split) error {
	digest, err := sp.Digest()
	if err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for k, r := range s.ratings {
		if k.split == sp.Name && k.digest == "" {
			delete(s.ratings, k)
			r.SplitDigest, k.digest = digest, digest
			s.ratings[k] = r
		}
	}
	known := s.splits[sp.Name]
	others := slices.DeleteFunc(slices.Clone(known), func(d string) bool { return d == digest })
	if !slices.Contains(known, digest) {
		s.splits[sp.Name] = append(known, digest)
	}
	if len(others) > 0 {
		return &SplitChangedError{Name: sp.Name, Digest: digest, Others: others}
	}
	return nil
}

// Revisions is Store.Revisions.
func (s *MemStore) Revisions(_ context.Context, q Query) ([]Revision, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	q.FlaggedOnly = false // as Store.Revisions
	var revs []Revision
	for _, rv := range s.revs {
		if q.Matches(Rating{Split: rv.Split, SplitDigest: rv.SplitDigest, Item: rv.Item, Annotator: rv.Annotator}) {
			revs = append(revs, rv)
		}
	}
	return revs, nil
}

// List is Store.List: the ratings matching q, ordered by split, annotator, item.
func (s *MemStore) List(_ context.Context, q Query) ([]Rating, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	var rs []Rating
	for _, r := range s.ratings {
		if q.Matches(r) {
			rs = append(rs, r)
		}
	}
	sortRatings(rs)
	return rs, nil
}

// Ratings is Store.Ratings; a split without a known identity (its files
// unread) selects by name alone.
func (s *MemStore) Ratings(ctx context.Context, sp *Split, annotator string) (map[string]Rating, error) {
	digest, _ := sp.Digest()
	rs, err := s.List(ctx, Query{Split: sp.Name, Digest: digest, Annotator: annotator})
	return byItem(rs), err
}

// Annotators is Store.Annotators: who has rated anything in split, sorted.
func (s *MemStore) Annotators(ctx context.Context, split string) ([]string, error) {
	rs, err := s.List(ctx, Query{Split: split})
	return annotatorsOf(rs), err
}

// Matches reports whether r is one of the ratings q selects: the meaning
// of a query for every store (Store.List says it in SQL).
func (q Query) Matches(r Rating) bool {
	return (q.Split == "" || q.Split == r.Split) && (q.Digest == "" || r.SplitDigest == q.Digest || r.SplitDigest == "") &&
		(q.Annotator == "" || q.Annotator == r.Annotator) &&
		(q.Item == "" || q.Item == r.Item) && (!q.FlaggedOnly || r.Flagged)
}

// sortRatings puts ratings in the order every store lists them.
func sortRatings(rs []Rating) {
	slices.SortFunc(rs, func(a, b Rating) int {
		return cmp.Or(cmp.Compare(a.Split, b.Split), cmp.Compare(a.Annotator, b.Annotator), cmp.Compare(a.Item, b.Item),
			cmp.Compare(a.SplitDigest, b.SplitDigest))
	})
}

// byItem keys one annotator's ratings of a split by item id.
func byItem(rs []Rating) map[string]Rating {
	m := make(map[string]Rating, len(rs))
	for _, r := range rs {
		m[r.Item] = r
	}
	return m
}

// annotatorsOf lists the distinct annotators of ratings sorted by annotator.
func annotatorsOf(rs []Rating) []string {
	var names []string
	for _, r := range rs {
		if len(names) == 0 || names[len(names)-1] != r.Annotator {
			names = append(names, r.Annotator)
		}
	}
	return names
}
