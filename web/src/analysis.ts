// The analysis board (#/analysis/<variant>?fen=… and #/analysis/game/<id>
// or #/analysis/game/<id>/<ply>): any position of any variant, or a
// finished game, with the engine's evaluation and best lines streamed by
// the server (GET /api/analysis, server-sent events), moves played on the
// board explored as variations in a move tree, and a game's blunders
// found on demand. The server knows the rules: every position shown is
// one it answered (GET /api/analysis/position), with its legal moves.
import type * as cg from 'chessgroundx/types';
import { h, type VNode } from 'snabbdom';
import { Board, boardLabel, cgBoard, key, movePair, sqName } from './components/board';
import { installPieceCSS } from './lib/pieces';
import type { Blunder, Color, EngineLine, LegalMove, Position, Study, Summary, Variant } from './types';
import { api, errorText, isTyping, redraw, variantByName } from './util';

// The lines the engine may show at once (MultiPV), and how long the page
// waits after a change of position before it asks for an analysis (a
// quick walk through the moves asks for the last position only).
const MAX_LINES = 3;
const SETTLE_MS = 120;

/** Route is where an analysis starts: a game (at a ply), or a variant's position. */
export type Route = { game: string; ply: number | null } | { game?: undefined; variant: string; fen: string };

/**
 * parseRoute reads the analysis route from the location's hash: the
 * source of the root position and the ply to start at.
 */
