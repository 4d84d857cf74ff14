package main

import (
	"os"
	"path/filepath"
	"testing"

	"burescope/ui/cli"
)

func TestIsCLI(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "data.csv")
	if err := os.WriteFile(file, []byte("a,b\n1,2\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var cmd string
	for _, name := range []string{"fit", "bench", "datasets", "render"} {
		if cli.Has(name) {
			cmd = name
			break
		}
	}
	tests := []struct {
		args []string
		want bool
	}{
		{nil, false},
		{[]string{"--screenshot", "s.png", "--after", "5s"}, false},
		{[]string{"--dataset", "builtin:iris"}, false},
		{[]string{"builtin:iris"}, false},
		{[]string{"wordnet:/usr/share/wordnet"}, false},
		{[]string{"wordnet"}, true},
		{[]string{file}, false},
		{[]string{"help"}, true},
		{[]string{"-h"}, true},
		{[]string{"no-such-command"}, true}, // the CLI reports it as unknown
	}
	if cmd != "" {
		tests = append(tests, struct {
			args []string
			want bool
		}{[]string{cmd, "x"}, true})
	}
	for _, tc := range tests {
		if got := isCLI(tc.args); got != tc.want {
			t.Errorf("isCLI(%q) = %v, want %v", tc.args, got, tc.want)
		}
	}
}
