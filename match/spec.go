package match

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/anychess/anychess/search"
)

// Spec describes a player on the command line:
//
//	engine[:depth=N,nodes=N,hash=MB,threads=N,timefactor=F,certain=1,belief=0|1,weights=none|FILE]
//	                                  the built-in engine, on the game's clock (threads=N searches
//	                                  with N threads, up to the machine's CPUs, see
//	                                  search.Engine.SetThreads; timefactor gives it F
//	                                  times the time control; certain=1 takes every
//	                                  capture attempt to succeed, see
//	                                  search.Engine.SetCertainCaptures; belief=0 or 1
//	                                  turns off or on the hidden-information engine's
//	                                  belief, an option of the variant's own player,
//	                                  see player.Configurable; weights=none plays
//	                                  the hand-set evaluation, weights=FILE the
//	                                  weights file FILE, instead of the weights
//	                                  the variant carries, see LoadWeights)
//	random                            a uniformly random legal move
//	greedy                            the move with the best expected material balance one
//	                                  ply ahead: in Vazir the capture with the best
//	                                  expected gain, else a quiet move; in csipgs the
//	                                  most expensive piece it can buy, else such a move,
//	                                  and no design change
//	uci:COMMAND[:opt=value,...]       an external UCI engine, with UCI options
//	xboard:COMMAND[:opt=value,...]    an external XBoard (CECP v2) engine
//
// COMMAND is the program and its arguments, separated by spaces
// ("uci:/usr/bin/anychess uci"); a word with spaces is put in single or
// double quotes ('/opt/my engines/sf'). A COMMAND with a colon (or one that
// starts with a double quote) is written in double quotes as a whole, with
// \" and \\ for a double quote and a backslash inside:
// `uci:"C:\engines\sf.exe":Hash=64`. An option value with a comma or a
// double quote is quoted the same way: `VariantOptions="a=1,b=2"`.
//
// Two options of an external engine are for the match, not the engine:
// dir=PATH runs the engine in that working directory (a relative program
// path is taken from there), and stderr=FILE appends the engine's standard
// error to FILE. Without stderr= the engine's last lines of standard error
// are kept and quoted when it fails. A UCI engine's UCI_Variant option, if
// given, is its own name for the match's variant and is sent instead of
// ours.
//
// An xboard engine's option variant=NAME is its name for the match's
// variant (fairymax calls Great Shatranj "great"; the default is "normal"
// for chess and our variant's name otherwise); its other options are sent
// as "option NAME=VALUE" ("option NAME" for an empty value, a button).
//
// seed makes random choices reproducible.
type Spec struct {
	Kind    string
	Path    string   // the program of an external engine
	Args    []string // its arguments
	Dir     string   // its working directory ("" for ours)
	Stderr  string   // the file its standard error is appended to ("" to keep only the last lines)
	Options map[string]string
	Seed    uint64
}

// ParseSpec reads a player description.
func ParseSpec(s string) (Spec, error) {
	kind, rest, _ := strings.Cut(s, ":")
	sp := Spec{Kind: kind, Options: map[string]string{}}
	switch kind {
	case "engine", "random", "greedy":
	case "uci", "xboard":
		command, opts, err := cutCommand(rest)
		if err != nil {
			return Spec{}, fmt.Errorf("player %q: %w", s, err)
		}
		words, err := splitWords(command)
		if err != nil {
			return Spec{}, fmt.Errorf("player %q: %w", s, err)
		}
		if len(words) == 0 {
			return Spec{}, fmt.Errorf("player %q: %s needs a program: %s:PATH", s, kind, kind)
		}
		sp.Path, sp.Args, rest = words[0], words[1:], opts
	default:
		return Spec{}, fmt.Errorf("player %q: want engine, random, greedy, uci:PATH or xboard:PATH", s)
	}
	if rest != "" {
		kvs, err := splitOptions(rest)
		if err != nil {
			return Spec{}, fmt.Errorf("player %q: %w", s, err)
		}
		for _, kv := range kvs {
			k, v := kv[0], kv[1]
			switch {
			case sp.Path != "" && k == "dir":
				sp.Dir = v
			case sp.Path != "" && k == "stderr":
				sp.Stderr = v
			default:
				sp.Options[k] = v
			}
		}
	}
	if kind == "engine" {
		for k, v := range sp.Options {
			switch k {
			case "depth", "nodes", "hash":
				if n, err := strconv.Atoi(v); err != nil || n < 1 {
					return Spec{}, fmt.Errorf("player %q: %s=%q is not a positive number", s, k, v)
				}
			case "threads":
				n, err := strconv.Atoi(v)
				if err != nil || n < 1 {
					return Spec{}, fmt.Errorf("player %q: threads=%q is not a positive number", s, v)
				}
				if n > search.CPUs() {
					return Spec{}, fmt.Errorf("player %q: threads=%d is more than the machine's %d CPUs", s, n, search.CPUs())
				}
			case "timefactor":
				if f, err := strconv.ParseFloat(v, 64); err != nil || f <= 0 {
					return Spec{}, fmt.Errorf("player %q: timefactor=%q is not a positive number", s, v)
				}
			case "weights":
				if v == "" {
					return Spec{}, fmt.Errorf("player %q: weights= needs %s (the hand-set evaluation) or a weights file", s, HandSet)
				}
			case "certain", "belief":
				if v != "0" && v != "1" {
					return Spec{}, fmt.Errorf("player %q: %s=%q is not 0 or 1", s, k, v)
				}
			default:
				return Spec{}, fmt.Errorf("player %q: unknown engine option %q (depth, nodes, hash, threads, timefactor, certain, belief, weights)", s, k)
			}
		}
	}
	if v, ok := sp.Options["variant"]; ok && kind == "xboard" && v == "" {
		return Spec{}, fmt.Errorf("player %q: variant= needs the engine's name of the variant", s)
	}
	if (kind == "random" || kind == "greedy") && len(sp.Options) > 0 {
		return Spec{}, fmt.Errorf("player %q takes no options", s)
	}
	return sp, nil
}

