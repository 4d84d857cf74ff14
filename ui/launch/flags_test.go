package launch

import (
	"io"
	"strings"
	"testing"
	"time"
)

func TestParseFlags(t *testing.T) {
	tests := []struct {
		args    []string
		want    Flags
		wantErr string
	}{
		{args: nil, want: Flags{After: 5 * time.Second, Width: 1280, Height: 800}},
		{args: []string{"--screenshot", "s.png", "--after", "2s"},
			want: Flags{Screenshot: "s.png", After: 2 * time.Second, Width: 1280, Height: 800}},
		{args: []string{"--dataset", "builtin:iris", "--backend", "cpu"},
			want: Flags{Dataset: "builtin:iris", Backend: "cpu", After: 5 * time.Second, Width: 1280, Height: 800}},
		{args: []string{"data.csv"},
			want: Flags{Dataset: "data.csv", After: 5 * time.Second, Width: 1280, Height: 800}},
		{args: []string{"--width", "900", "--height", "600"},
			want: Flags{After: 5 * time.Second, Width: 900, Height: 600}},
		{args: []string{"data.csv", "--width", "900"},
			want: Flags{Dataset: "data.csv", After: 5 * time.Second, Width: 900, Height: 800}},
		{args: []string{"--height", "700", "data.csv", "--backend", "cpu", "--width", "900"},
			want: Flags{Dataset: "data.csv", Backend: "cpu", After: 5 * time.Second, Width: 900, Height: 700}},
		{args: []string{"--", "--width"},
			want: Flags{Dataset: "--width", After: 5 * time.Second, Width: 1280, Height: 800}},
		{args: []string{"a.csv", "b.csv"}, wantErr: "unexpected arguments"},
		{args: []string{"a.csv", "--width", "900", "b.csv"}, wantErr: "unexpected arguments"},
		{args: []string{"data.csv", "--nope"}, wantErr: "flag provided but not defined"},
		{args: []string{"--after", "-1s"}, wantErr: "--after -1s"},
		{args: []string{"--backend", "cuda"}, wantErr: `--backend "cuda"`},
		{args: []string{"--width", "10"}, wantErr: "window size"},
		{args: []string{"--nope"}, wantErr: "flag provided but not defined"},
	}
	for _, tc := range tests {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			got, err := ParseFlags(tc.args, io.Discard)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Errorf("%q: error %v, want %q", tc.args, err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Errorf("%q: %v", tc.args, err)
				return
			}
			if got != tc.want {
				t.Errorf("%q: got %+v, want %+v", tc.args, got, tc.want)
			}
		})
	}
}
