package gpucompute

import (
	"errors"
	"strings"
	"syscall"
	"testing"
)

// fakeContext stands in for a GL context in tests of the thread itself.
type fakeContext struct{ released chan int }

func (f *fakeContext) kind() string { return "fake" }
func (f *fakeContext) release()     { f.released <- syscall.Gettid() }

// TestThreadRunsEverythingOnOneOSThread checks the context-ownership
// contract: open, every call and release run on the same OS thread,
// panics become errors, and calls after stop fail cleanly.
func TestThreadRunsEverythingOnOneOSThread(t *testing.T) {
	fc := &fakeContext{released: make(chan int, 1)}
	var openTid int
	th, c, err := startThread(func() (glContext, error) {
		openTid = syscall.Gettid()
		return fc, nil
	})
	if err != nil || c != fc {
		t.Fatalf("startThread: %v, %v", c, err)
	}
	for k := 0; k < 20; k++ {
		var tid int
		if err := th.call(func() error { tid = syscall.Gettid(); return nil }); err != nil {
			t.Fatal(err)
		}
		if tid != openTid {
			t.Fatalf("call %d ran on thread %d, the context was made on %d", k, tid, openTid)
		}
	}
	want := errors.New("from the GL thread")
	if err := th.call(func() error { return want }); err != want {
		t.Errorf("call error = %v, want %v", err, want)
	}
	err = th.call(func() error { panic("boom") })
	if err == nil || !strings.Contains(err.Error(), "boom") {
		t.Errorf("panicking call: err = %v", err)
	}
	th.stop()
	if tid := <-fc.released; tid != openTid {
		t.Errorf("release ran on thread %d, want %d", tid, openTid)
	}
	if err := th.call(func() error { return nil }); !errors.Is(err, errClosed) {
		t.Errorf("call after stop: err = %v, want %v", err, errClosed)
	}
}

// TestThreadOpenFailure checks that a failing or panicking open is an
// error and leaves no thread behind to call.
func TestThreadOpenFailure(t *testing.T) {
	for _, open := range []func() (glContext, error){
		func() (glContext, error) { return nil, errors.New("no display") },
		func() (glContext, error) { panic("driver crashed") },
	} {
		th, c, err := startThread(open)
		if err == nil || th != nil || c != nil {
			t.Errorf("startThread with a failing open: %v, %v, %v", th, c, err)
		}
	}
}
