package server

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"regexp"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/anychess/anychess/eval"
	"github.com/anychess/anychess/rules"
	"github.com/anychess/anychess/server/store"
	"github.com/anychess/anychess/variant"
)

// VariantConfig bounds the variants users save on the server and the
// checks of the variant editor (POST /api/variants/check, POST
// /api/variants). Zero fields take defaults; a negative field turns that
// bound off.
type VariantConfig struct {
	// Limits bound each saved or checked variant (variant.Limits; its
	// MaxBytes, default 64 KiB, bounds the text).
	Limits variant.Limits
	// SavesPerHour is how many variants one client may save in an hour
	// (default 20, with a burst of as many).
	SavesPerHour int
	// MaxSaved is how many saved variants the server keeps at most
	// (default 1000); a save of a new name beyond it is refused.
	MaxSaved int
	// CheckNodes bounds the perft of a check: depth 3 is counted only if
	// depth 2 has at most this many positions (default 20,000), so a
	// check lists the moves of at most that many positions.
	CheckNodes int
	// Checks is how many checks may run at once (default: half the
	// CPUs, at least 1); others wait their turn.
	Checks int
	// EngineMaxLevel is the highest engine level a game of a saved
	// variant may ask for (default 6, whose searches take at most 720 ms).
	EngineMaxLevel int
}

func (c VariantConfig) withDefaults() VariantConfig {
	set := func(p *int, d int) {
		if *p == 0 {
			*p = d
		}
	}
	set(&c.SavesPerHour, 20)
	set(&c.MaxSaved, 1000)
	set(&c.CheckNodes, 20000)
	set(&c.Checks, max(runtime.NumCPU()/2, 1))
	set(&c.EngineMaxLevel, 6)
	c.Limits = c.Limits.WithDefaults()
	return c
}

// userVariants is the server's registry: the one it was given, and the
// variants users saved, added and replaced under a mutex (a
// variant.Registry is not safe for concurrent writes). A saved variant
// never takes a name of the given registry.
type userVariants struct {
	base Registry

	mu    sync.RWMutex
	saved map[string]*savedVariant // by name
	order []string                 // names in order of their first save
	defs  map[*rules.Variant]definition
	// miss, if set, is asked for a name neither the given registry nor
	// the saved variants have (a node of a cluster reads the store).
	miss func(name string) *rules.Variant

	missMu   sync.Mutex // held by savedOnMiss
	missRead time.Time  // its last read of the store
	// readMu orders the reads of the store's saved variants (readSaved):
	// a read that saw an older version never registers it after one that
	// saw a newer.
	readMu sync.Mutex
	// readQueued is set while a read for another node's notice waits
	// for readMu: the notices meanwhile need no read of their own.
	readQueued atomic.Bool
}

// setMiss sets the function asked for a variant the registry lacks.
func (u *userVariants) setMiss(f func(name string) *rules.Variant) {
	u.mu.Lock()
	defer u.mu.Unlock()
	u.miss = f
}

// savedVariant is a variant a user saved, with its definition as it
// stood when the variant was compiled (its base may be replaced since).
type savedVariant struct {
	v    *rules.Variant
	text []byte
	def  definition
}

// definition is the exact definition of a data variant as games record
// it (variant.Definition), and its hash.
type definition struct {
	hash string
	text []byte
}

// fileRegistry is a registry that keeps its variants' files
// (variant.Registry).
type fileRegistry interface {
	File(name string) ([]byte, bool)
}

func newUserVariants(base Registry) *userVariants {
	return &userVariants{base: base, saved: map[string]*savedVariant{}, defs: map[*rules.Variant]definition{}}
}

// Get implements Registry.
func (u *userVariants) Get(name string) (*rules.Variant, error) {
	v, err := u.base.Get(name)
	if err == nil {
		return v, nil
	}
	u.mu.RLock()
	sv := u.saved[strings.ToLower(name)]
	miss := u.miss
	u.mu.RUnlock()
	if sv != nil {
		return sv.v, nil
	}
	if miss != nil {
		if v := miss(name); v != nil {
			return v, nil
		}
	}
	return nil, err
}

