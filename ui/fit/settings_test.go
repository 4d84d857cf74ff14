package fit

import (
	"strings"
	"testing"
)

func TestDefaultSettingsValid(t *testing.T) {
	if err := DefaultSettings().Validate(); err != nil {
		t.Fatal(err)
	}
}

func TestSettingsValidate(t *testing.T) {
	tests := []struct {
		name    string
		edit    func(*Settings)
		wantErr string // substring naming the setting; "" = valid
	}{
		{"dim 3", func(s *Settings) { s.Dim = 3 }, ""},
		{"dim 4", func(s *Settings) { s.Dim = 4 }, "dimension: 4"},
		{"empty dataset", func(s *Settings) { s.Dataset = " " }, "dataset"},
		{"bad family", func(s *Settings) { s.Family = "cauchy" }, `family: "cauchy"`},
		{"custom tau 0", func(s *Settings) { s.Family, s.Tau = "custom", 0 }, "tau: 0"},
		{"custom tau ok", func(s *Settings) { s.Family, s.Tau = "custom", 0.3 }, ""},
		{"tau ignored when not custom", func(s *Settings) { s.Tau = -1 }, ""},
		{"negative eps", func(s *Settings) { s.Eps = -0.1 }, "eps: -0.1"},
		{"zero rate is the default", func(s *Settings) { s.LearningRate = 0 }, ""},
		{"negative rate", func(s *Settings) { s.LearningRate = -1 }, "learning rate"},
		{"zero iterations", func(s *Settings) { s.Iterations = 0 }, "iterations: 0"},
		{"bad backend", func(s *Settings) { s.Backend = "cuda" }, `backend: "cuda"`},
		{"bad view", func(s *Settings) { s.View = "x" }, "view"},
		{"bad colour", func(s *Settings) { s.ColorBy = "x" }, "colour by"},
		{"bad kind", func(s *Settings) { s.Kind = "graph" }, `kind: "graph"`},
		{"bad standardise", func(s *Settings) { s.Standardise = "yes" }, "standardise"},
		{"bad level", func(s *Settings) { s.Level = 0 }, "gaussian level"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := DefaultSettings()
			tc.edit(&s)
			err := s.Validate()
			switch {
			case tc.wantErr == "" && err != nil:
				t.Errorf("%s: unexpected error %v", tc.name, err)
			case tc.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tc.wantErr)):
				t.Errorf("%s: error %v, want one containing %q", tc.name, err, tc.wantErr)
			}
		})
	}
}

func TestSettingsModelChanged(t *testing.T) {
	tests := []struct {
		name string
		edit func(*Settings)
		want bool
	}{
		{"nothing", func(*Settings) {}, false},
		{"view only", func(s *Settings) { s.View = "precision"; s.Labels = false; s.ColorBy = "none" }, false},
		{"level only", func(s *Settings) { s.Level = 2 }, false},
		{"dataset", func(s *Settings) { s.Dataset = "builtin:iris" }, true},
		{"dim", func(s *Settings) { s.Dim = 3 }, true},
		{"family", func(s *Settings) { s.Family = "gaussian" }, true},
		{"tau when not custom", func(s *Settings) { s.Tau = 5 }, false},
		{"standardise", func(s *Settings) { s.Standardise = "off" }, true},
		{"kind", func(s *Settings) { s.Kind = "distances" }, true},
		{"seed", func(s *Settings) { s.Seed = 7 }, true},
		{"backend", func(s *Settings) { s.Backend = "cpu" }, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			a := DefaultSettings()
			b := a
			tc.edit(&b)
			if got := a.ModelChanged(b); got != tc.want {
				t.Errorf("%s: ModelChanged = %v, want %v", tc.name, got, tc.want)
			}
		})
	}
}