export function parseRoute(hash: string): Route {
  const [path, query = ''] = hash.replace(/^#\/?/, '').split('?');
  const parts = path.split('/').filter(Boolean).map(decodeURIComponent);
  const params = new URLSearchParams(query);
  if (parts[1] === 'game' && parts[2]) {
    const ply = parts[3] !== undefined && /^\d+$/.test(parts[3]) ? Number(parts[3]) : null;
    return { game: parts[2], ply };
  }
  return { variant: parts[1] || 'chess', fen: params.get('fen') || '' };
}

/** analysisURL is the route of the analysis of a position of a variant. */
export function analysisURL(variant: string, fen: string): string {
  return `#/analysis/${encodeURIComponent(variant)}${fen ? '?fen=' + encodeURIComponent(fen) : ''}`;
}

/**
 * fmtScore writes a score for White: "+0.34", "−1.20", "#3" (White
 * mates in 3), "#−2" (Black mates in 2).
 */
export function fmtScore(line: { white: number; mate: number } | undefined, turn: Color): string {
  if (!line) return '…';
  if (line.mate) {
    const m = turn === 'white' ? line.mate : -line.mate;
    return m > 0 ? `#${m}` : `#−${-m}`;
  }
  const s = line.white / 100;
  return (s > 0 ? '+' : s < 0 ? '−' : '') + Math.abs(s).toFixed(2);
}

/** barShare is White's share of the evaluation bar, 0..100. */
export function barShare(white: number): number {
  if (white >= 9000) return 100;
  if (white <= -9000) return 0;
  return 50 + 50 * (2 / (1 + Math.exp(-white / 400)) - 1);
}

/**
 * moverOf reads who makes ply number ply, and the move number it has,
 * from the FEN of the position before it (its second and sixth fields);
 * without a FEN, White moves the odd plies.
 */
function moverOf(fen: string | undefined, ply: number): { mover: Color; no: number } {
  const f = String(fen || '').split(' ');
  const mover = f[1] === 'b' ? 'black' : f[1] === 'w' ? 'white' : (ply % 2 ? 'white' : 'black');
  const no = parseInt(f[5], 10);
  return { mover, no: Number.isFinite(no) && no > 0 ? no : Math.ceil(ply / 2) };
}

/**
 * Node is a position of the move tree: the root, a ply of the game, or a
 * move played on the board. base and moves say where the server finds it:
 * the game's position after base plies and then moves, or the root
 * position (base null) and then moves.
 */
class Node {
  parent: Node | null;
  move: string | null;
  san: string | null;
  base: number | null;
  moves: string[];
  mainline: boolean; // a ply of the game
  ply: number; // plies from the root
  children: Node[] = [];
  info: Position | null = null; // the server's answer for the position
  line: EngineLine | null = null; // the best line last seen
  mover: Color = 'white';
  no = 1;
  chance = false;
  blunder: Blunder | null = null;

  constructor(parent: Node | null, move: string | null, san: string | null, { base = null, moves = [], mainline = false, ply = 0 }: { base?: number | null; moves?: string[]; mainline?: boolean; ply?: number } = {}) {
    this.parent = parent;
    this.move = move;
    this.san = san;
    this.base = base;
    this.moves = moves;
    this.mainline = mainline;
    this.ply = ply;
  }

  child(move: string, san: string): Node {
    let c = this.children.find((k) => k.move === move);
    if (c) return c;
    c = new Node(this, move, san, { base: this.base, moves: this.moves.concat(move), ply: this.ply + 1 });
    Object.assign(c, moverOf(this.info ? this.info.fen : undefined, c.ply));
    this.children.push(c);
    return c;
  }
}

/**
 * numberOf writes a move's number before White's moves, and before a
 * Black move that leads a line (lead: the first of a variation, or the
 * first after one).
 */
function numberOf(n: Node, lead: boolean): string {
  if (n.mover === 'white') return `${n.no}. `;
  return lead ? `${n.no}… ` : '';
}

/**
 * numbered writes a line of SAN moves from node's position with move
 * numbers (read from its FEN; the sides taken to alternate).
 */
function numbered(sans: string[], node: Node): string {
  const info = node.info as Position;
  let { no } = moverOf(info.fen, node.ply + 1);
  let turn = info.turn;
  const out: string[] = [];
  sans.forEach((s, i) => {
    if (turn === 'white') out.push(`${no}. ${s}`);
    else {
      out.push(i === 0 ? `${no}… ${s}` : s);
      no++;
    }
    turn = turn === 'white' ? 'black' : 'white';
  });
  return out.join(' ');
}

/** Blunders is the state of the blunder check: running (with progress), done, or failed. */
type Blunders = null | { progress: string } | { threshold: number; list: Blunder[] } | { error: true };

/** AnalysisView is the analysis page. */
export class AnalysisView {
  private readonly route: Route;
  private closed = false;
  private board = new Board();
  private lines: EngineLine[] = [];
  private multipv: number;
  private game: Summary | null = null;
  private variant: Variant | null = null;
  private root: Node | null = null;
  private node: Node | null = null;
  /** shown is the node whose position the board shows: the node selected once the server has answered for it. */
  private shown: Node | null = null;
  private msg = { text: '', error: false };
  private linesError = '';
  private depth = '';
  /** bar is the evaluation bar: White's share, its text, and the evaluation it shows (null while the position's is not known). */
  private bar: { share: number | null; text: string; white: number | null } = { share: null, text: '…', white: null };
  private choice: LegalMove[] | null = null;
  private dests: cg.Dests = new Map();
  private byPair = new Map<string, LegalMove[]>();
  private source: EventSource | null = null;
  private blunderSource: EventSource | null = null;
  private blunders: Blunders = null;
  private settle = 0;
  private retries = 0;
  private readonly onKey: (ev: KeyboardEvent) => void;

  constructor(route: Route) {
    this.route = route;
    this.multipv = Number(localStorage.getItem('anychess.multipv')) || 2;
    this.start().catch((e) => this.fail(errorText(e)));
    this.onKey = (ev) => {
      if (isTyping(ev)) return;
      const act = ({ ArrowLeft: () => this.back(), ArrowRight: () => this.forward(), Home: () => this.select(this.root),
        End: () => this.select(this.lineEnd(this.node)) } as Record<string, () => void>)[ev.key];
      if (!act) return;
      ev.preventDefault();
      act();
    };
    document.addEventListener('keydown', this.onKey);
  }

  /** close ends the page: its streams, timers and board. */
  close(): void {
    this.closed = true;
    this.stopStream();
    if (this.blunderSource) this.blunderSource.close();
    clearTimeout(this.settle);
    document.removeEventListener('keydown', this.onKey);
    this.board.destroy();
  }

  private fail(text: string): void {
    this.msg = { text, error: true };
    redraw();
  }

  /** view is the page. */
  view(): VNode {
    const v = this.variant;
    const p = this.shown && this.shown.info;
    const over = !!p && p.status.result !== '*';
    const share = this.bar.share;
    const title: (VNode | string)[] = [];
    if (this.game) {
      const g = this.game;
      title.push(`Analysis of ${g.title} `, h('a#game-link', { attrs: { href: '#/game/' + g.id } }, `game ${g.id}`),
        h('span.dim', g.finished ? ` · ${g.result} ${g.reason || ''}` : ' · in play'));
    } else if (v) title.push(`Analysis · ${v.title}`);
    else title.push('Analysis');
    if (v) title.push(' ', h('a#rules-link', { attrs: { href: '#/rules/' + v.name } }, 'rules'));
    const nav = h('div.nav', [
      h('button#nav-first', { attrs: { 'aria-label': 'the start position', title: 'start' }, on: { click: () => this.select(this.root) } }, '«'),
      h('button#nav-prev', { attrs: { 'aria-label': 'one move back', title: 'back' }, on: { click: () => this.back() } }, '‹'),
      h('button#nav-next', { attrs: { 'aria-label': 'one move forward', title: 'forward' }, on: { click: () => this.forward() } }, '›'),
      h('button#nav-last', { attrs: { 'aria-label': 'the end of the line', title: 'end of the line' }, on: { click: () => this.select(this.lineEnd(this.node)) } }, '»'),
      h('button#flip', { attrs: { 'aria-label': 'flip the board', title: 'flip the board' }, on: { click: () => { if (this.board.cg) { this.board.cg.toggleOrientation(); redraw(); } } } }, '⇅'),
      h('select#multipv', { attrs: { 'aria-label': 'lines shown' }, on: { change: (ev: Event) => {
        const val = (ev.target as HTMLSelectElement).value;
        this.multipv = Number(val);
        localStorage.setItem('anychess.multipv', val);
        this.analyse();
      } } }, [1, 2, 3].slice(0, MAX_LINES).map((n) => h('option', { attrs: { value: n }, props: { selected: n === this.multipv } }, n === 1 ? '1 line' : `${n} lines`))),
      h('button#find-blunders', { attrs: { hidden: !(this.game && this.root && this.root.children.length), disabled: !!this.blunders && 'progress' in this.blunders }, on: { click: () => this.findBlunders() } }, 'Find blunders'),
    ]);
    return h('div.game.analysis', { key: 'analysis' }, [
      h('div.left', [
        h('div#evalbar.evalbar', {
          attrs: { role: 'meter', 'aria-label': 'evaluation for White', 'aria-valuemin': 0, 'aria-valuemax': 100, ...(share === null ? {} : { 'aria-valuenow': Math.round(share) }) },
          dataset: this.bar.white === null ? {} : { white: String(this.bar.white) },
        }, [
          h('div.evalbar-fill', { style: share === null ? {} : { width: `${share}%` } }),
          h('span#eval.evalbar-text', this.bar.text),
        ]),
        this.board.view(v ? { variant: v.name, files: v.files, ranks: v.ranks } : null,
          p && v && this.board.cg ? boardLabel(p.board, v.files, v.pieces, this.board.orientation()) : 'Board'),
      ]),
      h('div.right', [
        h('h2#title', title),
        h('div#status.status', { attrs: { role: 'status', 'aria-live': 'polite' }, dataset: p ? { over: over ? 'yes' : 'no' } : {} },
          p ? (over ? `${p.status.result} · ${p.status.reason}${p.status.detail ? ' — ' + p.status.detail : ''}` : `${p.turn} to move`) : ''),
        h('div#message', { class: { message: true, error: this.msg.error } }, this.msg.text),
        h('h3', ['Engine ', h('span#depth.dim', this.depth)]),
        this.linesView(),
        h('div#choice.promotion', this.choice ? ['Which move? ', ...this.choice.map((l) => h('button.choice', { dataset: { move: l.move }, on: { click: () => this.play(l) } }, l.san)),
          h('button.promo-cancel', { attrs: { 'aria-label': 'cancel' }, on: { click: () => { if (this.node) this.draw(this.node); } } }, '✕')] : []),
        h('div#special.special', p ? this.specials(p).slice(0, 40).map((l) => h('button.special-move', { on: { click: () => this.play(l) } }, l.san || l.move)) : []),
        nav,
        this.treeView(),
        this.blundersView(),
        h('label.fen-row', ['FEN ', h('input#analysis-fen', { attrs: { readonly: true, 'aria-label': 'the FEN of the position shown' }, props: { value: p ? p.fen : '' }, on: { click: (e: Event) => (e.target as HTMLInputElement).select() } })]),
      ]),
    ]);
  }

  // specials are the legal moves that are not from one square to another.
  private specials(p: Position): LegalMove[] {
    return p.legal.filter((l) => !movePair(l.move));
  }

  private linesView(): VNode {
    const attrs = { attrs: { 'aria-label': 'the engine\'s best lines' } };
    const node = this.node;
    const p = node && node.info;
    if (this.linesError) return h('ol#lines.engine-lines', attrs, [h('li.error', this.linesError)]);
    if (!node || !p) return h('ol#lines.engine-lines', attrs, [h('li.dim', 'thinking…')]);
    if (p.status.result !== '*') return h('ol#lines.engine-lines', attrs, []);
    const lines = this.lines.filter(Boolean);
    if (!lines.length) return h('ol#lines.engine-lines', attrs, [h('li.dim', 'thinking…')]);
    return h('ol#lines.engine-lines', attrs, lines.map((l) => h('li.engine-line', { dataset: { multipv: String(l.multipv) } }, [
      h('span.line-score', fmtScore(l, p.turn)), ' ',
      h('span.line-moves', numbered(l.san, node)),
      l.pv.length ? h('button.line-play', { attrs: { title: 'play the line\'s first move', 'aria-label': `play ${l.san[0]}` }, on: { click: () => {
        const first = p.legal.find((x) => x.move === l.pv[0]);
        if (first) this.play(first);
      } } }, '▶') : '',
    ])));
  }

  // start reads the root position (and a game's plies), sets up the board
  // and shows the position asked for.
  private async start(): Promise<void> {
    const r = this.route;
    let node: Node;
    let name: string;
    if (r.game !== undefined) {
      const sg = await api<Study>(`/api/games/${encodeURIComponent(r.game)}/study`);
      this.game = sg.game;
      name = sg.game.variant;
      this.root = new Node(null, null, null, { base: 0, mainline: true });
      let n = this.root;
      let before = sg.start_fen;
      for (const p of sg.plies) {
        const c = new Node(n, p.move, p.san, { base: p.ply, mainline: true, ply: p.ply });
        Object.assign(c, moverOf(before, p.ply));
        before = p.fen;
        c.chance = !!p.chance;
        n.children.push(c);
        n = c;
      }
      node = r.ply === null ? n : this.nodeAtPly(r.ply) || n;
    } else {
      name = r.variant;
      this.root = new Node(null, null, null);
      node = this.root;
    }
    const v = variantByName(name);
    if (!v) throw new Error(`unknown variant ${name}`);
    this.variant = v;
    installPieceCSS(v.name, v.pieces);
    redraw(); // the board's wrapper gets the variant's size before the board starts
    this.board.start({
      dimensions: { width: v.files, height: v.ranks },
      fen: cgBoard('', v.files, v.ranks),
      orientation: 'white',
      coordinates: true,
      autoCastle: false,
      movable: { free: false, color: 'both', showDests: true, events: { after: (o, d) => this.userMove(o, d) } },
      premovable: { enabled: false }, // a move is explored at once, by either side
      draggable: { enabled: true },
      highlight: { lastMove: true, check: true },
      animation: { enabled: true, duration: 120 },
    });
    await this.select(node);
  }

  private nodeAtPly(ply: number): Node | null {
    let n: Node | undefined = this.root || undefined;
    while (n && n.ply < ply) n = n.children[0];
    return n || null;
  }

  // query is the server's name of node's position.
  private query(node: Node): string {
    const q = new URLSearchParams();
    const r = this.route;
    if (r.game !== undefined) {
      q.set('game', r.game);
      q.set('ply', String(node.base));
    } else {
      q.set('variant', r.variant);
      if (r.fen) q.set('fen', r.fen);
    }
    if (node.moves.length) q.set('moves', node.moves.join(' '));
    return q.toString();
  }

  // select shows node's position, asking the server for it the first
  // time, and starts its analysis.
  private async select(node: Node | null): Promise<void> {
    if (!node || this.closed) return;
    this.node = node;
    this.stopStream();
    this.clearLines();
    this.drawTree();
    if (!node.info) {
      try {
        node.info = await api<Position>('/api/analysis/position?' + this.query(node));
      } catch (e) {
        if (this.node === node) this.fail(errorText(e));
        return;
      }
      if (this.node !== node || this.closed) return;
    }
    this.msg = { text: '', error: false };
    this.draw(node);
    clearTimeout(this.settle);
    this.retries = 0;
    this.settle = window.setTimeout(() => this.analyse(), SETTLE_MS);
  }

  // draw puts node's position on the board with its legal moves.
  private draw(node: Node): void {
    const p = node.info;
    const v = this.variant;
    const cgApi = this.board.cg;
    if (!p || !v || !cgApi) return;
    this.dests = new Map();
    this.byPair = new Map();
    const over = p.status.result !== '*';
    for (const l of p.legal) {
      const ends = movePair(l.move);
      if (!ends) continue; // a button (specials)
      const from = key(ends[0]), to = key(ends[1]);
      const list = this.dests.get(from) || [];
      if (!list.includes(to)) list.push(to);
      this.dests.set(from, list);
      const pair = from + to;
      this.byPair.set(pair, [...(this.byPair.get(pair) || []), l]);
    }
    this.choice = null;
    this.shown = node;
    cgApi.set({
      fen: cgBoard(p.board, v.files, v.ranks),
      turnColor: p.turn,
      lastMove: p.last ? p.last.map(key) : undefined,
      check: p.check ? [key(p.check)] : false,
      movable: { color: over ? undefined : p.turn, dests: this.dests },
    });
    document.body.dataset.analysisPly = String(node.ply);
    if (over) {
      const white = p.status.result === '1-0' ? 10000 : p.status.result === '0-1' ? -10000 : 0;
      this.bar = { share: barShare(white), white, text: white > 0 ? '1-0' : white < 0 ? '0-1' : '½-½' };
      this.lines = [];
      this.depth = '';
    }
    redraw();
  }

  private userMove(orig: cg.Orig, dest: cg.Key): void {
    const cands = this.byPair.get(orig + dest) || [];
    if (cands.length === 1) { this.play(cands[0]); return; }
    if (cands.length > 1) {
      this.choice = cands;
      redraw();
      return;
    }
    this.fail(`${sqName(orig)}-${sqName(dest)} is not a legal move`);
    if (this.node) this.draw(this.node);
  }

  // play explores a legal move from the position shown: the next ply of
  // the game if it is that, else a variation.
  private play(l: LegalMove): void {
    const n = this.node;
    if (!n) return;
    const main = n.children.find((c) => c.move === l.move);
    this.select(main || n.child(l.move, l.san));
  }

  private back(): void { if (this.node && this.node.parent) this.select(this.node.parent); }
  private forward(): void { if (this.node && this.node.children.length) this.select(this.node.children[0]); }
  private lineEnd(n: Node | null): Node | null { while (n && n.children.length) n = n.children[0]; return n; }

  // clearLines forgets the lines of the position shown before.
  private clearLines(): void {
    this.lines = [];
    this.linesError = '';
    this.depth = '';
    this.bar = { ...this.bar, white: null }; // the bar stands until the new evaluation comes
    redraw();
  }

  private stopStream(): void {
    if (this.source) { this.source.close(); this.source = null; }
  }

  // analyse streams the engine's lines for the position shown.
  private analyse(): void {
    this.stopStream();
    const node = this.node;
    if (!node || !node.info || node.info.status.result !== '*' || this.closed) return;
    this.clearLines();
    const src = new EventSource(`/api/analysis?${this.query(node)}&multipv=${this.multipv}`);
    this.source = src;
    src.addEventListener('line', (ev) => {
      if (this.source !== src) return;
      const l = JSON.parse((ev as MessageEvent).data) as EngineLine;
      // A new depth starts a new set of lines.
      if (this.lines.length && l.multipv === 1) this.lines = this.lines.filter((x) => x.depth >= l.depth);
      this.lines[l.multipv - 1] = l;
      if (l.multipv === 1) node.line = l;
      this.showLines(node);
    });
    src.addEventListener('done', () => {
      src.close();
      if (this.source === src) { this.source = null; this.depth += ' · done'; redraw(); }
    });
    src.addEventListener('error', (ev) => {
      src.close();
      if (this.source !== src) return;
      this.source = null;
      const data = (ev as MessageEvent).data;
      let msg = 'the analysis stopped';
      try { if (data) msg = JSON.parse(data).message; } catch { /* a lost connection */ }
      if (this.lines.length) return;
      // Refused before it started: most often the analysis of the
      // position left a moment ago still counts on the server (a client
      // may run two at once); try again a little later.
      if (!data && this.retries < 3 && this.node === node) {
        this.retries++;
        clearTimeout(this.settle);
        this.settle = window.setTimeout(() => { if (this.node === node) this.analyse(); }, 400 * this.retries);
        return;
      }
      this.linesError = msg;
      redraw();
    });
  }

  private showLines(node: Node): void {
    const best = this.lines[0];
    this.depth = best ? `depth ${best.depth}` : '';
    if (best && node.info) this.bar = { share: barShare(best.white), white: best.white, text: fmtScore(best, node.info.turn) };
    redraw();
  }

  // drawTree shows the moves with the current one marked, scrolled into view.
  private drawTree(): void {
    redraw();
    const cur = document.querySelector('#tree .current');
    if (cur && cur.scrollIntoView) cur.scrollIntoView({ block: 'nearest' });
  }

  // treeView writes the moves: the main line with each variation in
  // brackets after the move it branches from, the current move marked.
  private treeView(): VNode {
    const root = this.root;
    const attrs = { attrs: { 'aria-label': 'moves and variations' } };
    if (!root) return h('div#tree.move-tree', attrs);
    const moveEl = (n: Node, lead: boolean) => h('span.tree-move', {
      class: { current: n === this.node, main: n.mainline, side: !n.mainline, blunder: !!n.blunder },
      attrs: { role: 'button', tabindex: 0 }, dataset: { ply: String(n.ply) },
      on: { click: () => this.select(n), keydown: (e: KeyboardEvent) => { if (e.key === 'Enter') this.select(n); } },
    }, numberOf(n, lead) + (n.san || '') + (n.blunder ? '??' : ''));
    // after writes the moves after node n: its first child, the other
    // children's lines in brackets (as PGN writes variations), then the
    // first child's own continuation.
    const after = (start: Node, out: (VNode | string)[], lead: boolean) => {
      let n: Node = start;
      while (n.children.length) {
        const [first, ...rest] = n.children;
        out.push(moveEl(first, lead));
        for (const r of rest) {
          const side: (VNode | string)[] = [moveEl(r, true)];
          after(r, side, false);
          out.push(h('span.variation', ['(', ...side, ')']));
        }
        lead = rest.length > 0; // the line goes on after a variation
        n = first;
      }
      return out;
    };
    return h('div#tree.move-tree', attrs, [
      h('span.tree-move', { class: { current: root === this.node }, attrs: { role: 'button', tabindex: 0 }, dataset: { ply: '0' }, on: { click: () => this.select(root) } }, 'start'),
      ' ', ...after(root, [], true),
    ]);
  }

  private blundersView(): VNode {
    const b = this.blunders;
    if (!b) return h('div#blunders.blunders');
    if ('progress' in b) return h('div#blunders.blunders', [h('p#blunder-progress.dim', b.progress)]);
    if ('error' in b) return h('div#blunders.blunders', [h('p.error', 'the check stopped; try again')]);
    const pawns = (b.threshold / 100).toFixed(2);
    return h('div#blunders.blunders', [
      h('h3', ['Blunders ', h('span.dim', `(plies after which the mover's evaluation fell by more than ${pawns} pawns at the server's check depth; plies decided by chance are not judged)`)]),
      b.list.length
        ? h('ul#blunder-list', b.list.map((x) => h('li.blunder-item', { dataset: { ply: String(x.ply) } }, [
          h('button.link', { on: { click: () => this.select(this.nodeAtPly(x.ply)) } }, `${(this.nodeAtPly(x.ply) || { no: '' }).no || ''}${x.seat === 'white' ? '.' : '…'} ${x.san}??`),
          ` ${x.seat} lost ${(x.drop / 100).toFixed(2)}` + (x.best ? `; better ${x.best}` : ''),
        ])))
        : h('p#blunder-list', 'No blunders found.'),
    ]);
  }

  // findBlunders asks the server to evaluate every position of the game
  // and marks the plies it names as blunders.
  private findBlunders(): void {
    if (this.route.game === undefined) return;
    if (this.blunderSource) this.blunderSource.close();
    const end = this.lineEnd(this.root);
    const total = end ? end.ply : 0;
    this.blunders = { progress: `checking 0 of ${total} plies…` };
    redraw();
    const src = new EventSource(`/api/games/${encodeURIComponent(this.route.game)}/blunders`);
    this.blunderSource = src;
    src.addEventListener('eval', (ev) => {
      const e = JSON.parse((ev as MessageEvent).data) as { ply: number };
      if (this.blunders && 'progress' in this.blunders) { this.blunders = { progress: `checking ${e.ply} of ${total} plies…` }; redraw(); }
    });
    src.addEventListener('done', (ev) => {
      src.close();
      const d = JSON.parse((ev as MessageEvent).data) as { threshold: number; blunders: Blunder[] };
      for (const b of d.blunders) {
        const n = this.nodeAtPly(b.ply);
        if (n) n.blunder = b;
      }
      this.blunders = { threshold: d.threshold, list: d.blunders };
      this.drawTree();
    });
    src.addEventListener('error', () => {
      src.close();
      if (!this.blunders || !('list' in this.blunders)) { this.blunders = { error: true }; redraw(); }
    });
  }
}
