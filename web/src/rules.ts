// The rules pages (#/rules/<variant>): a variant explained from the
// server's data alone: its description (the variant file's text), its
// board, options and start, and for every piece its name, letter, Betza
// and a diagram of where it goes from a centre square of an empty board
// (GET /api/variants/<name>/pieces: the rules' own move generation).
// Nothing here knows a variant by name.
import { h, type VNode } from 'snabbdom';
import { pieceURL } from './lib/pieces';
import type { PieceMoves, PiecesInfo, Variant } from './types';
import { api, errorText, redraw, variantByName, variants } from './util';

const SQ = 10; // a square's side in a diagram's units

/**
 * diagramSVG draws a piece's moves (m) and captures (c) from its square
 * on an empty board of files x ranks, White below: a dot where it moves,
 * a cross where it captures, both for both. pieceImg is the piece's image
 * URL.
 */
export function diagramSVG(p: PieceMoves, files: number, ranks: number, pieceImg: string): string {
  const moves = new Set(p.moves);
  const caps = new Set(p.captures);
  const parts: string[] = [];
  for (let r = 0; r < ranks; r++) {
    for (let f = 0; f < files; f++) {
      const sq = String.fromCharCode(97 + f) + (r + 1);
      const x = f * SQ, y = (ranks - 1 - r) * SQ;
      const dark = (f + r) % 2 === 0;
      parts.push(`<rect x="${x}" y="${y}" width="${SQ}" height="${SQ}" class="${dark ? 'd' : 'l'}"/>`);
      const cx = x + SQ / 2, cy = y + SQ / 2;
      if (sq === p.from) {
        parts.push(`<image href="${pieceImg}" x="${x + 0.5}" y="${y + 0.5}" width="${SQ - 1}" height="${SQ - 1}"/>`);
        continue;
      }
      const m = moves.has(sq), c = caps.has(sq);
      if (m && c) parts.push(`<circle cx="${cx}" cy="${cy}" r="2.6" class="mc" data-sq="${sq}"/>`);
      else if (m) parts.push(`<circle cx="${cx}" cy="${cy}" r="2.2" class="m" data-sq="${sq}"/>`);
      else if (c) parts.push(`<path d="M${cx - 2.4} ${cy - 2.4}l4.8 4.8m0 -4.8l-4.8 4.8" class="c" data-sq="${sq}"/>`);
    }
  }
  return parts.join('');
}

// describe writes where a piece goes, for screen readers.
function describe(p: PieceMoves): string {
  const same = p.moves.length === p.captures.length && p.moves.every((s, i) => s === p.captures[i]);
  if (same) return `${p.name} on ${p.from} moves and captures on ${p.moves.join(', ')}`;
  return `${p.name} on ${p.from} moves to ${p.moves.join(', ') || 'no square'}; captures on ${p.captures.join(', ') || 'no square'}`;
}

// paragraphs splits a description into its paragraphs (blank lines),
// each on one line.
function paragraphs(text: string | undefined): string[] {
  return String(text || '').split(/\n\s*\n/).map((s) => s.replace(/\s*\n\s*/g, ' ').trim()).filter(Boolean);
}

/** RulesPage is the rules page of one variant. */
export class RulesPage {
  private readonly name: string;
  private readonly variant: Variant | undefined;
  private info: PiecesInfo | null = null;
  private error = '';

  constructor(name: string) {
    this.name = name;
    this.variant = variantByName(name);
    if (this.variant) this.load(this.variant.name);
  }

  private async load(name: string): Promise<void> {
    try {
      this.info = await api<PiecesInfo>(`/api/variants/${encodeURIComponent(name)}/pieces`);
    } catch (e) {
      this.error = errorText(e);
    }
    redraw();
  }

