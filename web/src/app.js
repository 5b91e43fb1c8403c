// The anychess web page: a lobby with every variant, game creation, the
// game page (play, watch, replay) over the game WebSocket described in
// docs/protocol.md. The server checks everything; the page only shows what
// it is told and sends what the player does.
import { verify as verifyDice } from './dice.mjs';
import { Chessground } from 'chessgroundx';
import { eachSquare, parseBoard, plainBoard } from './fen.mjs';
import { installDesignCSS, installPieceCSS, pieceURL } from './pieces.js';
import { AnalysisView, analysisURL, parseRoute } from './analysis.js';
import { showRules } from './rules.js';

const app = document.getElementById('app');
let variants = [];
let current = null; // the open game view, closed on navigation

// ---------- small helpers ----------

function h(tag, attrs = {}, ...kids) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith('on')) el.addEventListener(k.slice(2), v);
    else if (k === 'class') el.className = v;
    else el.setAttribute(k, v === true ? '' : v);
  }
  for (const kid of kids.flat()) {
    if (kid === null || kid === undefined || kid === false) continue;
    el.append(kid instanceof Node ? kid : document.createTextNode(String(kid)));
  }
  return el;
}

async function api(path, opts) {
  const resp = await fetch(path, opts);
  const body = await resp.json().catch(() => ({}));
  if (!resp.ok) throw new Error((body.error && body.error.message) || resp.statusText);
  return body;
}

function oneLine(s) { return (s || '').replace(/\s*\n\s*/g, ' '); }

// plural writes a count with its noun: "1 ply", "3 plies", "2 pieces".
function plural(n, one, many = one + 's') { return `${n} ${n === 1 ? one : many}`; }

// inviteURL makes an invite path the server returns ("/#/game/…") a link
// on this page's address, with one slash between them.
function inviteURL(path) { return location.origin + location.pathname.replace(/\/+$/, '') + path; }

// ---------- sounds ----------

// Sounds are short tones made with the Web Audio API: no sound files.
// Each is a list of [frequency in Hz, seconds] played one after another.
const SOUNDS = {
  move: [[520, 0.06]],
  capture: [[330, 0.05], [220, 0.09]],
  check: [[880, 0.07], [660, 0.11]],
  low: [[1040, 0.05], [1040, 0.05]],
  end: [[523, 0.1], [659, 0.1], [784, 0.18]],
};
const MUTE_KEY = 'anychess.mute';
let audio = null;

function isMuted() { return localStorage.getItem(MUTE_KEY) === '1'; }

// playSound plays one of SOUNDS unless the page is muted; the body's
// data-sound and data-sounds say which was played last and how many.
function playSound(kind) {
  if (isMuted() || !SOUNDS[kind]) return;
  document.body.dataset.sound = kind;
  document.body.dataset.sounds = String(Number(document.body.dataset.sounds || 0) + 1);
  try {
    audio = audio || new (window.AudioContext || window.webkitAudioContext)();
    if (audio.state === 'suspended') audio.resume();
    let t = audio.currentTime + 0.01;
    for (const [freq, dur] of SOUNDS[kind]) {
      const osc = audio.createOscillator();
      const gain = audio.createGain();
      osc.type = 'sine';
      osc.frequency.value = freq;
      gain.gain.setValueAtTime(0.0001, t);
      gain.gain.exponentialRampToValueAtTime(0.2, t + 0.01);
      gain.gain.exponentialRampToValueAtTime(0.0001, t + dur);
      osc.connect(gain).connect(audio.destination);
      osc.start(t);
      osc.stop(t + dur + 0.02);
      t += dur + 0.02;
    }
  } catch { /* no audio: the page plays on silently */ }
}

// copyText puts text on the clipboard (text may be a promise of it).
async function copyText(text) {
  if (navigator.clipboard && window.ClipboardItem && typeof text !== 'string') {
    try {
      await navigator.clipboard.write([new ClipboardItem({ 'text/plain': Promise.resolve(text).then((t) => new Blob([t], { type: 'text/plain' })) })]);
      return;
    } catch { /* fall back below */ }
  }
  const t = await text;
  if (navigator.clipboard) {
    try { await navigator.clipboard.writeText(t); return; } catch { /* fall back below */ }
  }
  const area = h('textarea', { style: 'position:fixed;left:-9999px' });
  area.value = t;
  document.body.append(area);
  area.select();
  const ok = document.execCommand('copy');
  area.remove();
  if (!ok) throw new Error('the browser refused to copy');
}

// boardLabel describes a board for screen readers: each side's pieces
// with their squares ("white: king e1, rook a1, …"), named by the
// variant's piece list (pieces: {letter, name}), or that no board is
// shown (a spectator of a game with hidden information).
function boardLabel(board, files, pieces, orientation) {
  if (!board) return 'Board: the position is hidden until the game ends';
  const name = (l) => ((pieces || []).find((p) => p.letter.toUpperCase() === l.toUpperCase()) || { name: l }).name.toLowerCase();
  const sides = { white: [], black: [] };
  eachSquare(parseBoard(board, { files }).rows, (sq, cell) => {
    if (!cell || cell.terrain) return;
    const white = cell.piece === cell.piece.toUpperCase();
    sides[white ? 'white' : 'black'].push(`${name(cell.piece)} ${sq}`);
  }, files);
  return `Board, ${orientation} below. White: ${sides.white.join(', ') || 'no pieces'}. Black: ${sides.black.join(', ') || 'no pieces'}.`;
}

function tokenKey(id) { return 'anychess.seat.' + id; }
function saveSeat(id, seat, token) { localStorage.setItem(tokenKey(id), JSON.stringify({ seat, token })); }
function loadSeat(id) {
  try { return JSON.parse(localStorage.getItem(tokenKey(id)) || 'null'); } catch { return null; }
}

// pendingInvite is an invite link's seat token on its way to the game page
// the link opens: {id, token}. The page tries it and stores it only when
// the server accepts it, so a bogus link never replaces a seat the browser
// already holds.
let pendingInvite = null;

// rematchToken derives a seat's token in the rematch, as the server does.
async function rematchToken(token) {
  const data = new TextEncoder().encode('rematch:' + token);
  const digest = await crypto.subtle.digest('SHA-256', data);
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('');
}

const RANKS = ['1', '2', '3', '4', '5', '6', '7', '8', '9', ':', ';', '<', '=', '>', '?', '@'];
// key converts a square name (a1, j10) to a chessgroundx key.
function key(sq) { return sq[0] + RANKS[parseInt(sq.slice(1), 10) - 1]; }
function sqName(k) { return k[0] + (RANKS.indexOf(k[1]) + 1); }

// A badge in a corner of a square: a disc with a short text.
function badge(sq, text, { fill, stroke, color, cy }) {
  return { orig: key(sq), customSvg:
    `<circle cx="84" cy="${cy}" r="15" fill="${fill}" stroke="${stroke}" stroke-width="3"/>` +
    `<text x="84" y="${cy + 9}" text-anchor="middle" font-family="DejaVu Sans, sans-serif" font-weight="bold" font-size="25" fill="${color}">${text}</text>` };
}

