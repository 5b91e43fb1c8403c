package server

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"strings"
)

// frameKeys are the keys a client frame may have, spelt as clientMsg's
// JSON tags spell them.
var frameKeys = jsonKeys(reflect.TypeFor[clientMsg]())

// jsonKeys returns the JSON keys of a struct type's fields.
func jsonKeys(t reflect.Type) map[string]bool {
	keys := map[string]bool{}
	for f := range t.Fields() {
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == "" {
			name = f.Name
		}
		keys[name] = true
	}
	return keys
}

// checkObject reports whether data is exactly one JSON object whose keys
// are in keys, spelt exactly (encoding/json alone matches keys in any
// case), each at most once, with nothing but white space after it.
func checkObject(data []byte, keys map[string]bool) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return errors.New("a frame is a JSON object")
	}
	seen := map[string]bool{}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return err
		}
		key, _ := tok.(string)
		switch {
		case !keys[key]:
			return fmt.Errorf("unknown key %q (keys are lower case)", key)
		case seen[key]:
			return fmt.Errorf("key %q twice", key)
		}
		seen[key] = true
		var skip json.RawMessage
		if err := dec.Decode(&skip); err != nil {
			return err
		}
	}
	if _, err := dec.Token(); err != nil { // the closing brace
		return err
	}
	if _, err := dec.Token(); err != io.EOF {
		return errors.New("one JSON object per frame, and nothing after it")
	}
	return nil
}
