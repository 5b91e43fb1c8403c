package store

import (
	"context"
	"errors"
	"slices"
	"testing"
	"time"
)

func TestDefinitions(t *testing.T) {
	ctx := context.Background()
	for name, open := range backends(t) {
		t.Run(name, func(t *testing.T) {
			s := open(t)
			defer s.Close()
			d, ok := s.(Definitions)
			if !ok {
				t.Fatal("the store keeps no definitions")
			}
			if _, err := d.Definition(ctx, "ab"); !errors.Is(err, ErrNotFound) {
				t.Errorf("a missing definition: %v, want ErrNotFound", err)
			}
			for _, text := range []string{"first", "second"} { // kept once: the first stays
				if err := d.PutDefinition(ctx, "ab", []byte(text)); err != nil {
					t.Fatal(err)
				}
			}
			if text, err := d.Definition(ctx, "ab"); err != nil || string(text) != "first" {
				t.Errorf("definition ab: %q, %v; want first", text, err)
			}
			g := newGame("g1")
			g.Definition = "ab"
			if err := s.Create(ctx, g); err != nil {
				t.Fatal(err)
			}
			if got, _, err := s.Load(ctx, "g1"); err != nil || got.Definition != "ab" {
				t.Errorf("game's definition: %+v, %v", got, err)
			}
			if list, err := s.List(ctx, Filter{}); err != nil || len(list) != 1 || list[0].Definition != "ab" {
				t.Errorf("listed: %+v, %v", list, err)
			}
			at := time.UnixMilli(1_700_000_000_000).UTC()
			for i, v := range []SavedVariant{
				{Name: "mini", Text: []byte("one"), Client: "1.2.3.4", Saved: at},
				{Name: "other", Text: []byte("two"), Client: "1.2.3.4", Saved: at.Add(time.Second)},
				{Name: "mini", Text: []byte("three"), Client: "5.6.7.8", Saved: at.Add(2 * time.Second), Definition: "cd"},
			} {
				if err := d.SaveVariant(ctx, v); err != nil {
					t.Fatalf("save %d: %v", i, err)
				}
			}
			saved, err := d.SavedVariants(ctx)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, v := range saved {
				got = append(got, v.Name+"="+string(v.Text)+"@"+v.Client)
			}
			if want := []string{"other=two@1.2.3.4", "mini=three@5.6.7.8"}; !slices.Equal(got, want) {
				t.Errorf("saved variants %v, want %v", got, want)
			}
		})
	}
}
