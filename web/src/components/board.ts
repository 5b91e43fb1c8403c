// The board: chessgroundx kept inside a snabbdom node (it draws its own
// DOM: the node's insert hook starts it, its destroy hook ends it), and
// what the board shows besides pieces, drawn as chessgroundx's custom
// shapes (the labels of marked squares, terrain, what a player's view
// hides) or beside it (the marked squares' titles, a reserve's pieces).
import { Chessground } from 'chessgroundx';
import type { Api } from 'chessgroundx/api';
import type { Config } from 'chessgroundx/config';
import type { DrawShape } from 'chessgroundx/draw';
import type * as cg from 'chessgroundx/types';
import { h, type VNode } from 'snabbdom';
import { eachSquare, parseBoard, plainBoard } from '../lib/fen';
import { parity } from '../util';
import type { Describe, PieceType } from '../types';

const RANKS = ['1', '2', '3', '4', '5', '6', '7', '8', '9', ':', ';', '<', '=', '>', '?', '@'];

/** key converts a square name (a1, j10) to a chessgroundx key. */
export function key(sq: string): cg.Key { return (sq[0] + RANKS[parseInt(sq.slice(1), 10) - 1]) as cg.Key; }

/** sqName converts a chessgroundx key to a square name. */
export function sqName(k: string): string { return k[0] + (RANKS.indexOf(k[1]) + 1); }

// A square: a-p and 1-16.
const SQ = '[a-p](?:1[0-6]|[1-9])';

/** SQUARE_MOVE reads a move in coordinates: from, to and a promotion letter. */
export const SQUARE_MOVE = new RegExp(`^(${SQ})(${SQ})([a-z]?)$`);

// OWN_MOVE reads a move in a variant's own long notation (as
// "Nb1-c3", "Ke1-e2-e3", "Ng1xf3/1", "Ne4-f6xe5/2", "e7-e8=Q"): the first
// square is the origin, the square after the first separator the target
// of its first step, the last square of the body where the mover ends.
const OWN_MOVE = new RegExp(`^[A-Z]?(${SQ})(?:/\\d+)?[-x^]((?:${SQ}(?:/\\d+)?[-x^]?)+)`);
const OWN_STEP = new RegExp(`(${SQ})(?:/\\d+)?[-x^]?`, 'g');

/**
 * movePair returns [from, to] of a move in coordinates ("e2e4", "j7j8q")
 * or in a variant's own long notation, or null for a move that is not
 * from one square to another (a drop, a move of the variant's own kind
 * written as a word or a sign).
 */
export function movePair(m: string | undefined): [string, string] | null {
  const sm = SQUARE_MOVE.exec(m || '');
  if (sm) return [sm[1], sm[2]];
  const om = OWN_MOVE.exec(m || '');
  if (!om) return null;
  const squares = [...om[2].matchAll(OWN_STEP)].map((x) => x[1]);
  // A knight's path capture "f6xe5/2" names the target first; a king's
  // two steps "e2-e3" end on the last.
  const to = /^K/.test(m || '') && squares.length > 1 ? squares[squares.length - 1] : squares[0];
  return [om[1], to];
}

/**
 * cgBoard returns a FEN board chessgroundx reads: one letter a square,
 * terrain as empty squares.
 */
export function cgBoard(board: string | undefined, files: number, ranks: number): string {
  // No board (a spectator of a game with hidden information): empty
  // squares, since chessground keeps its pieces when given no FEN.
  if (!board) return Array(ranks).fill(String(files)).join('/');
  const { rows, pocket } = parseBoard(board, { files });
  return plainBoard(rows, pocket, { terrainEmpty: true });
}

/**
 * boardLabel describes a board for screen readers: each side's pieces
 * with their squares ("white: king e1, rook a1, …"), named by the
 * variant's piece list, or that no board is shown (a spectator of a game
 * with hidden information).
 */
export function boardLabel(board: string | undefined, files: number, pieces: PieceType[] | undefined, orientation: string): string {
  if (!board) return 'Board: the position is hidden until the game ends';
  const name = (l: string) => ((pieces || []).find((p) => p.letter.toUpperCase() === l.toUpperCase()) || { name: l }).name.toLowerCase();
  const sides: Record<'white' | 'black', string[]> = { white: [], black: [] };
  eachSquare(parseBoard(board, { files }).rows, (sq, cell) => {
    if (!cell || cell.terrain || !cell.piece) return;
    const white = cell.piece === cell.piece.toUpperCase();
    sides[white ? 'white' : 'black'].push(`${name(cell.piece)} ${sq}`);
  }, files);
  return `Board, ${orientation} below. White: ${sides.white.join(', ') || 'no pieces'}. Black: ${sides.black.join(', ') || 'no pieces'}.`;
}

interface BadgeStyle { fill: string; stroke: string; color: string; cy: number }

// A badge in a corner of a square: a disc with a short text.
function badge(sq: string, text: string, { fill, stroke, color, cy }: BadgeStyle): DrawShape {
  return { orig: key(sq), customSvg:
    `<circle cx="84" cy="${cy}" r="15" fill="${fill}" stroke="${stroke}" stroke-width="3"/>` +
    `<text x="84" y="${cy + 9}" text-anchor="middle" font-family="DejaVu Sans, sans-serif" font-weight="bold" font-size="25" fill="${color}">${text}</text>` };
}

