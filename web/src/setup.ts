// The board editor (#/setup/<variant>[?fen=…]): a position of any
// variant, built-in or saved, set up by placing pieces from a palette (a
// click on a square, or a drag), moving them on the board, and removing
// them (right-click, or the trash tool); the side to move and castling
// rights by buttons; in Vazir each placed piece gets the rank chosen, in
// Crazy Chess a piece placed on an occupied square joins it as a stack
// (Crazy-FEN's "(RN)"), and a reserve in brackets gets the palette's
// pieces. The FEN is shown and may be edited too (the variant's state the
// palette has no tool for: csipgs's treasuries and designs, an en-passant
// square, counters), and every change is validated by the server (GET
// /api/analysis/position). The position is copied, played against the
// engine or a friend, or opened in the analysis board.
import type * as cg from 'chessgroundx/types';
import { h, type VNode } from 'snabbdom';
import { analysisURL } from './analysis';
import { Board, boardLabel, cgBoard, markShapes, marksView, sqName } from './components/board';
import { type Cell, eachSquare, parseBoard } from './lib/fen';
import { pieceURL } from './lib/pieces';
import type { Color, Created, Describe, MarkedSquare, Position, Variant } from './types';
import { api, copyText, errorText, inviteURL, redraw, saveSeat, variantByName } from './util';

// How long the page waits after a change before it asks the server.
const VALIDATE_MS = 250;
/** Tool is what a click on a square does: place a piece (its letter, upper case White), remove, or move pieces. */
export type Tool = { piece: string } | 'trash' | 'move';

/**
 * writeBoard writes rows of cells (lib/fen.ts's parseBoard) as a FEN
 * board: a rank digit after each piece in a ranked FEN, stacks in
 * parentheses bottom to top, '*' after a risen Bishop, terrain as '*',
 * and the reserve in brackets when pocket is not null.
 */
export function writeBoard(rows: Cell[][], pocket: string | null, ranked: boolean): string {
  const text = rows.map((cells) => {
    let out = '';
    let empty = 0;
    for (const c of cells) {
      if (!c) { empty++; continue; }
      if (empty) { out += empty; empty = 0; }
      if (c.terrain) out += '*';
      else if (c.stack && c.stack.length > 1) out += '(' + c.stack.join('') + ')';
      else out += (c.piece || '') + (ranked ? String(c.rank ?? 0) : '') + (c.risen ? '*' : '');
    }
    return out + (empty ? empty : '');
  }).join('/');
  return pocket === null ? text : `${text}[${pocket}]`;
}

/**
 * placeOn returns the cell a piece placed on a cell makes: the piece
 * alone (with rank in a ranked variant), or, where stacking, the piece
 * on top of the stack the cell holds.
 */
export function placeOn(cell: Cell, letter: string, { rank, stacking }: { rank?: number; stacking?: boolean }): Cell {
  if (stacking && cell && cell.piece && !cell.terrain) {
    const below = cell.stack ? cell.stack : [cell.piece + (cell.risen ? '*' : '')];
    const stack = below.concat(letter);
    return { piece: stack[0][0], stack, risen: stack.some((p) => p.endsWith('*')) || undefined };
  }
  const out: NonNullable<Cell> = { piece: letter };
  if (rank !== undefined) out.rank = rank;
  return out;
}

/** removeFrom returns a cell with its top piece taken away: a stack loses its top, a piece leaves an empty square. */
export function removeFrom(cell: Cell): Cell {
  if (!cell || cell.terrain) return cell;
  if (cell.stack && cell.stack.length > 2) {
    const stack = cell.stack.slice(0, -1);
    return { piece: stack[0][0], stack, risen: stack.some((p) => p.endsWith('*')) || undefined };
  }
  if (cell.stack && cell.stack.length === 2) {
    const p = cell.stack[0];
    return { piece: p[0], risen: p.endsWith('*') || undefined };
  }
  return null;
}