  /** view is the page. */
  view(): VNode {
    const v = this.variant;
    if (!v) {
      return h('div#not-found.not-found', { key: 'rules-none-' + this.name }, [h('h2', 'No such variant'),
        h('p', [`This server has no variant ${this.name}. `, h('a', { attrs: { href: '#/' } }, 'Back to the lobby')])]);
    }
    const other = variants().filter((x) => x.name !== v.name);
    const aliases = (v.aliases || []).filter((a) => a !== v.name);
    const code = (t: string) => h('code', t);
    return h('article#rules.rules-page', { key: 'rules-' + v.name, dataset: { variant: v.name } }, [
      h('p.crumbs', [h('a', { attrs: { href: '#/' } }, 'lobby'), ' · rules of ', ...other.flatMap((x, i) => [i ? ', ' : '', h('a', { attrs: { href: '#/rules/' + x.name } }, x.title)])]),
      h('h2#rules-title', [v.title, h('span.dim', ` ${v.name}${aliases.length ? ' (also ' + aliases.join(', ') + ')' : ''}`)]),
      h('ul.facts', [
        h('li', `board ${v.files}×${v.ranks}`),
        v.chance ? h('li', 'chance: some moves succeed or fail by a roll of the server\'s dice') : '',
        v.hidden ? h('li', 'hidden information: may be played with each player seeing only part of the board') : '',
        v.ranked ? h('li', 'pieces carry ranks, written after their letters in the FEN') : '',
        h('li', ['start: ', h('code.fen', v.start_fen || '')]),
      ]),
      h('div#description.description', paragraphs(v.description).map((t) => h('p', t))),
      v.options && v.options.length ? h('div.options-list', [h('h3', 'Options'),
        h('ul', v.options.map((o) => h('li', [code(o.name), ' default ', code(o.value || '""')])))]) : '',
      h('h3', 'Pieces'),
      h('p.dim.legend', ['Each piece alone on an empty board, White\'s side below: ',
        h('span.key-m', '●'), ' moves there, ', h('span.key-c', '✕'), ' captures there, ',
        h('span.key-mc', '⬤'), ' both. Computed by the server\'s rules, not drawn by hand.']),
      this.piecesView(),
      h('p', [h('a#rules-analyse', { attrs: { href: `#/analysis/${v.name}` } }, 'Analysis board of this variant'), ' · ',
        h('a#rules-setup', { attrs: { href: '#/setup/' + encodeURIComponent(v.name) } }, 'set up a position'), ' · ',
        h('a#rules-edit', { attrs: { href: '#/editor/' + encodeURIComponent(v.name) } }, 'make your own from this'), ' · ',
        h('a', { attrs: { href: '#/' } }, 'play it from the lobby')]),
    ]);
  }

  // piecesView draws a card of every piece: its diagram and caption.
  private piecesView(): VNode {
    const info = this.info;
    if (this.error) return h('div#pieces.piece-diagrams', [h('p.error', 'The pieces could not be read: ' + this.error)]);
    if (!info) return h('div#pieces.piece-diagrams', [h('p.dim', 'loading the pieces…')]);
    return h('div#pieces.piece-diagrams', info.pieces.map((p) => {
      const img = pieceURL(p.letter, p.name, p.betza, 'white');
      return h('figure.piece-card', { key: p.letter, dataset: { piece: p.letter } }, [
        h('svg.piece-diagram', {
          attrs: { viewBox: `0 0 ${info.files * SQ} ${info.ranks * SQ}`, role: 'img', 'aria-label': describe(p) },
          dataset: { piece: p.letter, moves: String(p.moves.length), captures: String(p.captures.length) },
          props: { innerHTML: diagramSVG(p, info.files, info.ranks, img) },
        }),
        h('figcaption', [
          h('img', { attrs: { src: img, alt: '', width: 28, height: 28 } }),
          h('strong', p.name), ` (${p.letter})`, p.royal ? h('span.dim', ' royal') : '',
          h('br'), 'Betza ', h('code.betza', p.betza),
          h('br'), h('span.dim', `${p.moves.length} moves, ${p.captures.length} captures from ${p.from}`),
        ]),
      ]);
    }));
  }
}