// Variants implements Registry: the given registry's, then the saved ones
// in order of their first save.
func (u *userVariants) Variants() []*rules.Variant {
	out := u.base.Variants()
	u.mu.RLock()
	defer u.mu.RUnlock()
	for _, n := range u.order {
		out = append(out, u.saved[n].v)
	}
	return out
}

// Aliases implements Registry (a saved variant has none).
func (u *userVariants) Aliases(v *rules.Variant) []string {
	u.mu.RLock()
	sv := u.saved[v.Name()]
	u.mu.RUnlock()
	if sv != nil && sv.v == v {
		return []string{v.Name()}
	}
	return u.base.Aliases(v)
}

// isSaved reports whether name is a saved variant's.
func (u *userVariants) isSaved(name string) bool {
	u.mu.RLock()
	defer u.mu.RUnlock()
	return u.saved[strings.ToLower(name)] != nil
}

// taken reports whether name is a name or alias of the given registry.
func (u *userVariants) taken(name string) bool {
	_, err := u.base.Get(name)
	return err == nil
}

// file returns the file text of a variant: a saved one's, or the given
// registry's; it is the resolver of bases.
func (u *userVariants) file(name string) ([]byte, bool) {
	u.mu.RLock()
	sv := u.saved[strings.ToLower(name)]
	u.mu.RUnlock()
	if sv != nil {
		return sv.text, true
	}
	if f, ok := u.base.(fileRegistry); ok {
		return f.File(name)
	}
	return nil, false
}

// compile reads and compiles a variant file, its base looked up among the
// registry's variants and the saved ones.
func (u *userVariants) compile(text []byte, origin string) (*rules.Variant, error) {
	spec, err := variant.Parse(text, origin, u.file)
	if err != nil {
		return nil, err
	}
	v, err := rules.Compile(spec)
	if err != nil {
		return nil, fmt.Errorf("%w: %s: %v", variant.ErrFile, origin, err)
	}
	return v, nil
}

// save registers v, whose file is text, under its name, replacing the
// saved variant of that name; def is its definition, made when v was
// compiled.
func (u *userVariants) save(v *rules.Variant, text []byte, def definition) {
	u.mu.Lock()
	defer u.mu.Unlock()
	if u.saved[v.Name()] == nil {
		u.order = append(u.order, v.Name())
	}
	u.saved[v.Name()] = &savedVariant{v: v, text: text, def: def}
}

// compileSaved compiles a file to be saved and makes its definition, its
// base looked up once for both.
func (u *userVariants) compileSaved(text []byte, origin string) (*rules.Variant, definition, error) {
	def, err := variant.Definition(text, origin, u.file)
	if err != nil {
		return nil, definition{}, err
	}
	v, err := u.compile(def, origin)
	if err != nil {
		return nil, definition{}, err
	}
	return v, definition{hash: variant.DefinitionHash(def), text: def}, nil
}

// definitionOf returns the definition of v, a variant of the registry
// (its hash "" for a variant without a file).
func (u *userVariants) definitionOf(v *rules.Variant) (definition, error) {
	u.mu.RLock()
	d, ok := u.defs[v]
	if sv := u.saved[v.Name()]; sv != nil && sv.v == v {
		d, ok = sv.def, true
	}
	u.mu.RUnlock()
	if ok {
		return d, nil
	}
	text, hash, ok, err := variant.DefinitionOf(u.file, v.Name())
	if err != nil {
		return definition{}, err
	}
	if ok {
		d = definition{hash: hash, text: text}
	}
	u.mu.Lock()
	if len(u.defs) < 4096 { // the given registry's variants: a bounded number
		u.defs[v] = d
	}
	u.mu.Unlock()
	return d, nil
}

// definitions is the server's cache of the definitions it compiled from
// the store (games played under a definition the registry no longer
// has) and of those it knows stored.
type definitions struct {
	mu       sync.Mutex
	compiled map[string]*rules.Variant
	stored   map[string]bool
}