/** setupURL is the route of the board editor of a variant at a position. */
export function setupURL(variant: string, fen: string): string {
  return `#/setup/${encodeURIComponent(variant)}${fen ? '?fen=' + encodeURIComponent(fen) : ''}`;
}

/** SetupPage is the board editor of one variant. */
export class SetupPage {
  private readonly v: Variant | undefined;
  private readonly board = new Board();
  private rows: Cell[][] = [];
  private pocket: string | null = null;
  private rest: string[] = [];
  private castling = '';
  private fen = '';
  private tool: Tool = 'move';
  private rank = 0;
  private pos: Position | null = null;
  private invalid = '';
  private checked = ''; // the FEN the verdict is about
  private checking = false;
  private timer = 0;
  private seq = 0;
  private msg = { text: '', error: false };
  private color: Color | '' = '';
  private level = 1;
  private closed = false;

  constructor(name: string, fen: string) {
    this.v = variantByName(name);
    const v = this.v;
    if (!v) return;
    const start = v.start_fen || '';
    const c = start.split(/\s+/)[2] || '';
    // The castling letters the start gives (KQkq), if its third field is one.
    if (/^[KQkqA-Ha-h]+$/.test(c) && !/^\d/.test(c)) this.castling = c;
    this.readFEN(fen || start);
    this.startBoard();
    this.validate();
  }

  /** close ends the page. */
  close(): void {
    this.closed = true;
    clearTimeout(this.timer);
    this.board.destroy();
  }

  private get ranked(): boolean { return !!(this.v && this.v.ranked); }
  // A piece placed on an occupied square joins it where the variant's
  // FEN writes stacks (the server's stacks flag).
  private get stacking(): boolean { return !!(this.v && this.v.stacks); }

  // readFEN sets the position from a FEN text.
  private readFEN(fen: string): void {
    const v = this.v as Variant;
    this.fen = fen;
    const fields = fen.trim().split(/\s+/);
    const b = parseBoard(fields[0] || '', { files: v.files, ranked: this.ranked });
    this.rows = Array.from({ length: v.ranks }, (_, i) => Array.from({ length: v.files }, (_, f) => (b.rows[i] && b.rows[i][f]) || null));
    this.pocket = b.pocket;
    this.rest = fields.slice(1);
  }

  // changed writes the FEN of the position after a change by the tools.
  private changed(): void {
    this.fen = [writeBoard(this.rows, this.pocket, this.ranked), ...this.rest].join(' ');
    this.showBoard();
    this.validate();
    redraw();
  }

  private cgFEN(): string {
    const v = this.v as Variant;
    return cgBoard(writeBoard(this.rows, this.pocket, this.ranked), v.files, v.ranks);
  }

  private startBoard(): void {
    const v = this.v as Variant;
    this.board.start({
      dimensions: { width: v.files, height: v.ranks },
      fen: this.cgFEN(),
      orientation: 'white',
      coordinates: true,
      autoCastle: false,
      movable: { free: true, color: 'both', showDests: false, events: { after: (o, d) => this.moveCell(o, d) } },
      premovable: { enabled: false },
      draggable: { enabled: true, deleteOnDropOff: false },
      highlight: { lastMove: false, check: false },
      animation: { enabled: false },
      events: {
        select: (k) => this.clickSquare(k),
      },
      drawable: { enabled: false, autoShapes: markShapes(this.marks()) },
    });
  }

  // marks are the squares with a badge: a stack with its height (its
  // pieces bottom to top as its title), a ranked piece with its rank.
  private marks(): Describe {
    const squares: MarkedSquare[] = [];
    eachSquare(this.rows, (sq, c) => {
      if (!c || !c.piece) return;
      if (c.stack && c.stack.length > 1) squares.push({ square: sq, label: String(c.stack.length), mark: 'stack', title: c.stack.join(' ') });
      else if (this.ranked) squares.push({ square: sq, label: String(c.rank ?? 0), mark: c.piece === c.piece.toUpperCase() ? 'rank-white' : 'rank-black' });
    });
    return { squares };
  }

