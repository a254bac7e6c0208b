package sweep

import (
	"context"
	"errors"
	"runtime"
	"sync"
)

// Each is the worker pool of every command that runs many simulations (compare, sweep,
// validate): it calls do(ctx, i) for i = 0..n-1 on jobs goroutines (<= 0: one per core),
// handing the indexes out in order. The first error stops handing out work and cancels the
// context the calls in flight were given; so does cancelling ctx (Ctrl-C). Each returns after
// every call has returned: the first error, or ctx's error when it was cancelled and no call
// failed for another reason.
func Each(ctx context.Context, jobs, n int, do func(ctx context.Context, i int) error) error {
	if jobs <= 0 {
		jobs = runtime.NumCPU()
	}
	inner, cancel := context.WithCancel(ctx)
	defer cancel()
	var (
		mu    sync.Mutex
		first error
		wg    sync.WaitGroup
	)
	next := make(chan int)
	for w := 0; w < min(jobs, n); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				if inner.Err() != nil {
					continue
				}
				if err := do(inner, i); err != nil {
					mu.Lock()
					if first == nil || errors.Is(first, context.Canceled) && !errors.Is(err, context.Canceled) {
						first = err
					}
					mu.Unlock()
					cancel()
				}
			}
		}()
	}
feed:
	for i := 0; i < n; i++ {
		select {
		case next <- i:
		case <-inner.Done():
			break feed
		}
	}
	close(next)
	wg.Wait()
	if first != nil && !errors.Is(first, context.Canceled) {
		return first
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	return first
}