// MARK_STYLES is how a badge looks for each kind of mark the server's
// description of a position gives a square (describe.squares[].mark); a
// kind not listed looks like OTHER_MARK.
const MARK_STYLES: Record<string, BadgeStyle> = {
  'rank-white': { fill: '#fff', stroke: '#222', color: '#222', cy: 84 },
  'rank-black': { fill: '#222', stroke: '#fff', color: '#fff', cy: 84 },
  stack: { fill: '#ffd54f', stroke: '#222', color: '#222', cy: 16 },
  risen: { fill: '#b3e5fc', stroke: '#222', color: '#222', cy: 16 },
};
const OTHER_MARK: BadgeStyle = { fill: '#e0e0e0', stroke: '#222', color: '#222', cy: 16 };

function escapeXML(t: string): string { return String(t).replace(/[<>&"]/g, (c) => `&#${c.charCodeAt(0)};`); }

/** markShapes draws the label of every square the description marks as a badge on the square. */
export function markShapes(d: Describe | undefined): DrawShape[] {
  return ((d && d.squares) || []).filter((s) => s.label).map((s) => badge(s.square, escapeXML(s.label || ''), MARK_STYLES[s.mark || ''] || OTHER_MARK));
}

/**
 * fogShapes darkens what a player's view does not show (squares outside
 * visible, null for the whole board) and marks terrain ('*' in the board).
 */
export function fogShapes(board: string | undefined, visible: string[] | null | undefined, files: number): DrawShape[] {
  const shapes: DrawShape[] = [];
  const seen = new Set(visible || []);
  const { rows } = parseBoard(board, { files });
  eachSquare(rows, (sq, cell) => {
    if (cell && cell.terrain) shapes.push({ orig: key(sq), customSvg: '<rect x="0" y="0" width="100" height="100" fill="#3e2723" fill-opacity="0.85"/>' });
    else if (visible && !seen.has(sq)) shapes.push({ orig: key(sq), customSvg: '<rect x="0" y="0" width="100" height="100" fill="#263238" fill-opacity="0.55"/>' });
  }, files);
  return shapes;
}

/**
 * marksView lists the squares the description marks with a title (a
 * stack, bottom to top), its notes and its counters for both sides.
 */
export function marksView(d: Describe | undefined): VNode {
  const titled = ((d && d.squares) || []).filter((s) => s.title);
  const parts = titled.map((s) => h('span.stack', { dataset: { square: s.square, mark: s.mark || '' } }, `${s.square}: ${s.title}`));
  return h('div#stacks.stacks', [
    ...(parts.length ? ['Marked squares: ', ...parts.flatMap((p, i) => (i ? ['; ', p] : [p]))] : []),
    ...((d && d.notes) || []).map((n) => h('div.note', n)),
    ...((d && d.counters) || []).filter((c) => !c.side).map((c) => h('div.counter', `${c.name}: ${c.value}`)),
  ]);
}

/** Dims is a board's size and variant, which its wrapper's classes name. */
export interface Dims {
  variant: string;
  files: number;
  ranks: number;
}

/**
 * Board is a chessgroundx board inside the page's view: view() gives its
 * node, start() starts chessgroundx in it with a configuration (at once
 * if the node is on the page, else when it is inserted), and cg is the
 * running board, if any. The node's removal ends the board.
 */
export class Board {
  cg: Api | null = null;
  private el: HTMLElement | null = null;
  private config: Config | null = null;

  /** start starts chessgroundx with config (once). */
  start(config: Config): void {
    this.config = config;
    if (this.el && !this.cg) this.cg = Chessground(this.el, config);
  }

  /** destroy ends chessgroundx. */
  destroy(): void {
    if (this.cg) this.cg.destroy();
    this.cg = null;
  }

  /** orientation is the side shown below. */
  orientation(): cg.Color { return this.cg ? this.cg.state.orientation : 'white'; }

  /**
   * view is the board in its wrapper, sized by dims (null until the
   * variant is known), with label for screen readers.
   */
  view(dims: Dims | null, label: string): VNode {
    const cls: Record<string, boolean> = {};
    const style: Record<string, string> = {};
    if (dims) {
      // The parity of the board's size says which labels of the
      // coordinates stand on dark squares (style.css).
      for (const c of [`v-${dims.variant}`, `dim-${dims.files}x${dims.ranks}`, `files-${parity(dims.files)}`, `ranks-${parity(dims.ranks)}`]) cls[c] = true;
      style['--files'] = String(dims.files);
      style['--ranks'] = String(dims.ranks);
    }
    return h('div.board-wrap', { class: cls, style }, [
      h('div#board.board', {
        attrs: { role: 'img', 'aria-label': label },
        hook: {
          insert: (vnode) => {
            this.el = vnode.elm as HTMLElement;
            if (this.config && !this.cg) this.cg = Chessground(this.el, this.config);
          },
          destroy: () => { this.destroy(); this.el = null; },
        },
      }),
    ]);
  }
}