// maxCompiledDefinitions bounds the compiled definitions kept in memory.
const maxCompiledDefinitions = 256

// defStore returns the store's Definitions, or nil if it keeps none.
func (s *Server) defStore() store.Definitions {
	d, _ := s.cfg.Store.(store.Definitions)
	return d
}

// keepDefinition stores d (once) before a game records it; false if the
// store keeps no definitions.
func (s *Server) keepDefinition(ctx context.Context, d definition) (bool, error) {
	ds := s.defStore()
	if ds == nil || d.hash == "" {
		return false, nil
	}
	s.defs.mu.Lock()
	done := s.defs.stored[d.hash]
	s.defs.mu.Unlock()
	if done {
		return true, nil
	}
	if err := ds.PutDefinition(ctx, d.hash, d.text); err != nil {
		return false, err
	}
	s.defs.mu.Lock()
	s.defs.stored[d.hash] = true
	s.defs.mu.Unlock()
	return true, nil
}

// variantOfGame returns the variant a stored game is played under, with
// its options, and the text of its definition (nil for a variant without
// a file, and a game stored before definitions were kept): the registry's
// variant of the game's name if its definition is the one the game
// recorded, else the recorded definition, read from the store and
// compiled. So a variant file edited or replaced since never changes a
// game played before.
func (s *Server) variantOfGame(ctx context.Context, rec *store.Game) (*rules.Variant, []byte, error) {
	v, err := s.reg.Get(rec.Variant)
	var def []byte
	if rec.Definition != "" {
		var cur definition
		if err == nil {
			cur, err = s.reg.definitionOf(v)
		}
		if err != nil || cur.hash != rec.Definition {
			if v, def, err = s.compileDefinition(ctx, rec.Definition); err != nil {
				return nil, nil, fmt.Errorf("game %s: variant %s: definition %s: %w", rec.ID, rec.Variant, rec.Definition, err)
			}
		} else {
			def = cur.text
		}
	}
	if err != nil {
		return nil, nil, fmt.Errorf("%w: %w", errUnknownVariant, err)
	}
	v, err = configure(v, rec.Options)
	return v, def, err
}

// compileDefinition returns the variant of the stored definition hash and
// its text.
func (s *Server) compileDefinition(ctx context.Context, hash string) (*rules.Variant, []byte, error) {
	ds := s.defStore()
	if ds == nil {
		return nil, nil, errors.New("the store keeps no definitions")
	}
	text, err := ds.Definition(ctx, hash)
	if err != nil {
		return nil, nil, err
	}
	if got := variant.DefinitionHash(text); got != hash {
		return nil, nil, fmt.Errorf("the stored text is %s", got)
	}
	s.defs.mu.Lock()
	v := s.defs.compiled[hash]
	s.defs.mu.Unlock()
	if v != nil {
		return v, text, nil
	}
	if v, err = s.reg.compile(text, "definition "+hash); err != nil {
		return nil, nil, err
	}
	s.defs.mu.Lock()
	if len(s.defs.compiled) >= maxCompiledDefinitions {
		clear(s.defs.compiled)
	}
	s.defs.compiled[hash] = v
	s.defs.mu.Unlock()
	return v, text, nil
}

// savedVariant compiles a saved variant from the definition it was saved
// with (so that a base replaced since does not change it), or from its
// text if it has none.
func (s *Server) savedVariant(ctx context.Context, ds store.Definitions, sv store.SavedVariant) (*rules.Variant, definition, error) {
	origin := "saved variant " + sv.Name
	if sv.Definition == "" {
		return s.reg.compileSaved(sv.Text, origin)
	}
	text, err := ds.Definition(ctx, sv.Definition)
	if err != nil {
		return nil, definition{}, err
	}
	if got := variant.DefinitionHash(text); got != sv.Definition {
		return nil, definition{}, fmt.Errorf("its stored definition is %s, not %s", got, sv.Definition)
	}
	v, err := s.reg.compile(text, origin)
	return v, definition{hash: sv.Definition, text: text}, err
}

