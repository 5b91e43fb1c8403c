package notation

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"strings"

	"github.com/anychess/anychess/notation/pgn"
)

// DefinitionTag names the tag that records the exact definition a game of
// a data variant was played under: "sha256:" and the SHA-256 (hex) of the
// definition's text (variant.Definition: a variant file with its base
// merged in).
const DefinitionTag = "VariantDefinition"

// definitionComment begins the comment before the first move that
// carries the definition's text, in standard base64 (a variant file has
// line breaks and braces, which a PGN comment cannot keep).
const definitionComment = "VariantFile "

// SetDefinition records in pg the hash of def, the text of the variant
// definition its game was played under, and with carry the text itself
// (in a comment before the first move), so that the game replays under
// it whatever the registry of the reader holds.
func SetDefinition(pg *pgn.Game, def []byte, carry bool) {
	h := sha256.Sum256(def)
	pg.SetTag(DefinitionTag, "sha256:"+hex.EncodeToString(h[:]))
	if carry {
		pg.Comment = append(pg.Comment, definitionComment+base64.StdEncoding.EncodeToString(def))
	}
}

// Definition reads what SetDefinition recorded: the hash of the game's
// definition ("" if the record names none) and the text if the record
// carries it (nil if not). A carried text whose hash is not the tag's,
// one without the tag, or one that is not base64, is an error wrapping
// ErrPGN.
func Definition(pg *pgn.Game) (hash string, def []byte, err error) {
	hash, _ = pg.Tag(DefinitionTag)
	for _, c := range pg.Comment {
		rest, ok := strings.CutPrefix(c, definitionComment)
		if !ok {
			continue
		}
		def, err = base64.StdEncoding.DecodeString(strings.Join(strings.Fields(rest), ""))
		if err != nil {
			return "", nil, fmt.Errorf("%w: the variant file it carries: %v", ErrPGN, err)
		}
		h := sha256.Sum256(def)
		got := "sha256:" + hex.EncodeToString(h[:])
		if hash == "" {
			return "", nil, fmt.Errorf("%w: it carries a variant file but no %s tag", ErrPGN, DefinitionTag)
		}
		if got != hash {
			return "", nil, fmt.Errorf("%w: the variant file it carries is %s, not the %s tag's %s", ErrPGN, got, DefinitionTag, hash)
		}
		break
	}
	return hash, def, nil
}
