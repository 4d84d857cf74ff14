package gpucompute

import (
	"errors"
	"fmt"
	"runtime"
)

// glContext is an OpenGL context current on the GL thread.
type glContext interface {
	kind() string // "egl" or "glfw"
	release()     // runs on the GL thread
}

// errClosed is returned by calls on a closed backend.
var errClosed = errors.New("gpucompute: backend is closed")

// glThread is one goroutine locked to an OS thread on which the context is
// current; every GL call of a backend runs there, as a closure sent over a
// channel, one at a time.
type glThread struct {
	jobs chan func()
	quit chan struct{} // closed by stop
	done chan struct{} // closed when the thread has ended
}

// startThread starts the GL thread and runs open on it. On failure the
// thread has already ended.
func startThread(open func() (glContext, error)) (*glThread, glContext, error) {
	t := &glThread{jobs: make(chan func()), quit: make(chan struct{}), done: make(chan struct{})}
	type result struct {
		c   glContext
		err error
	}
	first := make(chan result, 1)
	go func() {
		runtime.LockOSThread() // never unlocked: the thread dies with the goroutine
		defer close(t.done)
		c, err := safeOpen(open)
		first <- result{c, err}
		if err != nil {
			return
		}
		for {
			select {
			case f := <-t.jobs:
				f()
			case <-t.quit:
				c.release()
				return
			}
		}
	}()
	r := <-first
	if r.err != nil {
		return nil, nil, r.err
	}
	return t, r.c, nil
}

func safeOpen(open func() (glContext, error)) (c glContext, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("gpucompute: opening a GL context panicked: %v", r)
		}
	}()
	return open()
}

// call runs f on the GL thread and returns its error; a panic inside f
// becomes an error.
func (t *glThread) call(f func() error) error {
	if t == nil {
		return errClosed
	}
	res := make(chan error, 1)
	job := func() {
		defer func() {
			if r := recover(); r != nil {
				res <- fmt.Errorf("gpucompute: GL call panicked: %v", r)
			}
		}()
		res <- f()
	}
	select {
	case t.jobs <- job:
	case <-t.done:
		return errClosed
	}
	return <-res
}

// stop ends the thread after releasing the context; later calls return
// errClosed. It must not be called twice.
func (t *glThread) stop() {
	if t == nil {
		return
	}
	close(t.quit)
	<-t.done
}