// loadSaved registers the variants saved in the store, when the server
// starts; one that no longer compiles is logged and left out: its games
// replay under their recorded definitions.
func (s *Server) loadSaved(ctx context.Context) error {
	return s.readSaved(ctx)
}

// readSaved registers the variants saved in the store that the registry
// does not have as saved, and those saved again since (by another node
// of a cluster); one that no longer compiles is logged and left out.
func (s *Server) readSaved(ctx context.Context) error {
	ds := s.defStore()
	if ds == nil {
		return nil
	}
	s.reg.readMu.Lock()
	defer s.reg.readMu.Unlock()
	s.reg.readQueued.Store(false) // a notice from now on needs a read of its own
	saved, err := ds.SavedVariants(ctx)
	if err != nil {
		return err
	}
	for _, sv := range saved {
		if s.reg.savedAs(sv.Name, sv.Definition) {
			continue
		}
		v, def, err := s.savedVariant(ctx, ds, sv)
		if err == nil && v.Name() != sv.Name {
			err = fmt.Errorf("its file names %q", v.Name())
		}
		if err == nil && s.reg.taken(sv.Name) {
			err = errors.New("the name is taken by a variant of the registry")
		}
		if err != nil {
			s.logf("server: saved variant %s left out: %v", sv.Name, err)
			continue
		}
		s.reg.save(v, sv.Text, def)
	}
	return nil
}

// VariantText is the body of POST /api/variants/check and POST
// /api/variants: a variant file's text.
type VariantText struct {
	Text string `json:"text"`
}

// VariantError is a fault of a checked variant file: where the reader
// found it (line and column from 1; 0 when the fault is in the rules as a
// whole and no line can be named) and what it is.
type VariantError struct {
	Line    int    `json:"line"`
	Col     int    `json:"col"`
	Message string `json:"message"`
}

// CheckedPiece is a piece type of a checked variant: its letter, name,
// movement, the value the engine gives it (the file's, or derived from
// the movement) and its moves and captures from the centre of the empty
// board, as GET /api/variants/{name}/pieces gives them.
type CheckedPiece struct {
	PieceMoves
	Value int `json:"value"`
}

// VariantCheck answers POST /api/variants/check.
type VariantCheck struct {
	OK     bool           `json:"ok"`
	Errors []VariantError `json:"errors"`
	Name   string         `json:"name,omitempty"`
	Title  string         `json:"title,omitempty"`
	// Taken is set when the name is a built-in or loaded variant's: the
	// file may be checked, not saved under it.
	Taken bool `json:"taken,omitempty"`
	// Saved is set when a saved variant has the name: saving replaces it
	// for new games.
	Saved  bool           `json:"saved,omitempty"`
	Board  *BoardSize     `json:"board,omitempty"`
	Start  string         `json:"start,omitempty"`
	Pieces []CheckedPiece `json:"pieces,omitempty"`
	// Perft counts the legal move sequences of 1, 2 and 3 plies from the
	// start (rules.Perft); depth 3 is left out where depth 2 is over
	// VariantConfig.CheckNodes.
	Perft []uint64 `json:"perft,omitempty"`
}

// BoardSize is a board's files and ranks.
type BoardSize struct {
	Files int `json:"files"`
	Ranks int `json:"ranks"`
}

// SavedInfo answers POST /api/variants.
type SavedInfo struct {
	Name string `json:"name"`
	// Definition is the hash games of it record (sha256:...).
	Definition string `json:"definition"`
	// Replaced is set when a saved variant of the name was replaced
	// (for new games; games of the old one keep its definition).
	Replaced bool `json:"replaced,omitempty"`
}

// variantRoutes adds the variant editor's handlers.
func (s *Server) variantRoutes(m *http.ServeMux) {
	m.HandleFunc("POST /api/variants/check", s.handleCheckVariant)
	m.HandleFunc("POST /api/variants", s.handleSaveVariant)
	m.HandleFunc("GET /api/variants/{name}/file", s.handleVariantFile)
}

