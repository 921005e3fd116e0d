package ui

import (
	"context"
	"sync"

	"github.com/jigbench/jigbench/core/vigor"
	"github.com/jigbench/jigbench/ui/ratesession"
)

// RatingStore is what the Rate and Agreement panes need of the ratings
// store. *vigor.Store has it; the app opens one at vigor.DefaultStorePath,
// tests inject a temporary or a failing one (Options.Ratings).
type RatingStore interface {
	// Save stores r and returns it as stored; a nil error means it is on disk.
	Save(ctx context.Context, r vigor.Rating) (vigor.Rating, error)
	// Ratings returns one annotator's ratings of a split by item id.
	Ratings(ctx context.Context, sp *vigor.Split, annotator string) (map[string]vigor.Rating, error)
	// List returns the ratings matching q.
	List(ctx context.Context, q vigor.Query) ([]vigor.Rating, error)
	// Annotators lists who has rated anything in a split.
	Annotators(ctx context.Context, split string) ([]string, error)
	// BindSplit records the split's identity (docs/formats.md); a
	// *vigor.SplitChangedError says other items were rated under its name.
	BindSplit(ctx context.Context, sp *vigor.Split) error
}

// storeTimeout bounds one store call, the same for every pane.
const storeTimeout = ratesession.StoreTimeout

// ratingService is where the Rate and Agreement panes find ratings: the
// app's store, opened on first use, and the demo split's store in memory.
type ratingService struct {
	opener *storeOpener
	demo   *vigor.MemStore
}

func newRatingService(open func() (RatingStore, error)) *ratingService {
	return &ratingService{opener: newStoreOpener(open), demo: vigor.NewMemStore()}
}

// store returns the demo's store or the app's; it may block opening the
// latter, so call it off the UI goroutine.
func (r *ratingService) store(demo bool) (RatingStore, error) {
	if demo {
		return r.demo, nil
	}
	return r.opener.get()
}

// storeOpener opens the ratings store once, on first use, off the UI
// goroutine. It is safe for concurrent use.
type storeOpener struct {
	open func() (RatingStore, error)

	mu    sync.Mutex
	store RatingStore
}

func newStoreOpener(open func() (RatingStore, error)) *storeOpener {
	if open == nil {
		open = openDefaultStore
	}
	return &storeOpener{open: open}
}

// get returns the store, opening it on the first call. A failure is not
// remembered: the next call tries again (the disk may have been freed).
func (o *storeOpener) get() (RatingStore, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.store != nil {
		return o.store, nil
	}
	s, err := o.open()
	if err != nil {
		return nil, err
	}
	o.store = s
	return s, nil
}

// reset forgets the store (closing it), so that the next get opens the
// store the settings now name.
func (o *storeOpener) reset() {
	o.mu.Lock()
	defer o.mu.Unlock()
	if c, ok := o.store.(interface{ Close() error }); ok {
		c.Close()
	}
	o.store = nil
}

func openDefaultStore() (RatingStore, error) {
	path, err := vigor.DefaultStorePath()
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(context.Background(), storeTimeout)
	defer cancel()
	s, err := vigor.OpenStore(ctx, path)
	if err != nil {
		return nil, err
	}
	return s, nil
}