  // showBoard puts the model on the board, and says what a click does.
  private showBoard(): void {
    const cgApi = this.board.cg;
    if (!cgApi) return;
    cgApi.set({ fen: this.cgFEN(), movable: { color: this.tool === 'move' ? 'both' : undefined } });
    cgApi.setAutoShapes(markShapes(this.marks()));
    cgApi.selectSquare(null);
  }

  private cellAt(sq: string): { r: number; f: number } | null {
    const v = this.v as Variant;
    const f = sq.charCodeAt(0) - 97, rank = parseInt(sq.slice(1), 10);
    if (f < 0 || f >= v.files || !(rank >= 1 && rank <= v.ranks)) return null;
    return { r: v.ranks - rank, f };
  }

  private place(sq: string, letter: string): void {
    const at = this.cellAt(sq);
    if (!at) return;
    const cell = this.rows[at.r][at.f];
    if (cell && cell.terrain) return;
    this.rows[at.r][at.f] = placeOn(cell, letter, { rank: this.ranked ? this.rank : undefined, stacking: this.stacking });
    this.changed();
  }

  private remove(sq: string): void {
    const at = this.cellAt(sq);
    if (!at) return;
    this.rows[at.r][at.f] = removeFrom(this.rows[at.r][at.f]);
    this.changed();
  }

  private moveCell(o: cg.Key, d: cg.Key): void {
    const a = this.cellAt(sqName(o)), b = this.cellAt(sqName(d));
    if (!a || !b) return;
    const cell = this.rows[a.r][a.f];
    const there = this.rows[b.r][b.f];
    if (!cell || (there && there.terrain)) { this.showBoard(); return; }
    this.rows[b.r][b.f] = cell;
    this.rows[a.r][a.f] = null;
    this.changed();
  }

  private clickSquare(k: cg.Key): void {
    if (this.tool === 'move') return;
    const sq = sqName(k);
    if (this.tool === 'trash') this.remove(sq);
    else this.place(sq, this.tool.piece);
  }

  private setTool(t: Tool): void {
    this.tool = t;
    this.showBoard();
    redraw();
  }

  // startDrag drags a palette piece onto the board: chessgroundx draws
  // the piece under the pointer, and the square it is let go on gets it
  // (chessgroundx itself drops only on empty squares).
  private startDrag(letter: string, ev: MouseEvent | TouchEvent): void {
    const cgApi = this.board.cg;
    if (!cgApi) return;
    this.setTool({ piece: letter });
    const color: cg.Color = letter === letter.toUpperCase() ? 'white' : 'black';
    cgApi.dragNewPiece({ role: (letter.toLowerCase() + '-piece') as cg.Role, color }, false, ev as cg.MouchEvent, true);
    const at = (e: MouseEvent | TouchEvent): cg.NumberPair | null => {
      const t = 'touches' in e ? e.touches[0] : e;
      return t ? [t.clientX, t.clientY] : null;
    };
    let last = at(ev);
    const move = (e: MouseEvent | TouchEvent) => { last = at(e) || last; };
    const end = (e: MouseEvent | TouchEvent) => {
      for (const [t, f] of handlers) document.removeEventListener(t, f as EventListener);
      const pos = e.type === 'mouseup' ? at(e) : last;
      const k = pos && this.board.cg ? this.board.cg.getKeyAtDomPos(pos) : undefined;
      if (k && pos) this.place(sqName(k), letter);
      else this.showBoard();
    };
    const handlers: [string, (e: MouseEvent | TouchEvent) => void][] = [['mousemove', move], ['touchmove', move], ['mouseup', end], ['touchend', end]];
    for (const [t, f] of handlers) document.addEventListener(t, f as EventListener, { passive: true });
  }