// maxVariantBody is the request body the variant editor's requests may
// have: the largest text, escaped in JSON.
func (s *Server) maxVariantBody() int64 {
	n := int64(s.vcfg.Limits.MaxBytes)
	if n < 0 {
		n = variant.MaxFileBytes
	}
	return 2*n + 1024
}

// readVariantText reads the body of a request of the variant editor; it
// answers the request itself and returns false if it cannot be read.
func (s *Server) readVariantText(w http.ResponseWriter, r *http.Request) (string, bool) {
	mt, _, err := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if err != nil || mt != "application/json" {
		writeError(w, http.StatusUnsupportedMediaType, "unsupported_media_type",
			fmt.Errorf("a variant is sent with a Content-Type: application/json body, not %q", r.Header.Get("Content-Type")))
		return "", false
	}
	body, err := io.ReadAll(r.Body) // bounded by limit: maxVariantBody
	if err != nil {
		writeError(w, http.StatusRequestEntityTooLarge, "too_large",
			fmt.Errorf("the request is longer than %d bytes: a variant file is at most %d bytes", s.maxVariantBody(), s.vcfg.Limits.MaxBytes))
		return "", false
	}
	var req VariantText
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&req); err != nil {
		writeError(w, http.StatusBadRequest, "bad_request", err)
		return "", false
	}
	return req.Text, true
}

// variantOrigin is the name checked texts are read under: it starts
// every position the reader gives.
const variantOrigin = "variant.toml"

// positionRE finds the positions in the reader's messages.
var positionRE = regexp.MustCompile(`variant\.toml:(\d+):(\d+): `)

// variantErrors splits a reader's error into faults with their lines.
func variantErrors(err error, text string) []VariantError {
	msg := err.Error()
	msg = strings.TrimPrefix(msg, variant.ErrFile.Error()+": ")
	locs := positionRE.FindAllStringSubmatchIndex(msg, -1)
	if len(locs) == 0 {
		msg = strings.TrimPrefix(msg, variantOrigin+": ")
		line := keyLine(text, msg)
		return []VariantError{{Line: line, Col: min(line, 1), Message: msg}}
	}
	var out []VariantError
	for i, l := range locs {
		end := len(msg)
		if i+1 < len(locs) {
			end = locs[i+1][0]
		}
		line, _ := strconv.Atoi(msg[l[2]:l[3]])
		col, _ := strconv.Atoi(msg[l[4]:l[5]])
		out = append(out, VariantError{Line: line, Col: col, Message: strings.TrimSuffix(strings.TrimSpace(msg[l[1]:end]), ";")})
	}
	return out
}

// keyRE finds what a message of the rules' check is about: a dotted key
// ("end.checkmate: ..."), a piece ("piece N (knight): ..."), or the first
// word of the rule ("start position: ...", "promotion piece X ...").
var keyRE = regexp.MustCompile(`^(?:invalid variant "[^"]*": )?(?:piece ([A-Z])\b|([a-z_]+)(?:\.([a-z_]+))?)`)

// ruleKeys maps the first word of a rule's message to the table and key
// it is about ("" key: the table's header line).
var ruleKeys = map[string][2]string{
	"start": {"", "start"}, "name": {"", "name"}, "base": {"", "base"},
	"board": {"board", ""}, "hole": {"board", "holes"},
	"pawn": {"pawn", ""}, "promotion": {"promotion", ""}, "castling": {"castling", ""},
	"end": {"end", ""}, "dead": {"end", "dead"},
}

// pieceKeyRE finds the key a message about a piece names after the
// piece ("piece N (knight): betza ...").
var pieceKeyRE = regexp.MustCompile(`piece [A-Z]\b[^:]*: ([a-z_]+)\b`)

