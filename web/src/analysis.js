// The analysis board (#/analysis/<variant>?fen=… and #/analysis/game/<id>
// or #/analysis/game/<id>/<ply>): any position of any variant, or a
// finished game, with the engine's evaluation and best lines streamed by
// the server (GET /api/analysis, server-sent events), moves played on the
// board explored as variations in a move tree, and a game's blunders
// found on demand. The server knows the rules: every position shown is
// one it answered (GET /api/analysis/position), with its legal moves.
import { Chessground } from 'chessgroundx';

// The lines the engine may show at once (MultiPV), and how long the page
// waits after a change of position before it asks for an analysis (a
// quick walk through the moves asks for the last position only).
const MAX_LINES = 3;
const SETTLE_MS = 120;

// parseRoute reads the analysis route from the location's hash: the
// source of the root position and the ply to start at.
export function parseRoute(hash) {
  const [path, query = ''] = hash.replace(/^#\/?/, '').split('?');
  const parts = path.split('/').filter(Boolean).map(decodeURIComponent);
  const params = new URLSearchParams(query);
  if (parts[1] === 'game' && parts[2]) {
    const ply = parts[3] !== undefined && /^\d+$/.test(parts[3]) ? Number(parts[3]) : null;
    return { game: parts[2], ply };
  }
  return { variant: parts[1] || 'chess', fen: params.get('fen') || '' };
}

// analysisURL is the route of the analysis of a position of a variant.
export function analysisURL(variant, fen) {
  return `#/analysis/${encodeURIComponent(variant)}${fen ? '?fen=' + encodeURIComponent(fen) : ''}`;
}

// fmtScore writes a score for White: "+0.34", "−1.20", "#3" (White
// mates in 3), "#−2" (Black mates in 2).
export function fmtScore(line, turn) {
  if (!line) return '…';
  if (line.mate) {
    const m = turn === 'white' ? line.mate : -line.mate;
    return m > 0 ? `#${m}` : `#−${-m}`;
  }
  const s = line.white / 100;
  return (s > 0 ? '+' : s < 0 ? '−' : '') + Math.abs(s).toFixed(2);
}

// barShare is White's share of the evaluation bar, 0..100.
export function barShare(white) {
  if (white >= 9000) return 100;
  if (white <= -9000) return 0;
  return 50 + 50 * (2 / (1 + Math.exp(-white / 400)) - 1);
}

// Node is a position of the move tree: the root, a ply of the game, or a
// move played on the board. base and moves say where the server finds it:
// the game's position after base plies and then moves, or the root
// position (base null) and then moves.
class Node {
  constructor(parent, move, san, { base = null, moves = [], mainline = false, ply = 0 } = {}) {
    this.parent = parent;
    this.move = move;
    this.san = san;
    this.base = base;
    this.moves = moves;
    this.mainline = mainline; // a ply of the game
    this.ply = ply; // plies from the root
    this.children = [];
    this.info = null; // the server's answer for the position
    this.line = null; // the best line last seen
  }

  child(move, san) {
    let c = this.children.find((k) => k.move === move);
    if (c) return c;
    c = new Node(this, move, san, { base: this.base, moves: this.moves.concat(move), ply: this.ply + 1 });
    Object.assign(c, moverOf(this.info && this.info.fen, c.ply));
    this.children.push(c);
    return c;
  }
}

// AnalysisView is the analysis page. kit holds the page's shared helpers
// (app.js): h, api, key, sqName, cgBoard, movePair, variantByName,
// installPieceCSS, pieceURL, boardLabel.
export class AnalysisView {
  constructor(app, kit, route) {
    this.app = app;
    this.kit = kit;
    this.route = route;
    this.lines = [];
    this.multipv = Number(localStorage.getItem('anychess.multipv')) || 2;
    this.build();
    this.start().catch((e) => this.fail(e.message));
    this.onKey = (ev) => {
      if (/^(INPUT|SELECT|TEXTAREA)$/.test(ev.target.tagName) || ev.altKey || ev.ctrlKey || ev.metaKey) return;
      const act = { ArrowLeft: () => this.back(), ArrowRight: () => this.forward(), Home: () => this.select(this.root),
        End: () => this.select(this.lineEnd(this.node)) }[ev.key];
      if (!act) return;
      ev.preventDefault();
      act();
    };
    document.addEventListener('keydown', this.onKey);
  }

  close() {
    this.closed = true;
    this.stopStream();
    if (this.blunderSource) this.blunderSource.close();
    clearTimeout(this.settle);
    document.removeEventListener('keydown', this.onKey);
    if (this.cg) this.cg.destroy();
  }

  build() {
    const { h } = this.kit;
    this.boardEl = h('div', { class: 'board', id: 'board', role: 'img', 'aria-label': 'Board' });
    this.wrap = h('div', { class: 'board-wrap' }, this.boardEl);
    this.barFill = h('div', { class: 'evalbar-fill' });
    this.barText = h('span', { class: 'evalbar-text', id: 'eval' }, '…');
    this.bar = h('div', { class: 'evalbar', id: 'evalbar', role: 'meter', 'aria-label': 'evaluation for White', 'aria-valuemin': 0, 'aria-valuemax': 100 }, this.barFill, this.barText);
    this.title = h('h2', { id: 'title' }, 'Analysis');
    this.statusEl = h('div', { class: 'status', id: 'status', role: 'status', 'aria-live': 'polite' });
    this.msgEl = h('div', { class: 'message', id: 'message' });
    this.linesEl = h('ol', { class: 'engine-lines', id: 'lines', 'aria-label': 'the engine\'s best lines' });
    this.depthEl = h('span', { class: 'dim', id: 'depth' });
    this.treeEl = h('div', { class: 'move-tree', id: 'tree', 'aria-label': 'moves and variations' });
    this.choiceEl = h('div', { class: 'promotion', id: 'choice' });
    this.specialEl = h('div', { class: 'special', id: 'special' });
    this.fenEl = h('input', { id: 'analysis-fen', readonly: true, 'aria-label': 'the FEN of the position shown', onclick: (e) => e.target.select() });
    this.blunderBtn = h('button', { id: 'find-blunders', hidden: true, onclick: () => this.findBlunders() }, 'Find blunders');
    this.blunderEl = h('div', { class: 'blunders', id: 'blunders' });
    const pv = h('select', { id: 'multipv', 'aria-label': 'lines shown', onchange: () => {
      this.multipv = Number(pv.value);
      localStorage.setItem('anychess.multipv', pv.value);
      this.analyse();
    } }, [1, 2, 3].slice(0, MAX_LINES).map((n) => h('option', { value: n, selected: n === this.multipv }, n === 1 ? '1 line' : `${n} lines`)));
    const nav = h('div', { class: 'nav' },
      h('button', { id: 'nav-first', 'aria-label': 'the start position', title: 'start', onclick: () => this.select(this.root) }, '«'),
      h('button', { id: 'nav-prev', 'aria-label': 'one move back', title: 'back', onclick: () => this.back() }, '‹'),
      h('button', { id: 'nav-next', 'aria-label': 'one move forward', title: 'forward', onclick: () => this.forward() }, '›'),
      h('button', { id: 'nav-last', 'aria-label': 'the end of the line', title: 'end of the line', onclick: () => this.select(this.lineEnd(this.node)) }, '»'),
      h('button', { id: 'flip', 'aria-label': 'flip the board', title: 'flip the board', onclick: () => { if (this.cg) this.cg.toggleOrientation(); } }, '⇅'),
      pv, this.blunderBtn);
    this.rulesLink = h('a', { id: 'rules-link' }, 'rules');
    this.app.replaceChildren(h('div', { class: 'game analysis' },
      h('div', { class: 'left' }, this.bar, this.wrap),
      h('div', { class: 'right' }, this.title, this.statusEl, this.msgEl,
        h('h3', {}, 'Engine ', this.depthEl), this.linesEl, this.choiceEl, this.specialEl, nav,
        this.treeEl, this.blunderEl, h('label', { class: 'fen-row' }, 'FEN ', this.fenEl))));
  }

  fail(text) {
    this.msgEl.className = 'message error';
    this.msgEl.textContent = text;
  }

  flash(text) {
    this.msgEl.className = 'message';
    this.msgEl.textContent = text;
  }

  // start reads the root position (and a game's plies), sets up the board
  // and shows the position asked for.
  async start() {
    const { api, h } = this.kit;
    const r = this.route;
    let node;
    if (r.game) {
      const sg = await api(`/api/games/${encodeURIComponent(r.game)}/study`);
      this.game = sg.game;
      this.variantName = sg.game.variant;
      this.root = new Node(null, null, null, { base: 0, mainline: true });
      let n = this.root;
      let before = sg.start_fen;
      for (const p of sg.plies) {
        const c = new Node(n, p.move, p.san, { base: p.ply, mainline: true, ply: p.ply });
        Object.assign(c, moverOf(before, p.ply));
        before = p.fen;
        c.chance = p.chance;
        n.children.push(c);
        n = c;
      }
      node = r.ply === null ? n : this.nodeAtPly(r.ply) || n;
      this.title.replaceChildren(`Analysis of ${sg.game.title} `, h('a', { href: '#/game/' + sg.game.id, id: 'game-link' }, `game ${sg.game.id}`),
        h('span', { class: 'dim' }, sg.game.finished ? ` · ${sg.game.result} ${sg.game.reason || ''}` : ' · in play'));
      this.blunderBtn.hidden = !sg.plies.length;
    } else {
      this.variantName = r.variant;
      this.root = new Node(null, null, null);
      node = this.root;
    }
    const v = this.kit.variantByName(this.variantName);
    if (!v) throw new Error(`unknown variant ${this.variantName}`);
    this.variant = v;
    this.kit.installPieceCSS(v.name, v.pieces);
    if (!r.game) this.title.replaceChildren(`Analysis · ${v.title}`);
    this.rulesLink.href = '#/rules/' + v.name;
    this.title.append(' ', this.rulesLink);
    const parity = (n) => (n % 2 ? 'odd' : 'even');
    this.wrap.className = `board-wrap v-${v.name} dim-${v.files}x${v.ranks} files-${parity(v.files)} ranks-${parity(v.ranks)}`;
    this.wrap.style.setProperty('--files', v.files);
    this.wrap.style.setProperty('--ranks', v.ranks);
    this.cg = Chessground(this.boardEl, {
      dimensions: { width: v.files, height: v.ranks },
      fen: this.kit.cgBoard('', v.files, v.ranks),
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

  nodeAtPly(ply) {
    let n = this.root;
    while (n && n.ply < ply) n = n.children[0];
    return n;
  }

  // query is the server's name of node's position.
  query(node) {
    const q = new URLSearchParams();
    if (this.route.game) {
      q.set('game', this.route.game);
      q.set('ply', String(node.base));
    } else {
      q.set('variant', this.route.variant);
      if (this.route.fen) q.set('fen', this.route.fen);
    }
    if (node.moves.length) q.set('moves', node.moves.join(' '));
    return q.toString();
  }

  // select shows node's position, asking the server for it the first
  // time, and starts its analysis.
  async select(node) {
    if (!node || this.closed) return;
    this.node = node;
    this.stopStream();
    this.clearLines();
    this.drawTree();
    if (!node.info) {
      try {
        node.info = await this.kit.api('/api/analysis/position?' + this.query(node));
      } catch (e) {
        if (this.node === node) this.fail(e.message);
        return;
      }
      if (this.node !== node || this.closed) return;
    }
    this.flash('');
    this.draw(node);
    clearTimeout(this.settle);
    this.retries = 0;
    this.settle = setTimeout(() => this.analyse(), SETTLE_MS);
  }

  // draw puts node's position on the board with its legal moves.
  draw(node) {
    const { key, cgBoard, movePair, h } = this.kit;
    const p = node.info;
    const v = this.variant;
    this.dests = new Map();
    this.byPair = new Map();
    const specials = [];
    const over = p.status.result !== '*';
    for (const l of p.legal) {
      const ends = movePair(l.move);
      if (!ends) { specials.push(l); continue; }
      const from = key(ends[0]), to = key(ends[1]);
      if (!this.dests.has(from)) this.dests.set(from, []);
      if (!this.dests.get(from).includes(to)) this.dests.get(from).push(to);
      const pair = from + to;
      if (!this.byPair.has(pair)) this.byPair.set(pair, []);
      this.byPair.get(pair).push(l);
    }
    this.choiceEl.replaceChildren();
    this.specialEl.replaceChildren(...specials.slice(0, 40).map((l) => h('button', { class: 'special-move', onclick: () => this.play(l) }, l.san || l.move)));
    this.cg.set({
      fen: cgBoard(p.board, v.files, v.ranks),
      turnColor: p.turn,
      lastMove: p.last ? p.last.map(key) : undefined,
      check: p.check ? [key(p.check)] : false,
      movable: { color: over ? undefined : p.turn, dests: this.dests },
    });
    this.boardEl.setAttribute('aria-label', this.kit.boardLabel(p.board, v.files, v.pieces, this.cg.state.orientation));
    this.fenEl.value = p.fen;
    document.body.dataset.analysisPly = String(node.ply);
    this.statusEl.dataset.over = over ? 'yes' : 'no';
    this.statusEl.textContent = over
      ? `${p.status.result} · ${p.status.reason}${p.status.detail ? ' — ' + p.status.detail : ''}`
      : `${p.turn} to move`;
    if (over) {
      const white = p.status.result === '1-0' ? 10000 : p.status.result === '0-1' ? -10000 : 0;
      this.showBar({ white, mate: 0 }, p.turn, over);
      this.linesEl.replaceChildren();
      this.depthEl.textContent = '';
    }
  }

  userMove(orig, dest) {
    const cands = this.byPair.get(orig + dest) || [];
    if (cands.length === 1) { this.play(cands[0]); return; }
    if (cands.length > 1) {
      const { h } = this.kit;
      this.choiceEl.replaceChildren('Which move? ', ...cands.map((l) => h('button', { class: 'choice', 'data-move': l.move, onclick: () => this.play(l) }, l.san)),
        h('button', { class: 'promo-cancel', 'aria-label': 'cancel', onclick: () => this.draw(this.node) }, '✕'));
      return;
    }
    this.fail(`${this.kit.sqName(orig)}-${this.kit.sqName(dest)} is not a legal move`);
    this.draw(this.node);
  }

  // play explores a legal move from the position shown: the next ply of
  // the game if it is that, else a variation.
  play(l) {
    const n = this.node;
    const main = n.children.find((c) => c.move === l.move);
    this.select(main || n.child(l.move, l.san));
  }

  back() { if (this.node && this.node.parent) this.select(this.node.parent); }
  forward() { if (this.node && this.node.children.length) this.select(this.node.children[0]); }
  lineEnd(n) { while (n && n.children.length) n = n.children[0]; return n; }

  // clearLines forgets the lines of the position shown before.
  clearLines() {
    this.lines = [];
    this.linesEl.replaceChildren(this.kit.h('li', { class: 'dim' }, 'thinking…'));
    this.depthEl.textContent = '';
    delete this.bar.dataset.white;
  }

  stopStream() {
    if (this.source) { this.source.close(); this.source = null; }
  }

  // analyse streams the engine's lines for the position shown.
  analyse() {
    this.stopStream();
    const node = this.node;
    if (!node || !node.info || node.info.status.result !== '*' || this.closed) return;
    this.clearLines();
    const src = new EventSource(`/api/analysis?${this.query(node)}&multipv=${this.multipv}`);
    this.source = src;
    src.addEventListener('line', (ev) => {
      if (this.source !== src) return;
      const l = JSON.parse(ev.data);
      // A new depth starts a new set of lines.
      if (this.lines.length && l.multipv === 1) this.lines = this.lines.filter((x) => x.depth >= l.depth);
      this.lines[l.multipv - 1] = l;
      if (l.multipv === 1) node.line = l;
      this.showLines(node);
    });
    src.addEventListener('done', () => {
      src.close();
      if (this.source === src) { this.source = null; this.depthEl.textContent += ' · done'; }
    });
    src.addEventListener('error', (ev) => {
      src.close();
      if (this.source !== src) return;
      this.source = null;
      let msg = 'the analysis stopped';
      try { if (ev.data) msg = JSON.parse(ev.data).message; } catch { /* a lost connection */ }
      if (this.lines.length) return;
      // Refused before it started: most often the analysis of the
      // position left a moment ago still counts on the server (a client
      // may run two at once); try again a little later.
      if (!ev.data && this.retries < 3 && this.node === node) {
        this.retries++;
        clearTimeout(this.settle);
        this.settle = setTimeout(() => { if (this.node === node) this.analyse(); }, 400 * this.retries);
        return;
      }
      this.linesEl.replaceChildren(this.kit.h('li', { class: 'error' }, msg));
    });
  }

  showLines(node) {
    const { h } = this.kit;
    const turn = node.info.turn;
    const best = this.lines[0];
    this.depthEl.textContent = best ? `depth ${best.depth}` : '';
    this.showBar(best, turn, false);
    this.linesEl.replaceChildren(...this.lines.filter(Boolean).map((l) => h('li', { class: 'engine-line', 'data-multipv': l.multipv },
      h('span', { class: 'line-score' }, fmtScore(l, turn)), ' ',
      h('span', { class: 'line-moves' }, numbered(l.san, node)),
      l.pv.length ? h('button', { class: 'line-play', title: 'play the line\'s first move', 'aria-label': `play ${l.san[0]}`, onclick: () => {
        const first = node.info.legal.find((x) => x.move === l.pv[0]);
        if (first) this.play(first);
      } }, '▶') : null)));
  }

  showBar(line, turn, over) {
    if (!line) return;
    const share = barShare(line.white);
    this.barFill.style.width = `${share}%`;
    this.bar.setAttribute('aria-valuenow', Math.round(share));
    this.barText.textContent = over ? (line.white > 0 ? '1-0' : line.white < 0 ? '0-1' : '½-½') : fmtScore(line, turn);
    this.bar.dataset.white = String(line.white);
  }

  // drawTree writes the moves: the main line with each variation in
  // brackets after the move it branches from, the current move marked.
  drawTree() {
    const { h } = this.kit;
    const moveEl = (n, lead) => {
      const el = h('span', { class: 'tree-move' + (n === this.node ? ' current' : '') + (n.mainline ? ' main' : ' side') + (n.blunder ? ' blunder' : ''),
        'data-ply': n.ply, role: 'button', tabindex: 0, onclick: () => this.select(n),
        onkeydown: (e) => { if (e.key === 'Enter') this.select(n); } },
      numberOf(n, lead), n.san, n.blunder ? '??' : '');
      return el;
    };
    // after writes the moves after node n: its first child, the other
    // children's lines in brackets (as PGN writes variations), then the
    // first child's own continuation.
    const after = (n, out, lead) => {
      while (n && n.children.length) {
        const [first, ...rest] = n.children;
        out.push(moveEl(first, lead));
        for (const r of rest) {
          const side = [moveEl(r, true)];
          after(r, side, false);
          out.push(h('span', { class: 'variation' }, '(', side, ')'));
        }
        lead = rest.length > 0; // the line goes on after a variation
        n = first;
      }
      return out;
    };
    const out = after(this.root, [], true);
    this.treeEl.replaceChildren(h('span', { class: 'tree-move' + (this.root === this.node ? ' current' : ''), 'data-ply': 0, role: 'button', tabindex: 0, onclick: () => this.select(this.root) }, 'start'), ' ', ...out);
    const cur = this.treeEl.querySelector('.current');
    if (cur && cur.scrollIntoView) cur.scrollIntoView({ block: 'nearest' });
  }

  // findBlunders asks the server to evaluate every position of the game
  // and marks the plies it names as blunders.
  findBlunders() {
    const { h } = this.kit;
    if (this.blunderSource) this.blunderSource.close();
    const total = this.lineEnd(this.root).ply;
    this.blunderBtn.disabled = true;
    this.blunderEl.replaceChildren(h('p', { class: 'dim', id: 'blunder-progress' }, `checking 0 of ${total} plies…`));
    const src = new EventSource(`/api/games/${encodeURIComponent(this.route.game)}/blunders`);
    this.blunderSource = src;
    src.addEventListener('eval', (ev) => {
      const e = JSON.parse(ev.data);
      const p = this.blunderEl.querySelector('#blunder-progress');
      if (p) p.textContent = `checking ${e.ply} of ${total} plies…`;
    });
    src.addEventListener('done', (ev) => {
      src.close();
      this.blunderBtn.disabled = false;
      const d = JSON.parse(ev.data);
      for (const b of d.blunders) {
        const n = this.nodeAtPly(b.ply);
        if (n) n.blunder = b;
      }
      this.drawTree();
      const pawns = (d.threshold / 100).toFixed(2);
      this.blunderEl.replaceChildren(h('h3', {}, `Blunders `, h('span', { class: 'dim' }, `(plies after which the mover's evaluation fell by more than ${pawns} pawns at the server's check depth; plies decided by chance are not judged)`)),
        d.blunders.length
          ? h('ul', { id: 'blunder-list' }, d.blunders.map((b) => h('li', { class: 'blunder-item', 'data-ply': b.ply },
            h('button', { class: 'link', onclick: () => this.select(this.nodeAtPly(b.ply)) }, `${(this.nodeAtPly(b.ply) || {}).no || ''}${b.seat === 'white' ? '.' : '…'} ${b.san}??`),
            ` ${b.seat} lost ${(b.drop / 100).toFixed(2)}`, b.best ? `; better ${b.best}` : '')))
          : h('p', { id: 'blunder-list' }, 'No blunders found.'));
    });
    src.addEventListener('error', () => {
      src.close();
      this.blunderBtn.disabled = false;
      if (!this.blunderEl.querySelector('#blunder-list')) this.blunderEl.replaceChildren(h('p', { class: 'error' }, 'the check stopped; try again'));
    });
  }
}

// moverOf reads who makes ply number ply, and the move number it has,
// from the FEN of the position before it (its second and sixth fields);
// without a FEN, White moves the odd plies.
function moverOf(fen, ply) {
  const f = String(fen || '').split(' ');
  const mover = f[1] === 'b' ? 'black' : f[1] === 'w' ? 'white' : (ply % 2 ? 'white' : 'black');
  const no = parseInt(f[5], 10);
  return { mover, no: Number.isFinite(no) && no > 0 ? no : Math.ceil(ply / 2) };
}

// numberOf writes a move's number before White's moves, and before a
// Black move that leads a line (lead: the first of a variation, or the
// first after one).
function numberOf(n, lead) {
  if (n.mover === 'white') return `${n.no}. `;
  return lead ? `${n.no}… ` : '';
}

// numbered writes a line of SAN moves from node's position with move
// numbers (read from its FEN; the sides taken to alternate).
function numbered(sans, node) {
  let { no } = moverOf(node.info.fen, node.ply + 1);
  let turn = node.info.turn;
  const out = [];
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