  // onContext removes the piece of the square right-clicked.
  private onContext(ev: MouseEvent): void {
    if (!this.board.cg) return;
    const k = this.board.cg.getKeyAtDomPos([ev.clientX, ev.clientY]);
    if (!k) return;
    ev.preventDefault();
    this.remove(sqName(k));
  }

  private setField(i: number, value: string): void {
    while (this.rest.length < i) this.rest.push('-');
    this.rest[i] = value;
    this.changed();
  }

  private toggleCastle(letter: string, on: boolean): void {
    const now = (this.rest[1] || '-').replace('-', '');
    const kept = [...this.castling].filter((c) => (c === letter ? on : now.includes(c))).join('');
    this.setField(1, kept || '-');
  }

  private fenTyped(text: string): void {
    this.readFEN(text);
    this.showBoard();
    this.validate();
    redraw();
  }

  private validate(): void {
    clearTimeout(this.timer);
    this.checking = true;
    this.seq++; // an answer about the position before the edit is stale
    this.timer = window.setTimeout(() => this.askServer(), VALIDATE_MS);
  }

  private async askServer(): Promise<void> {
    const v = this.v as Variant;
    const seq = ++this.seq;
    const fen = this.fen;
    const q = new URLSearchParams({ variant: v.name, fen: fen.trim() });
    try {
      const p = await api<Position>('/api/analysis/position?' + q.toString());
      if (this.closed || seq !== this.seq) return;
      this.pos = p;
      this.invalid = '';
    } catch (e) {
      if (this.closed || seq !== this.seq) return;
      this.pos = null;
      this.invalid = errorText(e);
    }
    this.checked = fen;
    this.checking = false;
    redraw();
  }

  private async copy(): Promise<void> {
    try { await copyText(this.fen.trim()); this.msg = { text: 'FEN copied', error: false }; } catch (e) { this.msg = { text: 'not copied: ' + errorText(e), error: true }; }
    redraw();
  }