// tableKeyLine returns the line (from 1) that sets key in the table that
// holds line at (from 0), or 0 if that table does not set it.
func tableKeyLine(lines []string, at int, key string) int {
	from, to := at, at
	for from > 0 && !strings.HasPrefix(strings.TrimSpace(lines[from]), "[") {
		from--
	}
	for to+1 < len(lines) && !strings.HasPrefix(strings.TrimSpace(lines[to+1]), "[") {
		to++
	}
	for i := from; i <= to; i++ {
		if k, _, ok := strings.Cut(lines[i], "="); ok && strings.TrimSpace(k) == key {
			return i + 1
		}
	}
	return 0
}

// keyLine returns the line (from 1) of text that a message of the rules'
// check is about, or 0 if the message names nothing the text sets.
func keyLine(text, msg string) int {
	m := keyRE.FindStringSubmatch(msg)
	if m == nil {
		return 0
	}
	lines := strings.Split(text, "\n")
	if m[1] != "" { // a piece: the line of the key the message names in its table, else the line that gives its letter
		for i, line := range lines {
			k, v, ok := strings.Cut(line, "=")
			if ok && strings.TrimSpace(k) == "letter" && strings.Trim(strings.TrimSpace(v), `"'`) == m[1] {
				if km := pieceKeyRE.FindStringSubmatch(msg); km != nil {
					if l := tableKeyLine(lines, i, km[1]); l > 0 {
						return l
					}
				}
				return i + 1
			}
		}
		return 0
	}
	tk, ok := ruleKeys[m[2]]
	if m[3] != "" {
		tk, ok = [2]string{m[2], m[3]}, true
	}
	if !ok {
		return 0
	}
	in := ""
	for i, line := range lines {
		t := strings.TrimSpace(line)
		if strings.HasPrefix(t, "[") {
			in = strings.Trim(t, "[] ")
			if tk[1] == "" && in == tk[0] {
				return i + 1
			}
			continue
		}
		k, _, ok := strings.Cut(t, "=")
		if ok && tk[1] != "" && strings.TrimSpace(k) == tk[1] && in == tk[0] {
			return i + 1
		}
	}
	return 0
}

// checkText reads, compiles and checks a variant file against the
// limits, cheaply (nothing is searched or counted), and makes its
// definition; the faults are answered as VariantErrors.
func (s *Server) checkText(text string) (*rules.Variant, definition, []VariantError) {
	if err := variant.CheckText([]byte(text), s.vcfg.Limits); err != nil {
		return nil, definition{}, []VariantError{{Message: err.Error()}}
	}
	v, def, err := s.reg.compileSaved([]byte(text), variantOrigin)
	if err != nil {
		return nil, definition{}, variantErrors(err, text)
	}
	if err := variant.CheckLimits(v, s.vcfg.Limits); err != nil {
		return nil, definition{}, []VariantError{{Message: err.Error()}}
	}
	return v, def, nil
}

// handleCheckVariant checks a variant file for the editor: its faults
// with their lines, or its board, start, pieces (with their values and
// moves) and a perft of the start. Every answer about the text is a 200
// with ok saying whether the file is good. The perfts run at most
// VariantConfig.Checks at once and only on a variant within the limits.
func (s *Server) handleCheckVariant(w http.ResponseWriter, r *http.Request) {
	text, ok := s.readVariantText(w, r)
	if !ok {
		return
	}
	v, _, errs := s.checkText(text)
	out := VariantCheck{OK: errs == nil, Errors: errs}
	if out.Errors == nil {
		out.Errors = []VariantError{}
	}
	if v == nil {
		writeJSON(w, http.StatusOK, out)
		return
	}
	out.Name, out.Title = v.Name(), v.Title()
	out.Taken, out.Saved = s.reg.taken(v.Name()), s.reg.isSaved(v.Name())
	b := v.Board()
	out.Board = &BoardSize{Files: b.Files, Ranks: b.Ranks}
	out.Start = v.StartFEN()
	select {
	case s.checks <- struct{}{}:
	case <-r.Context().Done():
		return
	}
	defer func() { <-s.checks }()
	ev := eval.New(v)
	for t := 1; t <= v.NumTypes(); t++ {
		pm, err := pieceMoves(v, rules.Type(t))
		if err != nil {
			out.OK = false
			out.Errors = append(out.Errors, VariantError{Message: err.Error()})
			continue
		}
		out.Pieces = append(out.Pieces, CheckedPiece{PieceMoves: pm, Value: ev.Value(rules.Type(t))})
	}
	out.Perft = boundedPerft(v.Start(), s.vcfg.CheckNodes)
	writeJSON(w, http.StatusOK, out)
}