// cutCommand splits "COMMAND[:OPTIONS]", COMMAND either plain up to the
// first colon or in double quotes.
func cutCommand(s string) (command, opts string, err error) {
	if !strings.HasPrefix(s, `"`) {
		command, opts, _ = strings.Cut(s, ":")
		return command, opts, nil
	}
	command, rest, err := unquote(s)
	if err != nil {
		return "", "", fmt.Errorf("the command: %w", err)
	}
	if rest != "" && rest[0] != ':' {
		return "", "", fmt.Errorf("the command: %q after the closing quote; want :OPTIONS", rest)
	}
	return command, strings.TrimPrefix(rest, ":"), nil
}

// unquote reads a double-quoted string at the start of s (\" and \\ stand
// for a double quote and a backslash; any other backslash is kept) and
// returns it and what follows.
func unquote(s string) (string, string, error) {
	var sb strings.Builder
	for i := 1; i < len(s); i++ {
		switch c := s[i]; {
		case c == '"':
			return sb.String(), s[i+1:], nil
		case c == '\\' && i+1 < len(s) && (s[i+1] == '"' || s[i+1] == '\\'):
			i++
			sb.WriteByte(s[i])
		default:
			sb.WriteByte(c)
		}
	}
	return "", "", errors.New("a double quote is not closed")
}

// quote writes s for unquote.
func quote(s string) string {
	return `"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(s) + `"`
}

// splitWords splits a command into words at spaces and tabs; single or
// double quotes group a word with spaces (no escapes inside).
func splitWords(s string) ([]string, error) {
	var words []string
	var cur strings.Builder
	in := false // inside a word
	var q byte  // the open quote, or 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case q != 0 && c == q:
			q = 0
		case q != 0:
			cur.WriteByte(c)
		case c == '\'' || c == '"':
			q, in = c, true
		case c == ' ' || c == '\t':
			if in {
				words = append(words, cur.String())
				cur.Reset()
				in = false
			}
		default:
			cur.WriteByte(c)
			in = true
		}
	}
	if q != 0 {
		return nil, fmt.Errorf("the command %q: a quote is not closed", s)
	}
	if in {
		words = append(words, cur.String())
	}
	return words, nil
}

// splitOptions reads "k=v,k=v"; a value may be in double quotes (with a
// comma inside).
func splitOptions(s string) ([][2]string, error) {
	var kvs [][2]string
	for s != "" {
		k, rest, ok := strings.Cut(s, "=")
		if strings.Contains(k, ",") || !ok || k == "" {
			bad, _, _ := strings.Cut(s, ",")
			return nil, fmt.Errorf("option %q is not key=value", bad)
		}
		var v string
		if strings.HasPrefix(rest, `"`) {
			var err error
			if v, rest, err = unquote(rest); err != nil {
				return nil, fmt.Errorf("option %s: %w", k, err)
			}
			if rest != "" && rest[0] != ',' {
				return nil, fmt.Errorf("option %s: %q after the closing quote", k, rest)
			}
			s = strings.TrimPrefix(rest, ",")
		} else {
			v, s, _ = strings.Cut(rest, ",")
		}
		kvs = append(kvs, [2]string{k, v})
	}
	return kvs, nil
}

// TimeFactor returns the player's time odds: its clock (base, increment
// or time per move) is the match's time control times this (the engine's
// timefactor option; 1 for other players).
func (sp Spec) TimeFactor() float64 {
	if sp.Kind == "engine" {
		if f, err := strconv.ParseFloat(sp.Options["timefactor"], 64); err == nil && f > 0 {
			return f
		}
	}
	return 1
}

// String returns the description the spec was read from, in the form
// ParseSpec reads back.
func (sp Spec) String() string {
	s := sp.Kind
	if sp.Path != "" {
		words := make([]string, 0, 1+len(sp.Args))
		for _, w := range append([]string{sp.Path}, sp.Args...) {
			if w == "" || strings.ContainsAny(w, " \t'\"") {
				if strings.Contains(w, "'") {
					w = `"` + w + `"`
				} else {
					w = "'" + w + "'"
				}
			}
			words = append(words, w)
		}
		cmd := strings.Join(words, " ")
		if strings.Contains(cmd, ":") || strings.HasPrefix(cmd, `"`) {
			cmd = quote(cmd)
		}
		s += ":" + cmd
	}
	opts := make(map[string]string, len(sp.Options)+2)
	for k, v := range sp.Options {
		opts[k] = v
	}
	if sp.Dir != "" {
		opts["dir"] = sp.Dir
	}
	if sp.Stderr != "" {
		opts["stderr"] = sp.Stderr
	}
	if len(opts) > 0 {
		var kv []string
		for _, k := range sortedKeys(opts) {
			v := opts[k]
			if strings.ContainsAny(v, `,"`) {
				v = quote(v)
			}
			kv = append(kv, k+"="+v)
		}
		s += ":" + strings.Join(kv, ",")
	}
	return s
}