// MARK_STYLES is how a badge looks for each kind of mark the server's
// description of a position gives a square (describe.squares[].mark); a
// kind not listed looks like OTHER_MARK.
const MARK_STYLES = {
  'rank-white': { fill: '#fff', stroke: '#222', color: '#222', cy: 84 },
  'rank-black': { fill: '#222', stroke: '#fff', color: '#fff', cy: 84 },
  stack: { fill: '#ffd54f', stroke: '#222', color: '#222', cy: 16 },
  risen: { fill: '#b3e5fc', stroke: '#222', color: '#222', cy: 16 },
};
const OTHER_MARK = { fill: '#e0e0e0', stroke: '#222', color: '#222', cy: 16 };

function escapeXML(t) { return String(t).replace(/[<>&"]/g, (c) => `&#${c.charCodeAt(0)};`); }

// markShapes draws the label of every square the description marks as a
// badge on the square.
function markShapes(d) {
  return ((d && d.squares) || []).filter((s) => s.label).map((s) => badge(s.square, escapeXML(s.label), MARK_STYLES[s.mark] || OTHER_MARK));
}

// A square: a-p and 1-16.
const SQ = '[a-p](?:1[0-6]|[1-9])';
const SQUARE_MOVE = new RegExp(`^(${SQ})(${SQ})([a-z]?)$`);

// OWN_MOVE reads a move in a variant's own long notation (as
// "Nb1-c3", "Ke1-e2-e3", "Ng1xf3/1", "Ne4-f6xe5/2", "e7-e8=Q"): the first
// square is the origin, the square after the first separator the target
// of its first step, the last square of the body where the mover ends.
const OWN_MOVE = new RegExp(`^[A-Z]?(${SQ})(?:/\\d+)?[-x^]((?:${SQ}(?:/\\d+)?[-x^]?)+)`);
const OWN_STEP = new RegExp(`(${SQ})(?:/\\d+)?[-x^]?`, 'g');

// movePair returns [from, to] of a move in coordinates ("e2e4", "j7j8q")
// or in a variant's own long notation, or null for a move that is not
// from one square to another (a drop, a move of the variant's own kind
// written as a word or a sign).
function movePair(m) {
  const sm = SQUARE_MOVE.exec(m || '');
  if (sm) return [sm[1], sm[2]];
  const om = OWN_MOVE.exec(m || '');
  if (!om) return null;
  const squares = [...om[2].matchAll(OWN_STEP)].map((x) => x[1]);
  // A knight's path capture "f6xe5/2" names the target first; a king's
  // two steps "e2-e3" end on the last.
  const to = /^K/.test(m) && squares.length > 1 ? squares[squares.length - 1] : squares[0];
  return [om[1], to];
}

// cgBoard returns a FEN board chessgroundx reads: one letter a square,
// terrain as empty squares.
function cgBoard(board, files, ranks) {
  // No board (a spectator of a game with hidden information): empty
  // squares, since chessground keeps its pieces when given no FEN.
  if (!board) return Array(ranks).fill(String(files)).join('/');
  const { rows, pocket } = parseBoard(board, { files });
  return plainBoard(rows, pocket, { terrainEmpty: true });
}

// fogShapes darkens what a player's view does not show (squares outside
// visible, null for the whole board) and marks terrain ('*' in the board).
function fogShapes(board, visible, files) {
  const shapes = [];
  const seen = new Set(visible || []);
  const { rows } = parseBoard(board, { files });
  eachSquare(rows, (sq, cell) => {
    if (cell && cell.terrain) shapes.push({ orig: key(sq), customSvg: '<rect x="0" y="0" width="100" height="100" fill="#3e2723" fill-opacity="0.85"/>' });
    else if (visible && !seen.has(sq)) shapes.push({ orig: key(sq), customSvg: '<rect x="0" y="0" width="100" height="100" fill="#263238" fill-opacity="0.55"/>' });
  }, files);
  return shapes;
}

// economyOf reads, from the server's description of a position, the
// piece types bought for a price: the movement and price of each letter,
// each side's letters (the slots of its designs) and counters, and the
// unit prices are paid in (the counter that names one); null where no
// type has a price.
function economyOf(d) {
  const types = (d && d.types) || [];
  if (!types.some((t) => t.price)) return null;
  const table = {}, price = {}, slots = { white: [], black: [] }, counters = { white: [], black: [] };
  for (const t of types) {
    table[t.letter] = t.movement;
    price[t.letter] = t.price;
    if (slots[t.side]) slots[t.side].push(t.letter);
  }
  for (const c of d.counters || []) if (counters[c.side]) counters[c.side].push(c);
  const unit = ((d.counters || []).find((c) => c.unit) || {}).unit || '';
  return { table, price, slots, counters, unit };
}

// DESIGN_GROUP is the group of the actions that decide a turn's designs
// (the server's state.actions): where they are offered, the design editor
// is too.
const DESIGN_GROUP = 'design';

function fmtClock(ms) {
  if (ms === undefined || ms === null) return '';
  ms = Math.max(0, ms);
  if (ms >= 86400000) {
    const d = Math.floor(ms / 86400000), hh = Math.floor((ms % 86400000) / 3600000);
    return `${d}d ${hh}h`;
  }
  const s = Math.floor(ms / 1000);
  const m = Math.floor(s / 60), r = s % 60;
  if (m >= 60) return `${Math.floor(m / 60)}:${String(m % 60).padStart(2, '0')}:${String(r).padStart(2, '0')}`;
  const tenths = ms < 10000 ? '.' + Math.floor((ms % 1000) / 100) : '';
  return `${m}:${String(r).padStart(2, '0')}${tenths}`;
}

const TIME_CONTROLS = [
  ['none', 'no clock'], ['60000+0', '1+0'], ['180000+2000', '3+2'], ['300000+3000', '5+3'],
  ['600000+5000', '10+5'], ['900000+10000', '15+10'], ['1800000+0', '30+0'],
  ['d1', 'correspondence, 1 day per move'], ['d3', 'correspondence, 3 days'], ['d7', 'correspondence, 7 days'],
];

// ---------- routing ----------

async function route() {
  if (current) { current.close(); current = null; }
  const hash = location.hash || '#/';
  const parts = hash.slice(2).split('/').filter(Boolean);
  if (!variants.length) {
    try { variants = await api('/api/variants'); } catch (e) { app.replaceChildren(h('p', { class: 'error' }, 'The server cannot be reached: ' + e.message)); return; }
    for (const v of variants) installPieceCSS(v.name, v.pieces);
  }
  if (parts[0] === 'game' && parts.length === 4) {
    pendingInvite = { id: parts[1], token: parts[3] };
    location.replace('#/game/' + parts[1]);
    return;
  }
  if (parts[0] === 'game' && parts[1]) {
    current = new GameView(parts[1]);
    return;
  }
  if (parts[0] === 'analysis') {
    current = new AnalysisView(app, kit, parseRoute(hash));
    return;
  }
  if (parts[0] === 'rules' && parts[1]) {
    showRules(app, kit, decodeURIComponent(parts[1]));
    return;
  }
  lobby();
}

// kit is what the analysis board and the rules pages (analysis.js,
// rules.js) take from this page.
const kit = { h, api, key, sqName, cgBoard, movePair, variantByName, installPieceCSS, pieceURL, boardLabel, variants: () => variants };
window.addEventListener('hashchange', route);
route();

// ---------- lobby ----------

function variantByName(name) { return variants.find((v) => v.name === name || (v.aliases || []).includes(name)); }

function lobby() {
  const sel = h('select', { id: 'variant', name: 'variant' }, variants.map((v) => h('option', { value: v.name }, v.title)));
  const optsBox = h('div', { class: 'options' });
  const fen = h('input', { id: 'fen', name: 'fen', placeholder: 'start position (FEN), optional', size: 50 });
  const color = h('select', { id: 'color' }, ['white', 'black', 'random'].map((c) => h('option', { value: c }, c)));
  const opponent = h('select', { id: 'opponent' }, h('option', { value: 'engine' }, 'the engine'), h('option', { value: 'human' }, 'a friend (invite link)'));
  const level = h('select', { id: 'level' }, [1, 2, 3, 4, 5, 6, 7, 8].map((n) => h('option', { value: n, selected: n === 3 }, 'level ' + n)));
  const tc = h('select', { id: 'tc' }, TIME_CONTROLS.map(([v, l]) => h('option', { value: v }, l)));
  const rulesBox = h('div', { class: 'rules' });
  const msg = h('p', { class: 'error', id: 'create-error' });
  const showVariant = () => {
    const v = variantByName(sel.value);
    optsBox.replaceChildren(...(v.options || []).map((o) => h('label', {}, o.name + ' ', h('input', { 'data-option': o.name, value: o.value, size: 6 }))));
    rulesBox.replaceChildren(
      h('h3', {}, v.title, h('span', { class: 'dim' }, ` ${v.files}×${v.ranks}`, v.chance ? ' · chance' : '')),
      h('p', {}, oneLine(v.description), ' ', h('a', { href: '#/rules/' + v.name, id: 'lobby-rules' }, 'full rules')),
      h('div', { class: 'piece-row v-' + v.name }, v.pieces.map((p) => h('span', { class: 'piece-chip', title: `${p.name} (${p.betza})` },
        h('img', { src: pieceURL(p.letter, p.name, p.betza, 'white'), alt: p.name }), p.name))),
    );
  };
  sel.addEventListener('change', showVariant);
  const levelRow = h('label', {}, 'strength ', level);
  opponent.addEventListener('change', () => { levelRow.style.display = opponent.value === 'engine' ? '' : 'none'; });
  const create = async (ev) => {
    ev.preventDefault();
    msg.textContent = '';
    const req = { variant: sel.value, color: color.value, opponent: opponent.value };
    if (opponent.value === 'engine') req.level = parseInt(level.value, 10);
    const options = {};
    for (const inp of optsBox.querySelectorAll('input[data-option]')) {
      const v = variantByName(sel.value);
      const def = (v.options || []).find((o) => o.name === inp.dataset.option);
      if (!def || def.value !== inp.value) options[inp.dataset.option] = inp.value;
    }
    if (Object.keys(options).length) req.options = options;
    if (fen.value.trim()) req.fen = fen.value.trim();
    if (tc.value.startsWith('d')) req.days = parseInt(tc.value.slice(1), 10);
    else if (tc.value !== 'none') {
      const [i, inc] = tc.value.split('+').map(Number);
      req.clock = { initial_ms: i, increment_ms: inc };
    }
    try {
      const g = await api('/api/games', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(req) });
      saveSeat(g.id, g.seat, g.token);
      if (g.invite) localStorage.setItem('anychess.invite.' + g.id, inviteURL(g.invite));
      location.hash = '#/game/' + g.id;
    } catch (e) { msg.textContent = e.message; }
  };
  const form = h('form', { class: 'create', onsubmit: create },
    h('h2', {}, 'New game'),
    h('label', {}, 'variant ', sel), optsBox,
    h('label', {}, 'play as ', color),
    h('label', {}, 'against ', opponent), levelRow,
    h('label', {}, 'clock ', tc),
    h('label', { class: 'wide' }, 'set-up ', fen),
    h('button', { type: 'submit', id: 'create' }, 'Create game'), ' ',
    h('button', { type: 'button', id: 'lobby-analyse', onclick: () => { location.hash = analysisURL(sel.value, fen.value.trim()); } }, 'Analysis board'), msg);
  const live = h('ul', { class: 'games', id: 'live-games' });
  const done = h('ul', { class: 'games', id: 'finished-games' });
  app.replaceChildren(h('div', { class: 'lobby' },
    h('section', {}, form, rulesBox),
    h('section', {}, h('h2', {}, 'Games to watch'), live, h('h2', {}, 'Finished games'), done),
    h('section', { class: 'all-variants' }, h('h2', {}, 'Variants'),
      variants.map((v) => h('div', { class: 'variant-card' }, h('h3', {}, v.title, h('span', { class: 'dim' }, ` ${v.name} · ${v.files}×${v.ranks}`)), h('p', {}, oneLine(v.description)),
        h('p', { class: 'card-links' }, h('a', { href: '#/rules/' + v.name, class: 'rules-link', 'data-variant': v.name }, 'rules'), ' · ', h('a', { href: analysisURL(v.name, '') }, 'analysis board')))))));
  showVariant();
  const fill = async (ul, state) => {
    try {
      const games = await api('/api/games?state=' + state);
      ul.replaceChildren(...(games.length ? games : [null]).map((g) => g
        ? h('li', {}, h('a', { href: '#/game/' + g.id }, `${g.title} · ${g.opponent === 'engine' ? 'vs engine L' + g.level : 'two players'} · ${plural(g.plies, 'ply', 'plies')}`, g.finished ? ` · ${g.result} ${g.reason || ''}` : ''))
        : h('li', { class: 'dim' }, 'none yet')));
    } catch (e) { ul.replaceChildren(h('li', { class: 'error' }, e.message)); }
  };
  fill(live, 'live');
  fill(done, 'finished');
}

// ---------- the game page ----------

class GameView {
  constructor(id) {
    this.id = id;
    this.seatInfo = loadSeat(id);
    this.invite = pendingInvite && pendingInvite.id === id ? pendingInvite.token : null; // tried before seatInfo
    pendingInvite = null;
    this.seat = 'spectator';
    this.version = 0;
    this.events = []; // {v, e}
    this.plies = []; // ply events
    this.state = null;
    this.viewing = null; // index into plies being viewed, or null for live
    this.nextId = 1;
    this.pending = new Map();
    this.closed = false;
    this.retry = 500;
    this.build();
    this.connect();
    this.tick = setInterval(() => this.drawClocks(), 100);
    this.beat = setInterval(() => this.heartbeat(), 15000);
    this.onOnline = () => this.reconnectNow();
    window.addEventListener('online', this.onOnline);
    // The replay by keyboard: Left and Right one ply, Up and Down one
    // move (two plies), Home the start, End the live position.
    this.onKey = (ev) => {
      if (/^(INPUT|SELECT|TEXTAREA)$/.test(ev.target.tagName) || ev.altKey || ev.ctrlKey || ev.metaKey || !this.game) return;
      const act = { ArrowLeft: () => this.step(-1), ArrowRight: () => this.step(1), ArrowUp: () => this.step(-2),
        ArrowDown: () => this.step(2), Home: () => this.show(-1), End: () => this.show(null) }[ev.key];
      if (!act) return;
      ev.preventDefault();
      act();
    };
    document.addEventListener('keydown', this.onKey);
  }

  close() {
    this.closed = true;
    clearInterval(this.tick);
    clearInterval(this.beat);
    clearTimeout(this.reconnectTimer);
    window.removeEventListener('online', this.onOnline);
    document.removeEventListener('keydown', this.onKey);
    if (this.ws) this.ws.close();
    if (this.cg) this.cg.destroy();
  }

  build() {
    this.boardEl = h('div', { class: 'board', id: 'board', role: 'img', 'aria-label': 'Board' });
    this.wrap = h('div', { class: 'board-wrap' }, this.boardEl);
    this.title = h('h2', { id: 'title' }, 'Game ' + this.id);
    this.statusEl = h('div', { class: 'status', id: 'status', role: 'status', 'aria-live': 'polite' });
    this.connEl = h('div', { class: 'conn', id: 'conn', 'data-state': 'connecting', role: 'status' }, 'connecting…');
    this.diceEl = h('div', { class: 'dice', id: 'dice' });
    this.stacksEl = h('div', { class: 'stacks', id: 'stacks' });
    this.chancesEl = h('div', { class: 'chances', id: 'chances' });
    this.economyEl = h('div', { class: 'economy', id: 'economy' });
    this.msgEl = h('div', { class: 'message', id: 'message' });
    // The clocks hold a line from the start, so the board does not move
    // down when they are first filled: chessgroundx keeps the board's
    // place on the page until a resize or a scroll, and would take clicks
    // for the squares below them.
    this.clockEls = { top: h('div', { class: 'clock', id: 'clock-top' }, '\u00a0'), bottom: h('div', { class: 'clock', id: 'clock-bottom' }, '\u00a0') };
    this.movesEl = h('ol', { class: 'moves', id: 'moves' });
    this.specialEl = h('div', { class: 'special', id: 'special' });
    this.promoEl = h('div', { class: 'promotion', id: 'promotion' });
    this.moveInput = h('input', { id: 'move-input', placeholder: 'type a move (e4, Nf3, e7e8q)', size: 22, autocomplete: 'off' });
    const moveForm = this.moveForm = h('form', { class: 'move-form', onsubmit: (ev) => { ev.preventDefault(); const m = this.moveInput.value.trim(); if (m) { this.send({ t: 'move', move: m }); this.moveInput.value = ''; } } },
      this.moveInput, h('button', { type: 'submit', id: 'move-send' }, 'Play'));
    this.buttons = {
      resign: h('button', { id: 'resign', onclick: () => { if (confirm('Resign this game?')) this.send({ t: 'resign' }); } }, 'Resign'),
      draw: h('button', { id: 'draw', onclick: () => this.send({ t: 'draw', offer: true }) }, 'Offer draw'),
      decline: h('button', { id: 'decline', onclick: () => this.send({ t: 'draw', offer: false }) }, 'Decline draw'),
      abort: h('button', { id: 'abort', onclick: () => this.send({ t: 'abort' }) }, 'Abort'),
      rematch: h('button', { id: 'rematch', onclick: () => this.send({ t: 'rematch' }) }, 'Rematch'),
    };
    const nav = h('div', { class: 'nav' },
      h('button', { id: 'nav-first', title: 'first', 'aria-label': 'the start position', onclick: () => this.show(-1) }, '«'),
      h('button', { id: 'nav-prev', title: 'back', 'aria-label': 'one move back', onclick: () => this.step(-1) }, '‹'),
      h('button', { id: 'nav-next', title: 'forward', 'aria-label': 'one move forward', onclick: () => this.step(1) }, '›'),
      h('button', { id: 'nav-last', title: 'live', 'aria-label': 'the live position', onclick: () => this.show(null) }, '»'),
      h('button', { id: 'flip', title: 'flip the board', 'aria-label': 'flip the board', onclick: () => { if (this.cg) { this.cg.toggleOrientation(); this.labelBoard(); } } }, '⇅'),
      h('button', { id: 'copy-fen', title: 'copy the FEN of the position shown', onclick: () => this.copyFEN() }, 'Copy FEN'),
      h('button', { id: 'copy-pgn', title: 'copy the game in PGN', onclick: () => this.copyPGN() }, 'Copy PGN'),
      this.muteEl = h('button', { id: 'mute', onclick: () => this.toggleMute() }),
      h('a', { id: 'pgn', href: `/api/games/${this.id}/pgn`, download: `anychess-${this.id}.pgn` }, 'PGN'),
      this.analyseEl = h('a', { id: 'analyse', href: `#/analysis/game/${this.id}`, hidden: true }, 'Analyse'),
      this.rulesEl = h('a', { id: 'game-rules' }, 'Rules'));
    this.drawMute();
    this.resultEl = h('div', { class: 'moves-result', id: 'moves-result' });
    this.dialogEl = h('dialog', { class: 'gameover', id: 'gameover', 'aria-labelledby': 'gameover-title' });
    this.inviteEl = h('div', { class: 'invite', id: 'invite' });
    const invite = localStorage.getItem('anychess.invite.' + this.id);
    if (invite) {
      this.inviteEl.append('Send this link to your opponent: ', h('input', { id: 'invite-link', value: invite, readonly: true, size: 60, onclick: (e) => e.target.select() }));
    }
    this.rematchEl = h('div', { class: 'rematch-link', id: 'rematch-link' });
    // Until the server has welcomed the page there is nothing to do: the
    // controls appear with the game.
    for (const b of Object.values(this.buttons)) b.hidden = true;
    moveForm.hidden = true;
    this.navEl = nav;
    nav.hidden = true;
    this.gameEl = h('div', { class: 'game' },
      h('div', { class: 'left' }, this.clockEls.top, this.wrap, this.clockEls.bottom),
      h('div', { class: 'right' }, this.title, this.connEl, this.statusEl, this.diceEl, this.stacksEl, this.chancesEl, this.economyEl, this.msgEl, this.inviteEl, this.promoEl, this.specialEl, moveForm,
        h('div', { class: 'actions' }, Object.values(this.buttons)), nav, this.movesEl, this.resultEl, this.rematchEl), this.dialogEl);
    app.replaceChildren(this.gameEl);
  }

  // shownFEN returns the FEN of the position shown, or '' where the page
  // has none (a view of a game with hidden information).
  shownFEN() {
    if (this.viewing === null) return (this.state && this.state.fen) || '';
    return (this.viewing < 0 ? this.game.start_fen : this.plies[this.viewing].fen) || '';
  }

  async copyFEN() {
    const fen = this.shownFEN();
    if (!fen) { this.flash('this position has no FEN to copy'); return; }
    try { await copyText(fen); this.flash('FEN copied: ' + fen, false); } catch (e) { this.flash('FEN not copied: ' + e.message); }
  }

  async copyPGN() {
    const pgn = fetch(`/api/games/${this.id}/pgn`).then((r) => { if (!r.ok) throw new Error(r.statusText); return r.text(); });
    try { await copyText(pgn); this.flash('PGN copied', false); } catch (e) { this.flash('PGN not copied: ' + e.message); }
  }

  toggleMute() {
    localStorage.setItem(MUTE_KEY, isMuted() ? '0' : '1');
    this.drawMute();
  }

  drawMute() {
    const m = isMuted();
    this.muteEl.textContent = m ? 'Sound: off' : 'Sound: on';
    this.muteEl.setAttribute('aria-label', m ? 'sounds off: turn them on' : 'sounds on: turn them off');
    this.muteEl.setAttribute('aria-pressed', m ? 'true' : 'false');
    this.muteEl.title = m ? 'sounds are off' : 'sounds are on';
  }

  // gameOver opens the dialog that says how the game ended, with a
  // rematch for a player.
  gameOver(s) {
    const r = s.status.result;
    const head = { '1-0': 'White wins', '0-1': 'Black wins', '1/2-1/2': 'Draw' }[r] || 'Game aborted';
    const seated = this.seat !== 'spectator';
    const you = !seated || r === '*' || r === '1/2-1/2' ? '' : (r === '1-0') === (this.seat === 'white') ? ' — you won' : ' — you lost';
    this.dialogEl.replaceChildren(
      h('h3', { id: 'gameover-title' }, `${head}${you}`),
      h('p', { class: 'gameover-reason' }, `${r === '*' ? '' : r + ' · '}${s.status.reason}${s.status.detail ? ' — ' + s.status.detail : ''}`),
      h('div', { class: 'actions' },
        seated && r !== '*' ? h('button', { id: 'gameover-rematch', onclick: () => { this.send({ t: 'rematch' }); this.dialogEl.close(); } }, 'Rematch') : null,
        h('a', { id: 'gameover-analyse', href: `#/analysis/game/${this.id}` }, 'Analyse'),
        h('button', { id: 'gameover-close', onclick: () => this.dialogEl.close() }, 'Close')));
    if (!this.dialogEl.open) this.dialogEl.show();
  }

  // notFound replaces the game page by a message: the link names no game.
  notFound() {
    this.closed = true;
    if (this.ws) this.ws.close();
    clearInterval(this.tick);
    document.body.dataset.seat = '';
    app.replaceChildren(h('div', { class: 'not-found', id: 'not-found' },
      h('h2', {}, 'No such game'),
      h('p', {}, `There is no game ${this.id} on this server: the link may be mistyped, or the game was aborted before it was stored.`),
      h('p', {}, h('a', { href: '#/' }, 'Back to the lobby'))));
  }

  // setConn shows the connection's state: connecting, open, or lost (then
  // when the page tries again).
  setConn(state, text) {
    this.connEl.dataset.state = state;
    this.connEl.textContent = text;
    if (this.statusEl) this.statusEl.dataset.connected = state === 'open' ? 'yes' : 'no';
  }

  connect() {
    const proto = location.protocol === 'https:' ? 'wss:' : 'ws:';
    const ws = new WebSocket(`${proto}//${location.host}/ws/${this.id}`);
    this.ws = ws;
    this.setConn('connecting', this.everOpen ? 'reconnecting…' : 'connecting…');
    ws.onopen = () => {
      this.retry = 500;
      this.everOpen = true;
      this.lastHeard = performance.now();
      this.setConn('open', 'connected');
      this.hello();
    };
    ws.onmessage = (ev) => { this.lastHeard = performance.now(); this.frame(JSON.parse(ev.data)); };
    ws.onclose = () => {
      if (this.closed || this.ws !== ws) return;
      const wait = this.retry;
      this.setConn('lost', `connection lost — reconnecting in ${Math.ceil(wait / 1000)} s…`);
      clearTimeout(this.reconnectTimer);
      this.reconnectTimer = setTimeout(() => { if (!this.closed) this.connect(); }, wait);
      this.retry = Math.min(this.retry * 2, 8000);
    };
  }

  // heartbeat pings the server every 15 seconds; a connection that has
  // heard nothing for 40 seconds is taken for lost and opened again.
  heartbeat() {
    const ws = this.ws;
    if (!ws || ws.readyState !== WebSocket.OPEN) return;
    if (performance.now() - this.lastHeard > 40000) { ws.close(); return; }
    ws.send(JSON.stringify({ t: 'ping', id: this.nextId++ }));
  }

  // reconnectNow tries again at once (the browser is back online).
  reconnectNow() {
    if (this.closed || (this.ws && this.ws.readyState <= WebSocket.OPEN)) return;
    clearTimeout(this.reconnectTimer);
    this.retry = 500;
    this.connect();
  }

  // hello says hello with the invite's token if there is one to try, else
  // the stored seat's, else as a spectator.
  hello() {
    const hello = { t: 'hello', since: this.version };
    if (this.invite) hello.token = this.invite;
    else if (this.seatInfo) hello.token = this.seatInfo.token;
    this.ws.send(JSON.stringify(hello));
  }

  send(msg) {
    if (!this.ws || this.ws.readyState !== WebSocket.OPEN) { this.flash('not connected; retrying'); return; }
    msg.id = this.nextId++;
    this.pending.set(msg.id, msg);
    this.ws.send(JSON.stringify(msg));
  }

  flash(text, isError = true) {
    this.msgEl.textContent = text;
    this.msgEl.className = 'message' + (isError ? ' error' : '');
  }

  frame(f) {
    switch (f.t) {
      case 'welcome': this.welcome(f); break;
      case 'event': this.event(f); break;
      case 'state': this.setState(f); break;
      case 'ack': this.pending.delete(f.id); this.flash('', false); break;
      case 'pong': break;
      case 'error':
        if (f.code === 'not_found') { this.notFound(); return; }
        this.pending.delete(f.id);
        this.flash(f.message || f.code);
        if (f.code === 'bad_token') {
          if (this.invite) {
            this.invite = null; // the stored seat, if any, stays
            this.flash('that invite link opens no seat of this game');
          } else {
            localStorage.removeItem(tokenKey(this.id));
            this.seatInfo = null;
          }
          this.hello();
        }
        if (this.state) this.setState(this.state); // undo a move the server refused
        break;
      case 'rematch': this.rematch(f.game, f.seat, f.token); break;
    }
  }

  welcome(f) {
    if (this.invite && f.seat !== 'spectator') {
      saveSeat(this.id, f.seat, this.invite);
      this.seatInfo = { seat: f.seat, token: this.invite };
    }
    this.invite = null;
    this.seat = f.seat;
    this.game = f.game;
    const v = variantByName(f.game.variant) || { name: f.game.variant, pieces: f.game.pieces };
    installPieceCSS(f.game.variant, f.game.pieces || v.pieces || []);
    this.title.replaceChildren(f.game.title + ' ', h('span', { class: 'dim' },
      this.seat === 'spectator' ? '(watching)' : `(you play ${this.seat})`,
      f.game.opponent === 'engine' ? ` vs engine level ${f.game.level}` : ''));
    if (this.seat === 'spectator' && f.game.hidden && !f.game.finished) {
      // Each player sees only its view, and no spectator sees one.
      this.title.append(h('div', { class: 'watch', id: 'watch-hidden' }, 'Hidden information: the board is shown when the game ends.'));
    }
    document.body.dataset.seat = this.seat;
    this.rulesEl.href = '#/rules/' + f.game.variant;
    this.navEl.hidden = false;
    if (!this.cg) {
      // The parity of the board's size says which labels of the
      // coordinates stand on dark squares (style.css).
      const parity = (n) => (n % 2 ? 'odd' : 'even');
      this.wrap.className = `board-wrap v-${f.game.variant} dim-${f.game.files}x${f.game.ranks} files-${parity(f.game.files)} ranks-${parity(f.game.ranks)}`;
      this.wrap.style.setProperty('--files', f.game.files);
      this.wrap.style.setProperty('--ranks', f.game.ranks);
      this.cg = Chessground(this.boardEl, {
        dimensions: { width: f.game.files, height: f.game.ranks },
        fen: f.game.start_board || cgBoard('', f.game.files, f.game.ranks),
        orientation: this.seat === 'black' ? 'black' : 'white',
        coordinates: true, // file letters and rank numbers, placed by style.css
        autoCastle: false,
        movable: { free: false, color: undefined, showDests: true, events: { after: (o, d) => this.userMove(o, d), afterNewPiece: (piece, d) => this.userDrop(piece, d) } },
        premovable: { enabled: true }, // a move made while the opponent thinks, played when the turn comes
        draggable: { enabled: true },
        highlight: { lastMove: true, check: true },
        animation: { enabled: true, duration: 150 },
      });
    }
  }

  // userDrop sends the action that puts a reserve piece dragged onto
  // square k on the board, or puts the board back if there is none.
  userDrop(piece, k) {
    const letter = piece.role[0].toUpperCase(), to = sqName(k);
    const a = ((this.state && this.state.actions) || []).find((x) => x.piece === letter && x.to === to);
    if (a) {
      this.send({ t: 'move', move: a.move, v: this.state.v });
      return;
    }
    this.flash(`${letter} cannot be put on ${to}`);
    this.drawLive();
  }

  event(f) {
    if (f.v <= this.version) return;
    this.version = f.v;
    document.body.dataset.version = f.v;
    const e = f.e;
    this.events.push({ v: f.v, e });
    if (e.kind === 'ply') {
      this.plies.push(e);
      const turns = this.turnsDone || 0;
      // The move number is the position's (FEN's sixth field) where the
      // page knows it: a move that replaces an undone one keeps its
      // number.
      const before = this.plies.length > 1 ? this.plies[this.plies.length - 2].fen : (this.game && this.game.start_fen);
      const fenNo = before ? parseInt(before.split(' ')[5], 10) : NaN;
      const no = Number.isFinite(fenNo) && fenNo > 0 ? fenNo : Math.floor(turns / 2) + 1;
      // A further decision of the same turn (a design change, a capture
      // tried again) continues the turn's line unnumbered.
      const prev = this.plies.length > 1 ? this.plies[this.plies.length - 2] : null;
      const cont = prev && prev.seat === e.seat && !prev.turn_over;
      const label = [cont ? '' : h('span', { class: 'no' }, e.seat === 'white' ? `${no}. ` : `${no}… `), e.san || e.move || '…'];
      if (e.turn_over) this.turnsDone = turns + 1;
      const li = h('li', { class: 'ply', 'data-ply': e.ply, onclick: () => this.show(e.ply - 1) },
        label, e.outcomes && e.outcomes.length > 1 ? h('span', { class: 'outcome', title: e.outcomes.map((o) => `${o.label || 'outcome'} ${o.p}`).join(', ') },
          `${e.mark || ''} ${(e.outcomes[e.outcome || 0].label || '')} ${e.outcomes[e.outcome || 0].p}` +
          (e.roll ? ` (rolled ${e.roll} of ${e.outcomes[0].p.split('/')[1]})` : '')) : null);
      li.dataset.seat = e.seat;
      if (cont) li.classList.add('cont');
      // What the ply did, in the variant's words and in order (a chain of
      // captures; a move undone; a purchase or a design of the variant's
      // own kind), under the move and as its title. Plies stored before
      // events existed name the pieces removed.
      const words = e.events || e.removed || [];
      if (words.length) {
        li.title = `${e.san || e.move || ''}: ${words.join(' → ')}`;
        li.append(h('div', { class: 'chain words' },
          ...words.map((r, i) => h('span', { class: 'step' }, (i ? ' → ' : '') + r))));
      }
      this.movesEl.append(li);
      if (this.live) playSound(e.check ? 'check' : /x/.test(e.san || e.move || '') || (e.events || e.removed || []).length ? 'capture' : 'move');
      this.lastTurnOver = e.turn_over;
      if (this.viewing !== null) this.show(this.viewing);
    } else if (e.kind === 'offer') {
      const who = e.seat === this.seat ? 'You' : e.seat;
      const text = { draw: `${who} offered a draw`, draw_declined: `${who} declined the draw`, draw_withdrawn: `${who} withdrew the draw offer`, rematch: `${who} asked for a rematch` }[e.offer];
      this.flash(text || e.offer, false);
    } else if (e.kind === 'end') {
      this.result = e;
      if (this.live) playSound('end');
    } else if (e.kind === 'rematch') {
      this.rematchID = e.game;
      this.showRematch();
    }
  }

  async showRematch() {
    if (!this.rematchID) return;
    if (this.seatInfo && this.seat !== 'spectator' && !loadSeat(this.rematchID)) {
      saveSeat(this.rematchID, this.seat === 'white' ? 'black' : 'white', await rematchToken(this.seatInfo.token));
    }
    this.rematchEl.replaceChildren(h('a', { href: '#/game/' + this.rematchID, id: 'rematch-go' }, 'Go to the rematch →'));
  }

  rematch(game, seat, token) {
    saveSeat(game, seat, token);
    this.rematchID = game;
    this.showRematch();
  }

  setState(s) {
    this.state = s;
    document.body.dataset.version = s.v;
    document.body.dataset.turn = s.turn;
    document.body.dataset.result = s.status.result;
    const over = s.status.result !== '*' || s.status.reason;
    const mine = !over && s.turn === this.seat && s.legal.length > 0;
    this.dests = new Map();
    this.byPair = new Map();
    // The moves that are not from one square to another come described
    // by the variant (state.actions): buttons by group, and pieces put
    // from the reserve, which chessgroundx keys "N@".
    const actions = s.actions || [];
    const described = new Set(actions.map((a) => a.move));
    for (const a of actions) {
      if (!a.piece || !a.to) continue;
      const k = a.piece + '@';
      if (!this.dests.has(k)) this.dests.set(k, []);
      this.dests.get(k).push(key(a.to));
    }
    const loose = []; // legal moves neither described nor from-to: plain buttons
    for (const m of s.legal) {
      if (described.has(m)) continue;
      const ends = movePair(m);
      if (!ends) { loose.push(m); continue; }
      const from = key(ends[0]), to = key(ends[1]);
      if (!this.dests.has(from)) this.dests.set(from, []);
      if (!this.dests.get(from).includes(to)) this.dests.get(from).push(to);
      const pair = from + to;
      if (!this.byPair.has(pair)) this.byPair.set(pair, []);
      this.byPair.get(pair).push(m);
    }
    const economy = economyOf(s.describe);
    this.showActions(s, mine, actions, loose, economy);
    if (economy) this.showEconomy(economy);
    else this.economyEl.replaceChildren();
    this.promoEl.replaceChildren();
    if (this.viewing === null) this.drawLive();
    this.clockBase = { at: performance.now(), clock: s.clock };
    this.drawClocks();
    // status line
    let text;
    if (over) {
      text = `${s.status.result === '*' ? 'aborted' : s.status.result} · ${s.status.reason}${s.status.detail ? ' — ' + s.status.detail : ''}`;
    } else {
      text = `${s.turn} to move` + (s.check ? ' · check' : '') + (mine ? ' · your move' : '');
      // Where the turn stands, in the variant's words (a phase, tries).
      const d = s.describe || {};
      if (d.phase) text += ' · ' + d.phase;
      if (d.turn) text += ' · ' + d.turn;
    }
    this.statusEl.textContent = text;
    this.resultEl.textContent = over ? `${s.status.result === '*' ? 'aborted' : s.status.result} (${s.status.reason})` : '';
    if (over && this.live && !this.wasOver) this.gameOver(s);
    this.wasOver = over;
    this.live = true;
    this.showDice(s);
    this.showChances(s, mine);
    this.statusEl.dataset.over = over ? 'yes' : 'no';
    const seated = this.seat !== 'spectator';
    const b = this.buttons;
    b.resign.hidden = !seated || over;
    b.draw.hidden = !seated || over || this.game.opponent === 'engine' || s.offer === this.seat;
    b.draw.textContent = s.offer && s.offer !== this.seat ? 'Accept draw' : 'Offer draw';
    b.decline.hidden = !seated || over || !s.offer || s.offer === this.seat;
    b.abort.hidden = !seated || over || this.plies.filter((p) => p.turn_over).length >= 2 || this.plies.some((p) => p.roll);
    b.rematch.hidden = !seated || !over;
    this.analyseEl.hidden = !over; // no help during play: a game is analysed once it is over
    this.moveForm.hidden = !seated || over;
    if (over) this.inviteEl.replaceChildren();
  }

  // showActions draws the actions of the seat to move: the general row
  // of buttons, a row of buttons for each group in the order the groups
  // come, the pieces of the reserve to drag onto the board, and with the
  // design decisions the design editor.
  showActions(s, mine, actions, loose, economy) {
    const button = (a) => h('button', { class: 'special-move action', 'data-move': a.move, 'data-group': a.group || '', title: a.move,
      onclick: () => this.send({ t: 'move', move: a.move }) }, a.label || a.move);
    const general = [...actions.filter((a) => !a.group && !a.piece).map(button),
      ...loose.map((m) => button({ move: m, label: m }))];
    const groups = [];
    for (const a of actions) if (a.group && !a.piece && !groups.includes(a.group)) groups.push(a.group);
    const rows = groups.map((g) => {
      const row = h('div', { class: 'action-group', 'data-group': g }, h('b', {}, g + ': '),
        ...actions.filter((a) => a.group === g && !a.piece).map(button));
      if (g === DESIGN_GROUP && mine && economy) row.append(this.designEditor(economy.slots[this.seat] || [], economy));
      return row;
    });
    const seat = this.seat;
    const reserve = actions.filter((a) => a.piece).map((a) => a.piece).filter((l, i, all) => all.indexOf(l) === i);
    if (mine && reserve.length) {
      rows.push(h('div', { class: 'action-group reserve', id: 'reserve' }, 'Reserve (drag a piece onto the board): ', ...reserve.map((l) => {
        const info = (this.game.pieces || []).find((p) => p.letter === l) || { letter: l, name: l, betza: '' };
        const movement = economy ? economy.table[l] : info.betza;
        const img = h('img', { class: 'reserve-piece', 'data-letter': l, title: `${l} = ${movement || ''}`, width: 44, height: 44, draggable: 'false',
          src: pieceURL(info.letter, info.name, info.betza, seat) });
        const start = (ev) => { ev.preventDefault(); this.cg.dragNewPiece({ role: l.toLowerCase() + '-piece', color: seat }, false, ev); };
        img.addEventListener('mousedown', start);
        img.addEventListener('touchstart', start, { passive: false });
        return img;
      })));
    }
    this.specialEl.replaceChildren(...general, ...rows);
  }

  // showEconomy draws each side's counters (treasury, reserve) and piece
  // types with their prices from the server's description.
  showEconomy({ table, price, slots, counters }) {
    const sides = ['white', 'black'].map((side) => h('div', { class: 'side', 'data-side': side },
      h('b', {}, side), ': ' + counters[side].map((c) => `${c.name} ${c.value}`).join(' · ') + (slots[side].length ? ' · types: ' : ''),
      ...slots[side].map((l) => h('span', { class: 'design', title: table[l] || '' }, `${l}=${table[l] || '?'}(${price[l]}) `))));
    this.economyEl.replaceChildren(h('div', { class: 'treasuries', id: 'treasuries' }, ...sides));
  }

  // designEditor types a design, shows its price and moves as you type,
  // and puts it into one of your slots (the types of your side in the
  // description) by the move the server writes for it.
  designEditor(mySlots, { table, unit }) {
    const out = h('div', { class: 'design-out', id: 'design-out' });
    const input = h('input', { id: 'design-input', placeholder: 'a design, e.g. FfR', size: 18, autocomplete: 'off' });
    const slot = h('select', { id: 'design-slot' }, ...mySlots.map((l) => h('option', { value: l }, `slot ${l} (${table[l] || ''})`)));
    const variant = encodeURIComponent(this.game.variant);
    let seq = 0;
    input.addEventListener('input', async () => {
      const text = input.value.trim();
      const n = ++seq;
      if (!text) { out.replaceChildren(); return; }
      const resp = await fetch(`/api/design?variant=${variant}&d=${encodeURIComponent(text)}`);
      const info = await resp.json();
      if (n !== seq) return;
      if (info.error) {
        const pos = info.error.pos ?? text.length;
        out.dataset.ok = 'no';
        out.replaceChildren(h('div', { class: 'design-error' }, `refused: ${info.error.message}`),
          h('pre', {}, text + '\n' + ' '.repeat(pos) + '^'));
        return;
      }
      out.dataset.ok = 'yes';
      out.replaceChildren(h('div', { class: 'design-price', id: 'design-price' },
        `price ${unit ? plural(info.price, unit) : info.price} (exact cost ${info.exact}${info.colorbound ? ', colour-bound' : ''}${info.royal ? ', royal' : ''})`),
      h('pre', { class: 'design-diagram' }, info.diagram));
    });
    const put = h('button', { id: 'design-put', onclick: async () => {
      const text = input.value.trim();
      if (!text) return;
      try {
        const info = await api(`/api/design?variant=${variant}&d=${encodeURIComponent(text)}&slot=${encodeURIComponent(slot.value)}`);
        this.send({ t: 'move', move: info.move });
      } catch (e) {
        this.flash(`${text}: ${e.message}`);
      }
    } }, 'Put into the slot');
    return h('div', { class: 'design-editor', id: 'design-editor' }, h('div', {}, input, ' ', slot, ' ', put), out);
  }

  // showChances lists, for the player to move, the chance of success of
  // each move decided by chance (a capture try), before it is tried.
  showChances(s, mine) {
    const ch = mine && s.chances ? Object.entries(s.chances) : [];
    this.chancesEl.replaceChildren(...(ch.length ? ['Capture chances: ', ...ch.map(([m, p]) => {
      const [n, d] = p.split('/').map(Number);
      return h('span', { class: 'chance', 'data-move': m }, `${m} ${p} (${Math.round(100 * n / d)}%)`);
    })] : []));
  }

  // showMarks draws what the board widget does not: the labels of the
  // squares the server's description marks (ranks, passengers), terrain
  // and what the player's view does not show (visible, null for
  // everything); and lists the marked squares that have a title (a
  // stack, bottom to top) and the description's notes.
  showMarks(d, board, visible) {
    const files = this.game.files;
    // Pieces whose movement the game designs are drawn from their design.
    installDesignCSS(this.game.variant, d && d.types);
    this.cg.setAutoShapes([...markShapes(d), ...fogShapes(board, visible, files)]);
    const titled = ((d && d.squares) || []).filter((s) => s.title);
    const parts = titled.map((s) => h('span', { class: 'stack', 'data-square': s.square, 'data-mark': s.mark || '' }, `${s.square}: ${s.title}`));
    this.stacksEl.replaceChildren(...(parts.length ? ['Marked squares: ', ...parts.flatMap((p, i) => (i ? ['; ', p] : [p]))] : []),
      ...((d && d.notes) || []).map((n) => h('div', { class: 'note' }, n)),
      ...((d && d.counters) || []).filter((c) => !c.side).map((c) => h('div', { class: 'counter' }, `${c.name}: ${c.value}`)));
  }

  // showDice shows the commitment to the game's dice while it is played,
  // and once the seed is revealed checks here, in the page, that it gives
  // the commitment and that every roll followed from it.
  async showDice(s) {
    const d = s.dice;
    const el = this.diceEl;
    if (!d) { el.replaceChildren(); return; }
    el.title = d.commit;
    if (!d.seed) {
      el.dataset.verified = 'pending';
      el.textContent = `dice: the server committed to ${d.commit.slice(0, 23)}…; the seed is revealed and checked here when the game ends`;
      return;
    }
    if (this.diceChecked === s.v) return;
    this.diceChecked = s.v;
    const res = await verifyDice(d, this.plies);
    el.dataset.verified = res.ok ? 'yes' : 'no';
    el.textContent = res.ok
      ? `dice verified in this page: the ${d.gen || 'PCG'} seed ${d.seed.length > 20 ? d.seed.slice(0, 16) + '…' : d.seed} gives the commitment, and ${res.rolls === 1 ? 'the one roll follows' : `all ${res.rolls} rolls follow`} from it ✓`
      : `dice check FAILED: ${res.error}`;
  }

  drawLive() {
    const s = this.state;
    if (!this.cg || !s) return;
    const mine = s.status.result === '*' && !s.status.reason && s.turn === this.seat;
    // The last move's squares; where the state names none, those of the
    // last ply's text (a move in a variant's own notation), except in a
    // game with hidden information, whose views name none on purpose.
    const lastPly = this.plies[this.plies.length - 1];
    const last = s.last || (lastPly && !this.game.hidden ? movePair(lastPly.move) : null);
    this.cg.set({
      fen: cgBoard(s.board, this.game.files, this.game.ranks),
      turnColor: s.turn,
      lastMove: last ? last.map(key) : undefined,
      check: s.check ? [key(s.check)] : false,
      // A player's pieces stay movable in the opponent's turn: a move
      // made then is a premove, played (if legal) when the turn comes.
      movable: { color: this.seat !== 'spectator' && s.status.result === '*' && !s.status.reason ? this.seat : undefined, dests: mine ? this.dests : new Map() },
    });
    if (mine && this.cg.state.premovable.current) this.cg.playPremove();
    else if (!mine && this.cg.state.premovable.current && (s.status.result !== '*' || s.status.reason)) this.cg.cancelPremove();
    this.showMarks(s.describe, s.board, this.game.hidden && s.status.result === '*' && !s.status.reason ? s.visible : null);
    this.labelBoard(s.board);
    for (const li of this.movesEl.children) li.classList.remove('current');
    if (this.movesEl.lastChild) this.movesEl.lastChild.classList.add('current');
    document.body.dataset.viewing = 'live';
    this.analyseEl.href = `#/analysis/game/${this.id}`;
  }

  // show draws the position after ply index i (0-based; -1 the start,
  // null the live position).
  show(i) {
    if (i === null || i >= this.plies.length - 1 && this.state) {
      this.viewing = null;
      if (i !== null && i < this.plies.length - 1) this.viewing = i;
      else { this.drawLive(); return; }
    }
    this.viewing = i;
    const board = i < 0 ? this.game.start_board : this.plies[i].board;
    const p = i >= 0 ? this.plies[i] : null;
    const pair = p && movePair(p.move);
    this.cg.set({
      fen: cgBoard(board, this.game.files, this.game.ranks),
      lastMove: pair ? pair.map(key) : undefined,
      check: p && p.check ? [key(p.check)] : false,
      movable: { color: undefined, dests: new Map() },
    });
    this.showMarks(i < 0 ? this.game.start_describe : this.plies[i].describe, board, null);
    this.labelBoard(board);
    for (const li of this.movesEl.children) li.classList.toggle('current', Number(li.dataset.ply) === i + 1);
    document.body.dataset.viewing = String(i + 1);
    this.analyseEl.href = `#/analysis/game/${this.id}/${i + 1}`; // the analysis opens at the ply shown
  }

  // labelBoard tells screen readers the position shown (board, the FEN
  // board drawn; kept for a flip).
  labelBoard(board = this.labelled) {
    this.labelled = board;
    if (!this.cg) return;
    this.boardEl.setAttribute('aria-label', boardLabel(board, this.game.files, this.game.pieces, this.cg.state.orientation));
  }

  step(d) {
    const n = this.plies.length;
    const cur = this.viewing === null ? n - 1 : this.viewing;
    const next = Math.max(-1, Math.min(n - 1, cur + d));
    if (next === n - 1) this.show(null); else this.show(next);
  }

  userMove(orig, dest) {
    const cands = this.byPair.get(orig + dest) || [];
    if (cands.length === 1) { this.send({ t: 'move', move: cands[0], v: this.state.v }); return; }
    if (cands.length > 1 && !SQUARE_MOVE.test(cands[0])) {
      // several moves of the variant's own kind between these squares
      // (a king's routes, a knight's paths, stack indices): choose one
      this.promoEl.replaceChildren('Which move? ', ...cands.map((m) => h('button', { class: 'choice', 'data-move': m,
        onclick: () => { this.promoEl.replaceChildren(); this.send({ t: 'move', move: m, v: this.state.v }); } }, m)),
      h('button', { class: 'promo-cancel', onclick: () => { this.promoEl.replaceChildren(); this.setState(this.state); } }, '✕'));
      return;
    }
    if (cands.length > 1) {
      // a promotion: let the player choose the piece
      const color = this.seat;
      this.promoEl.replaceChildren('Promote to: ', ...cands.map((m) => {
        const letter = SQUARE_MOVE.exec(m)[3];
        const info = (this.game.pieces || []).find((p) => p.letter.toLowerCase() === letter) || { letter, name: letter, betza: '' };
        return h('button', { class: 'promo', 'data-piece': letter, title: info.name, onclick: () => { this.promoEl.replaceChildren(); this.send({ t: 'move', move: m, v: this.state.v }); } },
          h('img', { src: pieceURL(info.letter, info.name, info.betza, color), alt: info.name, width: 40, height: 40 }));
      }), h('button', { class: 'promo-cancel', onclick: () => { this.promoEl.replaceChildren(); this.setState(this.state); } }, '✕'));
      return;
    }
    this.flash(`${sqName(orig)}-${sqName(dest)} is not a legal move`);
    this.setState(this.state);
  }

  drawClocks() {
    const cb = this.clockBase;
    if (!cb || !this.cg) return;
    const c = cb.clock;
    const enabled = this.game && (this.game.initial_ms > 0 || this.game.days > 0);
    const over = this.state && (this.state.status.result !== '*' || this.state.status.reason);
    const elapsed = over ? 0 : performance.now() - cb.at;
    const left = { white: c.white_ms - (c.running === 'white' ? elapsed : 0), black: c.black_ms - (c.running === 'black' ? elapsed : 0) };
    const bottom = this.cg.state.orientation;
    const top = bottom === 'white' ? 'black' : 'white';
    for (const [pos, col] of [['top', top], ['bottom', bottom]]) {
      const el = this.clockEls[pos];
      el.textContent = `${col}${enabled ? ' · ' + fmtClock(left[col]) : ''}`;
      el.classList.toggle('running', c.running === col && !over);
      el.classList.toggle('low', enabled && left[col] < 10000);
    }
    if (enabled && !over && this.seat === c.running && left[this.seat] < 10000 && this.game.initial_ms > 0) {
      if (!this.lowPlayed) { this.lowPlayed = true; playSound('low'); }
    } else if (left[this.seat] >= 10000) this.lowPlayed = false;
  }
}