// boundedPerft returns the perft of p at depths 1 and 2, and 3 if depth 2
// has at most nodes positions (nodes < 0: always).
func boundedPerft(p *rules.Position, nodes int) []uint64 {
	out := []uint64{rules.Perft(p, 1), rules.Perft(p, 2)}
	if nodes < 0 || out[1] <= uint64(nodes) {
		out = append(out, rules.Perft(p, 3))
	}
	return out
}

// handleSaveVariant saves a variant file under its name: stored, and
// registered at once and at every start. A name of the server's registry
// (built-in or loaded variants) is refused; a saved variant of the same
// name is replaced for new games (games of it keep their definition).
func (s *Server) handleSaveVariant(w http.ResponseWriter, r *http.Request) {
	ds := s.defStore()
	if ds == nil {
		writeError(w, http.StatusServiceUnavailable, "not_supported", errors.New("this server's store keeps no variants"))
		return
	}
	key := s.clientKey(r)
	if !s.saves.allow(key, time.Now()) {
		tooMany(w, time.Hour/time.Duration(max(s.vcfg.SavesPerHour, 1)),
			fmt.Errorf("at most %d variants saved an hour; wait a little", s.vcfg.SavesPerHour))
		return
	}
	text, ok := s.readVariantText(w, r)
	if !ok {
		return
	}
	v, def, errs := s.checkText(text)
	if errs != nil {
		writeJSON(w, http.StatusBadRequest, map[string]any{"error": map[string]any{
			"code": "bad_variant", "message": errs[0].Message, "errors": errs}})
		return
	}
	if s.reg.taken(v.Name()) {
		writeError(w, http.StatusConflict, "name_taken",
			fmt.Errorf("the name %q is a built-in or loaded variant's; choose another", v.Name()))
		return
	}
	if len(v.Spec().Aliases) > 0 {
		writeError(w, http.StatusBadRequest, "bad_variant", errors.New("aliases: a saved variant has none"))
		return
	}
	s.saveMu.Lock() // one save at a time: the bound on saved variants holds
	defer s.saveMu.Unlock()
	replaced := s.reg.isSaved(v.Name())
	if s.vcfg.MaxSaved >= 0 && !replaced && len(s.reg.savedNames()) >= s.vcfg.MaxSaved {
		writeError(w, http.StatusForbidden, "too_many_variants", fmt.Errorf("the server keeps at most %d saved variants", s.vcfg.MaxSaved))
		return
	}
	if _, err := s.keepDefinition(r.Context(), def); err != nil {
		s.logf("server: save variant %s: %v", v.Name(), err)
		writeError(w, http.StatusInternalServerError, "internal", errors.New("the variant could not be saved"))
		return
	}
	// Stored and registered in one step, ordered with the reads of the
	// store's saved variants (readSaved), which then never register an
	// older version over this one.
	s.reg.readMu.Lock()
	err := ds.SaveVariant(r.Context(), store.SavedVariant{Name: v.Name(), Text: []byte(text), Client: key,
		Saved: time.Now().UTC(), Definition: def.hash})
	if err == nil {
		s.reg.save(v, []byte(text), def)
	}
	s.reg.readMu.Unlock()
	if err != nil {
		s.logf("server: save variant %s: %v", v.Name(), err)
		writeError(w, http.StatusInternalServerError, "internal", errors.New("the variant could not be saved"))
		return
	}
	s.publishSaved(v.Name())
	writeJSON(w, http.StatusCreated, SavedInfo{Name: v.Name(), Definition: def.hash, Replaced: replaced})
}

