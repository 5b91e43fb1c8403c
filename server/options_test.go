package server

import (
	"errors"
	"testing"

	"github.com/anychess/anychess/catalog"
)

// TestVariantForOptions: a new game may set every option its variant has,
// not only those its record writes, and the lobby offers them all.
func TestVariantForOptions(t *testing.T) {
	s := &Server{reg: newUserVariants(catalog.MustDefault())}
	tests := []struct {
		variant string
		options map[string]string
		bad     bool
	}{
		{"crazychess", map[string]string{"KnightPath": "Mao", "DenialDrawRule": "true"}, false},
		{"crazychess", map[string]string{"Denial": "Soft"}, false},
		{"crazychess", map[string]string{"KnightPath": "Zigzag"}, true},
		{"crazychess", map[string]string{"Foo": "1"}, true},
		{"vazir", map[string]string{"QuietAfterFail": "0"}, false},
		{"chess", map[string]string{"KnightPath": "Mao"}, true},
	}
	for _, tt := range tests {
		v, err := s.variantFor(tt.variant, tt.options)
		if tt.bad {
			if !errors.Is(err, errBadOption) {
				t.Errorf("%s %v: err %v, want a bad option", tt.variant, tt.options, err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s %v: %v", tt.variant, tt.options, err)
			continue
		}
		for name, want := range tt.options {
			found := false
			for _, o := range optionInfos(v) {
				if o.Name == name {
					found = true
					if o.Value != want {
						t.Errorf("%s: %s = %q, want %q", tt.variant, name, o.Value, want)
					}
				}
			}
			if !found {
				t.Errorf("%s: the lobby does not offer %s", tt.variant, name)
			}
		}
	}
}