  private async play(opponent: 'engine' | 'human'): Promise<void> {
    const v = this.v as Variant;
    const turn = (this.rest[0] || 'w') === 'b' ? 'black' : 'white';
    const body: Record<string, unknown> = { variant: v.name, fen: this.fen.trim(), color: this.color || turn, opponent };
    if (opponent === 'engine') body.level = this.level;
    try {
      const g = await api<Created>('/api/games', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
      saveSeat(g.id, g.seat, g.token);
      if (g.invite) localStorage.setItem('anychess.invite.' + g.id, inviteURL(g.invite));
      location.hash = '#/game/' + g.id;
    } catch (e) {
      this.msg = { text: 'No game: ' + errorText(e), error: true };
      redraw();
    }
  }

  // paletteLetters are the letters of the pieces the palette offers: the
  // variant's, or where the FEN defines its pieces in braces (csipgs's
  // designs, "{B=B,K=royal-K}"), those it defines.
  private paletteLetters(): string[] {
    const v = this.v as Variant;
    const all = v.pieces.map((p) => p.letter.toUpperCase());
    const defs = this.rest.find((f) => /^\{.*\}$/.test(f));
    if (!defs) return all;
    const named = defs.slice(1, -1).split(',').map((d) => d.split('=')[0].trim().toUpperCase()).filter((l) => all.includes(l));
    return named.length ? named : all;
  }

  /** view is the page. */
  view(): VNode {
    const v = this.v;
    if (!v) {
      return h('div#not-found.not-found', { key: 'setup-none' }, [h('h2', 'No such variant'),
        h('p', ['This server has no such variant. ', h('a', { attrs: { href: '#/' } }, 'Back to the lobby')])]);
    }
    const turn = this.rest[0] === 'b' ? 'b' : 'w';
    const rights = (this.rest[1] || '-');
    const selected = (t: Tool) => (typeof t === 'string' ? this.tool === t : typeof this.tool !== 'string' && this.tool.piece === t.piece);
    const chip = (letter: string) => {
      const p = v.pieces.find((x) => x.letter === letter.toUpperCase());
      const color = letter === letter.toUpperCase() ? 'white' : 'black';
      const name = `${color} ${p ? p.name : letter}`;
      return h('button.palette-piece', {
        key: 'pal-' + letter,
        attrs: { type: 'button', title: name, 'aria-label': name, 'aria-pressed': String(selected({ piece: letter })) },
        class: { selected: selected({ piece: letter }) },
        dataset: { piece: letter },
        on: {
          click: () => this.setTool({ piece: letter }),
          mousedown: (ev: MouseEvent) => { if (ev.button === 0) this.startDrag(letter, ev); },
          touchstart: (ev: TouchEvent) => this.startDrag(letter, ev),
        },
      }, [h('img', { attrs: { src: p ? pieceURL(p.letter, p.name, p.betza, color) : '', alt: '', width: 34, height: 34 } })]);
    };
    const status = this.checking ? 'checking…' : this.invalid ? this.invalid
      : this.pos ? `legal position: ${this.pos.turn} to move, ${this.pos.legal.length} legal move${this.pos.legal.length === 1 ? '' : 's'}` + (this.pos.status.result !== '*' ? ` — over: ${this.pos.status.result} ${this.pos.status.reason}` : '') : '';
    const pocketPieces = this.pocket === null ? [] : [...this.pocket];
    const letters = this.paletteLetters();
    return h('div#setup.setup-page', { key: 'setup-' + v.name, dataset: { variant: v.name } }, [
      h('p.crumbs', [h('a', { attrs: { href: '#/' } }, 'lobby'), ' · ', h('a', { attrs: { href: '#/rules/' + v.name } }, 'rules of ' + v.title), ' · board editor']),
      h('h2', ['Set up a position', h('span.dim', ` ${v.title}`)]),
      h('div.setup-cols', [
        h('div.setup-board', { on: { contextmenu: (ev: MouseEvent) => this.onContext(ev) } }, [
          this.board.view({ variant: v.name, files: v.files, ranks: v.ranks }, boardLabel(this.cgFEN(), v.files, v.pieces, 'white')),
          marksView({ squares: (this.marks().squares || []).filter((m) => m.mark === 'stack') }),
        ]),
        h('div.setup-tools', [
          h('div#palette.palette', [
            h('div.palette-row', letters.map((l) => chip(l.toUpperCase()))),
            h('div.palette-row', letters.map((l) => chip(l.toLowerCase()))),
            h('div.palette-row', [
              h('button#tool-move', { attrs: { type: 'button', 'aria-pressed': String(selected('move')) }, class: { selected: selected('move') }, on: { click: () => this.setTool('move') } }, 'move pieces'),
              h('button#tool-trash', { attrs: { type: 'button', 'aria-pressed': String(selected('trash')) }, class: { selected: selected('trash') }, on: { click: () => this.setTool('trash') } }, '✕ remove'),
              h('button#tool-clear', { attrs: { type: 'button' }, on: { click: () => { this.rows = this.rows.map((r) => r.map((c) => (c && c.terrain ? c : null))); this.changed(); } } }, 'empty board'),
              h('button#tool-start', { attrs: { type: 'button' }, on: { click: () => this.fenTyped(v.start_fen || '') } }, 'start position'),
            ]),
            this.ranked ? h('label', ['rank of a placed piece ', h('select#setup-rank', { on: { change: (ev: Event) => { this.rank = Number((ev.target as HTMLSelectElement).value); redraw(); } } },
              Array.from({ length: 10 }, (_, i) => h('option', { attrs: { value: String(i) }, props: { selected: i === this.rank } }, String(i))))]) : '',
            this.stacking ? h('p.dim', 'A piece placed on an occupied square joins it as a stack (the square\'s piece at the bottom); removing takes the top piece.') : '',
            h('p.dim', 'Click a piece, then squares to place it (or drag it onto the board); right-click or the remove tool takes a piece away; with "move pieces" drag pieces around.'),
          ]),
          this.pocket !== null ? h('div#setup-pocket.pocket', ['reserve: ',
            ...pocketPieces.map((l, i) => h('button.pocket-piece', { attrs: { type: 'button', title: 'remove ' + l }, on: { click: () => { this.pocket = pocketPieces.filter((_, j) => j !== i).join(''); this.changed(); } } }, l)),
            h('button#pocket-add', { attrs: { type: 'button', disabled: typeof this.tool === 'string' }, on: { click: () => { if (typeof this.tool !== 'string') { this.pocket = (this.pocket || '') + this.tool.piece; this.changed(); } } } }, 'add the selected piece')]) : '',
          h('div.setup-state', [
            h('label', ['to move ', h('select#setup-turn', { on: { change: (ev: Event) => this.setField(0, (ev.target as HTMLSelectElement).value) } },
              [h('option', { attrs: { value: 'w' }, props: { selected: turn === 'w' } }, 'White'), h('option', { attrs: { value: 'b' }, props: { selected: turn === 'b' } }, 'Black')])]),
            this.castling ? h('span#setup-castling', ['castling ', ...[...this.castling].map((c) => h('label.castle', [
              h('input', { attrs: { type: 'checkbox' }, props: { checked: rights.includes(c) }, dataset: { right: c }, on: { change: (ev: Event) => this.toggleCastle(c, (ev.target as HTMLInputElement).checked) } }), c]))]) : '',
          ]),
          h('label.wide', ['FEN ', h('input#setup-fen', { attrs: { spellcheck: 'false', autocomplete: 'off', 'aria-label': 'FEN of the position' }, props: { value: this.fen },
            on: { input: (ev: Event) => this.fenTyped((ev.target as HTMLInputElement).value) } })]),
          h('p#setup-status', { class: { error: !!this.invalid && !this.checking }, attrs: { 'aria-live': 'polite' }, dataset: { valid: this.checking ? '' : String(!this.invalid && !!this.pos), fen: this.checked } }, status),
          h('p.dim', 'The FEN edits what the tools do not: en passant, counters, and a variant\'s own fields (csipgs treasuries, reserves and designs).'),
          h('div.setup-actions', [
            h('button#setup-copy', { attrs: { type: 'button' }, on: { click: () => this.copy() } }, 'Copy FEN'), ' ',
            h('button#setup-analyse', { attrs: { type: 'button', disabled: !!this.invalid }, on: { click: () => { location.hash = analysisURL(v.name, this.fen.trim()); } } }, 'Open in analysis'),
          ]),
          h('div.setup-actions', [
            h('label', ['play as ', h('select#setup-color', { on: { change: (ev: Event) => { this.color = (ev.target as HTMLSelectElement).value as Color | ''; } } },
              [h('option', { attrs: { value: '' } }, 'the side to move'), h('option', { attrs: { value: 'white' } }, 'white'), h('option', { attrs: { value: 'black' } }, 'black')])]), ' ',
            h('button#setup-engine', { attrs: { type: 'button', disabled: !!this.invalid }, on: { click: () => this.play('engine') } }, 'Play the engine'), ' ',
            h('select#setup-level', { attrs: { 'aria-label': 'engine level' }, on: { change: (ev: Event) => { this.level = Number((ev.target as HTMLSelectElement).value); } } },
              [1, 2, 3, 4, 5, 6, 7, 8].map((n) => h('option', { attrs: { value: String(n) }, props: { selected: n === this.level } }, 'level ' + n))), ' ',
            h('button#setup-friend', { attrs: { type: 'button', disabled: !!this.invalid }, on: { click: () => this.play('human') } }, 'Play a friend'),
          ]),
          h('p#setup-msg', { class: { error: this.msg.error } }, this.msg.text),
        ]),
      ]),
    ]);
  }
}