// savedAs reports whether the variant name is saved here with the
// definition hash (any, for "": a variant saved before definitions were
// kept).
func (u *userVariants) savedAs(name, hash string) bool {
	u.mu.RLock()
	defer u.mu.RUnlock()
	sv := u.saved[strings.ToLower(name)]
	return sv != nil && (hash == "" || sv.def.hash == hash)
}

// missReads is the least time between two reads of the store's saved
// variants for names the registry lacks (savedOnMiss).
const missReads = time.Second

// savedOnMiss looks for a variant the registry lacks among the store's
// saved variants (saved by another node, which this one was not told
// of): at most one read of the store each missReads, so that requests
// for unknown variants cost the store little.
func (s *Server) savedOnMiss(name string) *rules.Variant {
	if name == "" || len(name) > 64 {
		return nil
	}
	s.reg.missMu.Lock()
	defer s.reg.missMu.Unlock()
	if v, ok := s.reg.savedGet(name); ok {
		return v // read by the one before
	}
	if now := time.Now(); now.Sub(s.reg.missRead) >= missReads {
		s.reg.missRead = now
		ctx, cancel := context.WithTimeout(context.Background(), s.cfg.StoreTimeout)
		defer cancel()
		if err := s.readSaved(ctx); err != nil {
			s.logf("server: saved variants: %v", err)
		}
	}
	v, _ := s.reg.savedGet(name)
	return v
}

// savedGet returns the saved variant name.
func (u *userVariants) savedGet(name string) (*rules.Variant, bool) {
	u.mu.RLock()
	defer u.mu.RUnlock()
	if sv := u.saved[strings.ToLower(name)]; sv != nil {
		return sv.v, true
	}
	return nil, false
}

// savedNames returns the saved variants' names, sorted.
func (u *userVariants) savedNames() []string {
	u.mu.RLock()
	defer u.mu.RUnlock()
	out := append([]string(nil), u.order...)
	sort.Strings(out)
	return out
}

// handleVariantFile answers a variant's file: a saved variant's text as
// saved, a data variant's file; a variant built in Go code has none.
func (s *Server) handleVariantFile(w http.ResponseWriter, r *http.Request) {
	v, err := s.reg.Get(r.PathValue("name"))
	if err != nil {
		writeError(w, http.StatusNotFound, "unknown_variant", fmt.Errorf("%w: %w", errUnknownVariant, err))
		return
	}
	text, ok := s.reg.file(v.Name())
	if !ok {
		writeError(w, http.StatusNotFound, "no_file", fmt.Errorf("%s is built in code and has no variant file", v.Name()))
		return
	}
	w.Header().Set("Content-Type", "application/toml; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.Write(text)
}

// builtinDefinitions are the hashes of the definitions of the built-in
// data variants as this program embeds them: a record of a game played
// under one of them names it without carrying its text.
var builtinDefinitions = sync.OnceValue(func() map[string]bool {
	reg := variant.NewRegistry()
	out := map[string]bool{}
	if err := variant.AddBuiltins(reg); err != nil {
		return out
	}
	for _, n := range reg.Names() {
		if _, hash, ok, err := variant.DefinitionOf(reg.File, n); err == nil && ok {
			out[hash] = true
		}
	}
	return out
})

// recordDefinition stores the definition of the variant name (once) and
// returns its hash for a new game to record: "" for a variant without a
// file, or with a store that keeps no definitions.
func (s *Server) recordDefinition(ctx context.Context, name string) (string, error) {
	v, err := s.reg.Get(name)
	if err != nil {
		return "", fmt.Errorf("%w: %w", errUnknownVariant, err)
	}
	d, err := s.reg.definitionOf(v)
	if err != nil {
		return "", fmt.Errorf("variant %s: definition: %w", v.Name(), err)
	}
	ok, err := s.keepDefinition(ctx, d)
	if err != nil || !ok {
		return "", err
	}
	return d.hash, nil
}
