package tune

import (
	"bufio"
	"context"
	"errors"
	"io"
	"os"
	"sync"
	"time"

	"github.com/anychess/anychess/search"
)

// gameJob plays or scores game g with eng and returns the text to append
// to the file, and what to record once that text is written (called with
// the pool's lock held, one commit at a time).
type gameJob func(eng *search.Engine, g int) (text string, commit func(), err error)

// runGames runs job for every game of todo on workers goroutines, each
// with its own engine of hashMB megabytes, appending each game's text to f
// and calling its commit under one lock. It stops handing out games when
// ctx ends, and returns the jobs' and the writes' errors, or ctx's.
func runGames(ctx context.Context, todo []int, workers, hashMB int, f io.Writer, job gameJob) error {
	var (
		mu   sync.Mutex
		werr error
	)
	jobs := make(chan int)
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			eng := search.New(hashMB)
			for g := range jobs {
				text, commit, err := job(eng, g)
				mu.Lock()
				switch {
				case err != nil:
					if ctx.Err() == nil {
						werr = errors.Join(werr, err)
					}
				default:
					if _, err := io.WriteString(f, text); err != nil {
						werr = errors.Join(werr, err)
					} else {
						commit()
					}
				}
				mu.Unlock()
			}
		}()
	}
feed:
	for _, g := range todo {
		select {
		case jobs <- g:
		case <-ctx.Done():
			break feed
		}
	}
	close(jobs)
	wg.Wait()
	if werr != nil {
		return werr
	}
	return ctx.Err()
}

// eta estimates the time left from elapsed, the time done games of this
// run took, and left, the games still to go (0 before the first is done).
func eta(elapsed time.Duration, done, left int) time.Duration {
	if done == 0 {
		return 0
	}
	return time.Duration(float64(elapsed) / float64(done) * float64(left))
}

// rewrite replaces the file path with what write writes (the finished
// games alone, dropping what an interruption left half written) through a
// temporary file, and returns the new file open for appending.
func rewrite(path string, write func(*bufio.Writer)) (*os.File, error) {
	f, err := os.Create(path + ".tmp")
	if err != nil {
		return nil, err
	}
	w := bufio.NewWriter(f)
	write(w)
	if err := w.Flush(); err != nil {
		f.Close()
		return nil, err
	}
	if err := f.Close(); err != nil {
		return nil, err
	}
	if err := os.Rename(path+".tmp", path); err != nil {
		return nil, err
	}
	return os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
}
