package rules_test

import (
	"testing"

	"github.com/anychess/anychess/rules"
)

func TestFace(t *testing.T) {
	base := chessSpec(t)
	plain, err := rules.Compile(base)
	if err != nil {
		t.Fatal(err)
	}
	var configured *rules.Variant
	spec := base
	spec.Hooks.Configure = func(map[string]string) (*rules.Variant, error) { return configured, nil }
	hooked, err := rules.Compile(spec)
	if err != nil {
		t.Fatal(err)
	}
	configured = plain
	type face struct{ name string }
	f := &face{"mine"}
	withFace := hooked.WithFace(f)
	conf, err := withFace.Configure(map[string]string{"X": "y"})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		got  any
		want any
	}{
		{"a compiled variant has no face", hooked.Face(), nil},
		{"WithFace attaches it", withFace.Face(), f},
		{"WithFace leaves the original alone", hooked.Face() == nil, true},
		{"the start position is of the copy", withFace.Start().Variant() == withFace, true},
		{"Configure carries the face", conf.Face(), f},
		{"Configure of a variant without the hook keeps it", mustConf(t, plain.WithFace(f)).Face(), f},
	}
	for _, tc := range tests {
		if tc.got != tc.want {
			t.Errorf("%s: got %v, want %v", tc.name, tc.got, tc.want)
		}
	}
	if plain.Face() != nil {
		t.Errorf("Configure attached the face to the variant it returned")
	}
}

func mustConf(t *testing.T, v *rules.Variant) *rules.Variant {
	t.Helper()
	c, err := v.Configure(nil)
	if err != nil {
		t.Fatal(err)
	}
	return c
}
