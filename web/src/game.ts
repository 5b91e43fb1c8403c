// The game page (#/game/<id>): play, watch and replay a game over the
// game's WebSocket (docs/protocol.md). The server checks everything; the
// page only shows what it is told and sends what the player does.
import type * as cg from 'chessgroundx/types';
import { h, type VNode } from 'snabbdom';
import { Board, SQUARE_MOVE, boardLabel, cgBoard, fogShapes, key, markShapes, marksView, movePair, sqName } from './components/board';
import { type ClockBase, clockView, timeLeft } from './components/clock';
import { MoveList } from './components/movelist';
import { verify as verifyDice } from './lib/dice';
import { installDesignCSS, installPieceCSS, pieceURL } from './lib/pieces';
import { isMuted, playSound, toggleMute } from './sound';
import type { Action, ClientFrame, Color, Describe, DesignInfo, GameEvent, PlyEvent, Seat, ServerFrame, State, Summary } from './types';
import { playerLink, ratingText } from './seeks';
import { type SeatInfo, api, copyText, errorText, forgetSeat, isTyping, loadSeat, plural, rematchToken, redraw, saveSeat, takeInvite, variantByName } from './util';

// DESIGN_GROUP is the group of the actions that decide a turn's designs
// (the server's state.actions): where they are offered, the design editor
// is too.
const DESIGN_GROUP = 'design';

/**
 * Economy is what the server's description of a position says of piece
 * types bought for a price: the movement and price of each letter, each
 * side's letters (the slots of its designs) and counters, and the unit
 * prices are paid in.
 */
interface Economy {
  table: Record<string, string>;
  price: Record<string, number | undefined>;
  slots: Record<Color, string[]>;
  counters: Record<Color, { name: string; value: string }[]>;
  unit: string;
}

/** economyOf reads the economy of a description; null where no type has a price. */
function economyOf(d: Describe | undefined): Economy | null {
  const types = (d && d.types) || [];
  if (!types.some((t) => t.price)) return null;
  const e: Economy = { table: {}, price: {}, slots: { white: [], black: [] }, counters: { white: [], black: [] }, unit: '' };
  for (const t of types) {
    e.table[t.letter] = t.movement;
    e.price[t.letter] = t.price;
    if (t.side === 'white' || t.side === 'black') e.slots[t.side].push(t.letter);
  }
  const counters = (d && d.counters) || [];
  for (const c of counters) if (c.side === 'white' || c.side === 'black') e.counters[c.side].push(c);
  e.unit = (counters.find((c) => c.unit) || { unit: '' }).unit || '';
  return e;
}

/** Choice is a choice among several moves joining the same squares. */
type Choice = { kind: 'which' | 'promote'; moves: string[] };

/** DesignOut is what the design editor says of the design typed. */
type DesignOut = null | { ok: false; message: string; text: string; pos: number } | { ok: true; info: DesignInfo };

/** isOver reports whether a state's game is over (a result, or aborted). */
function isOver(s: State | null): boolean { return !!s && (s.status.result !== '*' || !!s.status.reason); }

/** GameView is the game page of one game. */
export class GameView {
  readonly id: string;
  private seatInfo: SeatInfo | null;
  private invite: string | null;
  private seat: Seat = 'spectator';
  private version = 0;
  private plies: PlyEvent[] = [];
  private moves = new MoveList();
  private state: State | null = null;
  private game: Summary | null = null;
  /** viewing is the index into plies of the ply shown, -1 the start, null the live position. */
  private viewing: number | null = null;
  private nextId = 1;
  private closed = false;
  private retry = 500;
  private ws: WebSocket | null = null;
  private everOpen = false;
  private lastHeard = 0;
  private reconnectTimer = 0;
  private tick: number;
  private beat: number;
  private board = new Board();
  private dests: cg.Dests = new Map();
  private byPair = new Map<string, string[]>();
  private conn = { state: 'connecting', text: 'connecting…' };
  private msg = { text: '', error: false };
  private choice: Choice | null = null;
  private clockBase: ClockBase | null = null;
  private lowPlayed = false;
  private live = false;
  private wasOver = false;
  private ended: State | null = null; // the state that ended the game while the page was open
  private dialogEl: HTMLDialogElement | null = null;
  private rematchID = '';
  private dice: { text: string; verified: string; title: string } | null = null;
  private diceChecked = -1;
  private labelled: string | undefined;
  private designOut: DesignOut = null;
  private designSeq = 0;
  private notFound = false;
  private players: Summary | null = null;
  private wasOverSeen = false; // a state has come before: an end after it changes the ratings
  private readonly inviteLink: string | null;
  private readonly onKey: (ev: KeyboardEvent) => void;
  private readonly onOnline: () => void;

  constructor(id: string) {
    this.id = id;
    this.seatInfo = loadSeat(id);
    this.invite = takeInvite(id); // tried before seatInfo
    this.inviteLink = localStorage.getItem('anychess.invite.' + id);
    this.connect();
    this.loadPlayers();
    this.tick = window.setInterval(() => this.drawClocks(), 100);
    this.beat = window.setInterval(() => this.heartbeat(), 15000);
    this.onOnline = () => this.reconnectNow();
    window.addEventListener('online', this.onOnline);
    // The replay by keyboard: Left and Right one ply, Up and Down one
    // move (two plies), Home the start, End the live position.
    this.onKey = (ev) => {
      if (isTyping(ev) || !this.game) return;
      const act = ({ ArrowLeft: () => this.step(-1), ArrowRight: () => this.step(1), ArrowUp: () => this.step(-2),
        ArrowDown: () => this.step(2), Home: () => this.show(-1), End: () => this.show(null) } as Record<string, () => void>)[ev.key];
      if (!act) return;
      ev.preventDefault();
      act();
    };
    document.addEventListener('keydown', this.onKey);
  }

  // loadPlayers reads the game's summary for its players' accounts and
  // ratings (again when the game ends: a rated game changes them).
  private loadPlayers(): void {
    api<Summary>('/api/games/' + encodeURIComponent(this.id)).then((sum) => { if (!this.closed) { this.players = sum; redraw(); } }).catch(() => {});
  }

  // playersView names the players who have accounts, with their ratings
  // (provisional marked "?"), and says whether the game is rated.
  private playersView(): VNode {
    const p = this.players;
    if (!p || (!p.white && !p.black)) return h('div#players.players', { attrs: { hidden: true } });
    const side = (c: Color) => {
      const pl = c === 'white' ? p.white : p.black;
      return h('span.player', { dataset: { color: c, user: pl ? pl.user : '', rating: pl && pl.rating ? String(pl.rating) : '' } },
        [c === 'white' ? '○ ' : '● ', pl ? playerLink(pl.user) : h('span.dim', 'anonymous'), pl && pl.rating ? h('span.rating', ' ' + ratingText(pl.rating, pl.provisional)) : '']);
    };
    return h('div#players.players', { dataset: { rated: p.rated ? 'yes' : 'no' } }, [side('white'), ' – ', side('black'), h('span.dim', p.rated ? ' · rated' : ' · casual')]);
  }

  /** close ends the page: its connection, timers and board. */
  close(): void {
    this.closed = true;
    clearInterval(this.tick);
    clearInterval(this.beat);
    clearTimeout(this.reconnectTimer);
    window.removeEventListener('online', this.onOnline);
    document.removeEventListener('keydown', this.onKey);
    if (this.ws) this.ws.close();
    this.board.destroy();
  }

  /** view is the page. */
  view(): VNode {
    if (this.notFound) {
      return h('div#not-found.not-found', { key: 'not-found-' + this.id }, [
        h('h2', 'No such game'),
        h('p', `There is no game ${this.id} on this server: the link may be mistyped, or the game was aborted before it was stored.`),
        h('p', [h('a', { attrs: { href: '#/' } }, 'Back to the lobby')]),
      ]);
    }
    const g = this.game;
    const s = this.state;
    const over = isOver(s);
    const seated = this.seat !== 'spectator';
    const welcomed = !!g;
    const hide = (cond: boolean) => ({ hidden: cond });
    const btn = (id: string, label: string, hidden: boolean, click: () => void) =>
      h('button#' + id, { attrs: hide(hidden), on: { click } }, label);
    // Until the server has sent the game's state there is nothing to do:
    // the controls appear with it.
    const b = {
      resign: !g || !s || !seated || over,
      draw: !g || !s || !seated || over || g.opponent === 'engine' || s.offer === this.seat,
      decline: !s || !seated || over || !s.offer || s.offer === this.seat,
      abort: !s || !seated || over || this.plies.filter((p) => p.turn_over).length >= 2 || this.plies.some((p) => p.roll),
      rematch: !s || !seated || !over,
    };
    const muted = isMuted();
    const bottom = this.board.orientation();
    const top: Color = bottom === 'white' ? 'black' : 'white';
    const clocks = this.clocksFor(top, bottom);
    const analyseHref = this.viewing === null ? `#/analysis/game/${this.id}` : `#/analysis/game/${this.id}/${this.viewing + 1}`;
    return h('div.game', { key: 'game-' + this.id }, [
      h('div.left', [
        clocks.top,
        this.board.view(g ? { variant: g.variant, files: g.files, ranks: g.ranks } : null,
          this.board.cg && g ? boardLabel(this.labelled, g.files, g.pieces, this.board.orientation()) : 'Board'),
        clocks.bottom,
      ]),
      h('div.right', [
        h('h2#title', g ? [
          g.title + ' ',
          h('span.dim', (this.seat === 'spectator' ? '(watching)' : `(you play ${this.seat})`) + (g.opponent === 'engine' ? ` vs engine level ${g.level}` : '')),
          // Each player sees only its view, and no spectator sees one.
          this.seat === 'spectator' && g.hidden && !g.finished
            ? h('div#watch-hidden.watch', 'Hidden information: the board is shown when the game ends.') : '',
        ] : 'Game ' + this.id),
        this.playersView(),
        h('div#conn.conn', { attrs: { role: 'status' }, dataset: { state: this.conn.state } }, this.conn.text),
        h('div#status.status', { attrs: { role: 'status', 'aria-live': 'polite' }, dataset: this.statusData() }, this.statusText()),
        h('div#dice.dice', this.dice ? { attrs: { title: this.dice.title }, dataset: { verified: this.dice.verified } } : {}, this.dice ? this.dice.text : ''),
        marksView(s && this.viewing === null ? s.describe : this.shownDescribe()),
        this.chancesView(),
        this.economyView(),
        h('div#message', { class: { message: true, error: this.msg.error } }, this.msg.text),
        h('div#invite.invite', this.inviteLink && !over ? [
          'Send this link to your opponent: ',
          h('input#invite-link', { props: { value: this.inviteLink, readOnly: true, size: 60 }, on: { click: (e: Event) => (e.target as HTMLInputElement).select() } }),
        ] : []),
        this.choiceView(),
        this.actionsView(),
        h('form.move-form', { attrs: hide(!s || !seated || over), on: { submit: (ev: Event) => this.submitMove(ev) } }, [
          h('input#move-input', { attrs: { placeholder: 'type a move (e4, Nf3, e7e8q)', size: 22, autocomplete: 'off' } }),
          h('button#move-send', { attrs: { type: 'submit' } }, 'Play'),
        ]),
        h('div.actions', [
          btn('resign', 'Resign', b.resign, () => { if (confirm('Resign this game?')) this.send({ t: 'resign' }); }),
          btn('draw', s && s.offer && s.offer !== this.seat ? 'Accept draw' : 'Offer draw', b.draw, () => this.send({ t: 'draw', offer: true })),
          btn('decline', 'Decline draw', b.decline, () => this.send({ t: 'draw', offer: false })),
          btn('abort', 'Abort', b.abort, () => this.send({ t: 'abort' })),
          btn('rematch', 'Rematch', b.rematch, () => this.send({ t: 'rematch' })),
        ]),
        h('div.nav', { attrs: hide(!welcomed) }, [
          h('button#nav-first', { attrs: { title: 'first', 'aria-label': 'the start position' }, on: { click: () => this.show(-1) } }, '«'),
          h('button#nav-prev', { attrs: { title: 'back', 'aria-label': 'one move back' }, on: { click: () => this.step(-1) } }, '‹'),
          h('button#nav-next', { attrs: { title: 'forward', 'aria-label': 'one move forward' }, on: { click: () => this.step(1) } }, '›'),
          h('button#nav-last', { attrs: { title: 'live', 'aria-label': 'the live position' }, on: { click: () => this.show(null) } }, '»'),
          h('button#flip', { attrs: { title: 'flip the board', 'aria-label': 'flip the board' }, on: { click: () => { if (this.board.cg) { this.board.cg.toggleOrientation(); redraw(); } } } }, '⇅'),
          h('button#copy-fen', { attrs: { title: 'copy the FEN of the position shown' }, on: { click: () => this.copyFEN() } }, 'Copy FEN'),
          h('button#copy-pgn', { attrs: { title: 'copy the game in PGN' }, on: { click: () => this.copyPGN() } }, 'Copy PGN'),
          h('button#mute', {
            attrs: { 'aria-label': muted ? 'sounds off: turn them on' : 'sounds on: turn them off', 'aria-pressed': muted ? 'true' : 'false', title: muted ? 'sounds are off' : 'sounds are on' },
            on: { click: () => { toggleMute(); redraw(); } },
          }, muted ? 'Sound: off' : 'Sound: on'),
          h('a#pgn', { attrs: { href: `/api/games/${this.id}/pgn`, download: `anychess-${this.id}.pgn` } }, 'PGN'),
          // No help during play: a game is analysed once it is over.
          h('a#analyse', { attrs: { href: analyseHref, hidden: !(welcomed && s && over) } }, 'Analyse'),
          h('a#game-rules', { attrs: g ? { href: '#/rules/' + g.variant } : {} }, 'Rules'),
        ]),
        this.moves.view(this.viewing === null ? (s ? null : -2) : this.viewing + 1, (ply) => this.show(ply - 1)),
        h('div#moves-result.moves-result', s && over ? `${s.status.result === '*' ? 'aborted' : s.status.result} (${s.status.reason})` : ''),
        h('div#rematch-link.rematch-link', this.rematchID ? [h('a#rematch-go', { attrs: { href: '#/game/' + this.rematchID } }, 'Go to the rematch →')] : []),
      ]),
      this.dialogView(),
    ]);
  }

  // statusData is the status line's data: whether the game is over and
  // whether the page is connected.
  private statusData(): Record<string, string> {
    const d: Record<string, string> = { connected: this.conn.state === 'open' ? 'yes' : 'no' };
    if (this.state) d.over = isOver(this.state) ? 'yes' : 'no';
    return d;
  }

  // statusText is the status line: the result, or who moves and where
  // the turn stands, in the variant's words (a phase, tries).
  private statusText(): string {
    const s = this.state;
    if (!s) return '';
    if (isOver(s)) return `${s.status.result === '*' ? 'aborted' : s.status.result} · ${s.status.reason}${s.status.detail ? ' — ' + s.status.detail : ''}`;
    let text = `${s.turn} to move` + (s.check ? ' · check' : '') + (this.mine() ? ' · your move' : '');
    const d = s.describe || {};
    if (d.phase) text += ' · ' + d.phase;
    if (d.turn) text += ' · ' + d.turn;
    return text;
  }

  // mine reports whether the seat is to move and has moves.
  private mine(): boolean {
    const s = this.state;
    return !!s && !isOver(s) && s.turn === this.seat && s.legal.length > 0;
  }

  // shownDescribe is the description of the position shown in the replay.
  private shownDescribe(): Describe | undefined {
    if (!this.game || this.viewing === null) return undefined;
    return this.viewing < 0 ? this.game.start_describe : this.plies[this.viewing].describe;
  }

  private clocksFor(top: Color, bottom: Color): { top: VNode; bottom: VNode } {
    const cb = this.clockBase;
    const g = this.game;
    if (!cb || !g || !this.board.cg) return { top: clockView('top', top, null, false, false), bottom: clockView('bottom', bottom, null, false, false) };
    const enabled = (g.initial_ms || 0) > 0 || (g.days || 0) > 0;
    const over = isOver(this.state);
    const left = timeLeft(cb, over, performance.now());
    const one = (pos: 'top' | 'bottom', col: Color) => clockView(pos, col, left[col], enabled, cb.clock.running === col && !over);
    return { top: one('top', top), bottom: one('bottom', bottom) };
  }

  // drawClocks redraws the clocks and plays the low-time sound once when
  // the seat's own clock runs under ten seconds.
  private drawClocks(): void {
    const cb = this.clockBase;
    const g = this.game;
    if (!cb || !g || !this.board.cg || this.closed) return;
    redraw();
    if (this.seat === 'spectator') return;
    const enabled = (g.initial_ms || 0) > 0 || (g.days || 0) > 0;
    const over = isOver(this.state);
    const left = timeLeft(cb, over, performance.now())[this.seat];
    if (enabled && !over && this.seat === cb.clock.running && left < 10000 && (g.initial_ms || 0) > 0) {
      if (!this.lowPlayed) { this.lowPlayed = true; playSound('low'); }
    } else if (left >= 10000) this.lowPlayed = false;
  }

  // chancesView lists, for the player to move, the chance of success of
  // each move decided by chance (a capture try), before it is tried.
  private chancesView(): VNode {
    const s = this.state;
    const ch = s && this.mine() && s.chances ? Object.entries(s.chances) : [];
    return h('div#chances.chances', ch.length ? ['Capture chances: ', ...ch.map(([m, p]) => {
      const [n, d] = p.split('/').map(Number);
      return h('span.chance', { dataset: { move: m } }, `${m} ${p} (${Math.round(100 * n / d)}%)`);
    })] : []);
  }

  // economyView draws each side's counters (treasury, reserve) and piece
  // types with their prices from the server's description.
  private economyView(): VNode {
    const e = this.state ? economyOf(this.state.describe) : null;
    if (!e) return h('div#economy.economy');
    const sides = (['white', 'black'] as Color[]).map((side) => h('div.side', { dataset: { side } }, [
      h('b', side), ': ' + e.counters[side].map((c) => `${c.name} ${c.value}`).join(' · ') + (e.slots[side].length ? ' · types: ' : ''),
      ...e.slots[side].map((l) => h('span.design', { attrs: { title: e.table[l] || '' } }, `${l}=${e.table[l] || '?'}(${e.price[l]}) `)),
    ]));
    return h('div#economy.economy', [h('div#treasuries.treasuries', sides)]);
  }

  // choiceView offers the moves that join the same squares: a promotion's
  // pieces, or several moves of the variant's own kind (a king's routes,
  // a knight's paths, stack indices).
  private choiceView(): VNode {
    const c = this.choice;
    if (!c || !this.state) return h('div#promotion.promotion');
    const v = this.state.v;
    const play = (m: string) => { this.choice = null; this.send({ t: 'move', move: m, v }); redraw(); };
    const cancel = h('button.promo-cancel', { on: { click: () => { this.choice = null; this.drawLive(); redraw(); } } }, '✕');
    if (c.kind === 'which') {
      return h('div#promotion.promotion', ['Which move? ', ...c.moves.map((m) => h('button.choice', { dataset: { move: m }, on: { click: () => play(m) } }, m)), cancel]);
    }
    const color = this.seat;
    return h('div#promotion.promotion', ['Promote to: ', ...c.moves.map((m) => {
      const letter = (SQUARE_MOVE.exec(m) || [])[3] || '';
      const info = ((this.game && this.game.pieces) || []).find((p) => p.letter.toLowerCase() === letter) || { letter, name: letter, betza: '' };
      return h('button.promo', { attrs: { title: info.name }, dataset: { piece: letter }, on: { click: () => play(m) } },
        [h('img', { attrs: { src: pieceURL(info.letter, info.name, info.betza, color), alt: info.name, width: 40, height: 40 } })]);
    }), cancel]);
  }

  // actionsView draws the actions of the seat to move: the general row
  // of buttons, a row of buttons for each group in the order the groups
  // come, the pieces of the reserve to drag onto the board, and with the
  // design decisions the design editor.
  private actionsView(): VNode {
    const s = this.state;
    if (!s) return h('div#special.special');
    const mine = this.mine();
    const actions = s.actions || [];
    const described = new Set(actions.map((a) => a.move));
    const loose = s.legal.filter((m) => !described.has(m) && !movePair(m));
    const economy = economyOf(s.describe);
    const button = (a: Action) => h('button.special-move.action', {
      attrs: { title: a.move }, dataset: { move: a.move, group: a.group || '' },
      on: { click: () => this.send({ t: 'move', move: a.move }) },
    }, a.label || a.move);
    const general = [...actions.filter((a) => !a.group && !a.piece).map(button), ...loose.map((m) => button({ move: m, label: m }))];
    const groups: string[] = [];
    for (const a of actions) if (a.group && !a.piece && !groups.includes(a.group)) groups.push(a.group);
    const rows = groups.map((g) => h('div.action-group', { key: 'group-' + g, dataset: { group: g } }, [
      h('b', g + ': '),
      ...actions.filter((a) => a.group === g && !a.piece).map(button),
      ...(g === DESIGN_GROUP && mine && economy && this.seat !== 'spectator' ? [this.designEditor(economy.slots[this.seat] || [], economy)] : []),
    ]));
    const seat = this.seat;
    const reserve = actions.filter((a) => a.piece).map((a) => a.piece as string).filter((l, i, all) => all.indexOf(l) === i);
    if (mine && reserve.length && seat !== 'spectator') {
      rows.push(h('div#reserve.action-group.reserve', { key: 'reserve' }, ['Reserve (drag a piece onto the board): ', ...reserve.map((l) => {
        const info = ((this.game && this.game.pieces) || []).find((p) => p.letter === l) || { letter: l, name: l, betza: '' };
        const movement = economy ? economy.table[l] : info.betza;
        const start = (ev: MouseEvent | TouchEvent) => {
          ev.preventDefault();
          if (this.board.cg) this.board.cg.dragNewPiece({ role: (l.toLowerCase() + '-piece') as cg.Role, color: seat }, false, ev as cg.MouchEvent);
        };
        return h('img.reserve-piece', {
          attrs: { title: `${l} = ${movement || ''}`, width: 44, height: 44, draggable: 'false', src: pieceURL(info.letter, info.name, info.betza, seat) },
          dataset: { letter: l },
          on: { mousedown: start, touchstart: start },
        });
      })]));
    }
    return h('div#special.special', [...general, ...rows]);
  }

  // designEditor types a design, shows its price and moves as you type,
  // and puts it into one of your slots (the types of your side in the
  // description) by the move the server writes for it.
  private designEditor(mySlots: string[], { table, unit }: Economy): VNode {
    // The game's options price as the game does (some change prices).
    const opts = this.game && this.game.options && Object.keys(this.game.options).length ? this.game.options : null;
    const variant = encodeURIComponent(this.game ? this.game.variant : '') + (opts ? '&options=' + encodeURIComponent(JSON.stringify(opts)) : '');
    const input = () => document.getElementById('design-input') as HTMLInputElement;
    const onInput = async () => {
      const text = input().value.trim();
      const n = ++this.designSeq;
      if (!text) { this.designOut = null; redraw(); return; }
      const resp = await fetch(`/api/design?variant=${variant}&d=${encodeURIComponent(text)}`);
      const info = await resp.json() as DesignInfo;
      if (n !== this.designSeq) return;
      this.designOut = info.error ? { ok: false, message: info.error.message, text, pos: info.error.pos ?? text.length } : { ok: true, info };
      redraw();
    };
    const put = async () => {
      const text = input().value.trim();
      if (!text) return;
      const slot = (document.getElementById('design-slot') as HTMLSelectElement).value;
      try {
        const info = await api<DesignInfo>(`/api/design?variant=${variant}&d=${encodeURIComponent(text)}&slot=${encodeURIComponent(slot)}`);
        if (info.move) this.send({ t: 'move', move: info.move });
      } catch (e) {
        this.flash(`${text}: ${errorText(e)}`);
      }
    };
    const o = this.designOut;
    let out: VNode;
    if (!o) out = h('div#design-out.design-out');
    else if (!o.ok) {
      out = h('div#design-out.design-out', { dataset: { ok: 'no' } }, [h('div.design-error', `refused: ${o.message}`), h('pre', o.text + '\n' + ' '.repeat(o.pos) + '^')]);
    } else {
      const i = o.info;
      out = h('div#design-out.design-out', { dataset: { ok: 'yes' } }, [
        h('div#design-price.design-price', `price ${unit ? plural(i.price, unit) : i.price} (exact cost ${i.exact}${i.colorbound ? ', colour-bound' : ''}${i.royal ? ', royal' : ''})`),
        h('pre.design-diagram', i.diagram),
      ]);
    }
    // A new state gives a new editor, empty.
    return h('div#design-editor.design-editor', { key: 'design-' + (this.state ? this.state.v : 0) }, [
      h('div', [
        h('input#design-input', { attrs: { placeholder: 'a design, e.g. FfR', size: 18, autocomplete: 'off' }, on: { input: onInput } }), ' ',
        h('select#design-slot', mySlots.map((l) => h('option', { key: l, attrs: { value: l } }, `slot ${l} (${table[l] || ''})`))), ' ',
        h('button#design-put', { on: { click: put } }, 'Put into the slot'),
      ]),
      out,
    ]);
  }

  // dialogView is the dialog that says how the game ended, with a
  // rematch for a player; gameOver opens it.
  private dialogView(): VNode {
    const s = this.ended;
    let kids: VNode[] = [];
    if (s) {
      const r = s.status.result;
      const head = ({ '1-0': 'White wins', '0-1': 'Black wins', '1/2-1/2': 'Draw' } as Record<string, string>)[r] || 'Game aborted';
      const seated = this.seat !== 'spectator';
      const you = !seated || r === '*' || r === '1/2-1/2' ? '' : (r === '1-0') === (this.seat === 'white') ? ' — you won' : ' — you lost';
      const close = () => { if (this.dialogEl) this.dialogEl.close(); };
      kids = [
        h('h3#gameover-title', `${head}${you}`),
        h('p.gameover-reason', `${r === '*' ? '' : r + ' · '}${s.status.reason}${s.status.detail ? ' — ' + s.status.detail : ''}`),
        h('div.actions', [
          seated && r !== '*' ? h('button#gameover-rematch', { on: { click: () => { this.send({ t: 'rematch' }); close(); } } }, 'Rematch') : '',
          h('a#gameover-analyse', { attrs: { href: `#/analysis/game/${this.id}` } }, 'Analyse'),
          h('button#gameover-close', { on: { click: close } }, 'Close'),
        ].filter((x) => x !== '') as VNode[]),
      ];
    }
    return h('dialog#gameover.gameover', {
      attrs: { 'aria-labelledby': 'gameover-title' },
      hook: { insert: (vnode) => { this.dialogEl = vnode.elm as HTMLDialogElement; }, destroy: () => { this.dialogEl = null; } },
    }, kids);
  }

  // gameOver opens the dialog that says how the game ended.
  private gameOver(s: State): void {
    this.ended = s;
    redraw();
    if (this.dialogEl && !this.dialogEl.open) this.dialogEl.show();
  }

  private submitMove(ev: Event): void {
    ev.preventDefault();
    const input = document.getElementById('move-input') as HTMLInputElement;
    const m = input.value.trim();
    if (m) { this.send({ t: 'move', move: m }); input.value = ''; }
  }

  // shownFEN returns the FEN of the position shown, or '' where the page
  // has none (a view of a game with hidden information).
  private shownFEN(): string {
    if (this.viewing === null) return (this.state && this.state.fen) || '';
    return (this.viewing < 0 ? this.game && this.game.start_fen : this.plies[this.viewing].fen) || '';
  }

  private async copyFEN(): Promise<void> {
    const fen = this.shownFEN();
    if (!fen) { this.flash('this position has no FEN to copy'); return; }
    try { await copyText(fen); this.flash('FEN copied: ' + fen, false); } catch (e) { this.flash('FEN not copied: ' + errorText(e)); }
  }

  private async copyPGN(): Promise<void> {
    const pgn = fetch(`/api/games/${this.id}/pgn`).then((r) => { if (!r.ok) throw new Error(r.statusText); return r.text(); });
    try { await copyText(pgn); this.flash('PGN copied', false); } catch (e) { this.flash('PGN not copied: ' + errorText(e)); }
  }

  // setNotFound replaces the game page by a message: the link names no game.
  private setNotFound(): void {
    this.closed = true;
    if (this.ws) this.ws.close();
    clearInterval(this.tick);
    document.body.dataset.seat = '';
    this.notFound = true;
    redraw();
  }

  // setConn shows the connection's state: connecting, open, or lost (then
  // when the page tries again).
  private setConn(state: string, text: string): void {
    this.conn = { state, text };
    redraw();
  }

  private connect(): void {
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
    ws.onmessage = (ev) => { this.lastHeard = performance.now(); this.frame(JSON.parse(ev.data) as ServerFrame); };
    ws.onclose = () => {
      if (this.closed || this.ws !== ws) return;
      const wait = this.retry;
      this.setConn('lost', `connection lost — reconnecting in ${Math.ceil(wait / 1000)} s…`);
      clearTimeout(this.reconnectTimer);
      this.reconnectTimer = window.setTimeout(() => { if (!this.closed) this.connect(); }, wait);
      this.retry = Math.min(this.retry * 2, 8000);
    };
  }

  // heartbeat pings the server every 15 seconds; a connection that has
  // heard nothing for 40 seconds is taken for lost and opened again.
  private heartbeat(): void {
    const ws = this.ws;
    if (!ws || ws.readyState !== WebSocket.OPEN) return;
    if (performance.now() - this.lastHeard > 40000) { ws.close(); return; }
    ws.send(JSON.stringify({ t: 'ping', id: this.nextId++ }));
  }

  // reconnectNow tries again at once (the browser is back online).
  private reconnectNow(): void {
    if (this.closed || (this.ws && this.ws.readyState <= WebSocket.OPEN)) return;
    clearTimeout(this.reconnectTimer);
    this.retry = 500;
    this.connect();
  }

  // hello says hello with the invite's token if there is one to try, else
  // the stored seat's, else as a spectator.
  private hello(): void {
    if (!this.ws) return;
    const hello: ClientFrame = { t: 'hello', since: this.version };
    if (this.invite) hello.token = this.invite;
    else if (this.seatInfo) hello.token = this.seatInfo.token;
    this.ws.send(JSON.stringify(hello));
  }

  private send(msg: ClientFrame): void {
    if (!this.ws || this.ws.readyState !== WebSocket.OPEN) { this.flash('not connected; retrying'); return; }
    this.ws.send(JSON.stringify({ ...msg, id: this.nextId++ }));
  }

  private flash(text: string, isError = true): void {
    this.msg = { text, error: isError };
    redraw();
  }

  private frame(f: ServerFrame): void {
    switch (f.t) {
      case 'welcome': this.welcome(f.seat, f.game); break;
      case 'event': this.event(f.v, f.e); break;
      case 'state': this.setState(f); break;
      case 'ack': this.flash('', false); break;
      case 'pong': break;
      case 'error':
        if (f.code === 'not_found') { this.setNotFound(); return; }
        this.flash(f.message || f.code);
        if (f.code === 'bad_token') {
          if (this.invite) {
            this.invite = null; // the stored seat, if any, stays
            this.flash('that invite link opens no seat of this game');
          } else {
            forgetSeat(this.id);
            this.seatInfo = null;
          }
          this.hello();
        }
        if (this.state) this.setState(this.state); // undo a move the server refused
        break;
      case 'rematch': this.rematch(f.game, f.seat, f.token); break;
    }
  }

  private welcome(seat: Seat, game: Summary): void {
    if (this.invite && seat !== 'spectator') {
      saveSeat(this.id, seat, this.invite);
      this.seatInfo = { seat, token: this.invite };
    }
    this.invite = null;
    this.seat = seat;
    this.game = game;
    const v = variantByName(game.variant);
    installPieceCSS(game.variant, game.pieces || (v && v.pieces) || []);
    document.body.dataset.seat = this.seat;
    redraw(); // the board's wrapper gets the variant's size before the board starts
    if (!this.board.cg) {
      this.board.start({
        dimensions: { width: game.files, height: game.ranks },
        fen: game.start_board || cgBoard('', game.files, game.ranks),
        orientation: this.seat === 'black' ? 'black' : 'white',
        coordinates: true, // file letters and rank numbers, placed by style.css
        autoCastle: false,
        movable: { free: false, color: undefined, showDests: true, events: { after: (o, d) => this.userMove(o, d), afterNewPiece: (piece, d) => this.userDrop(piece, d) } },
        premovable: { enabled: true }, // a move made while the opponent thinks, played when the turn comes
        draggable: { enabled: true },
        highlight: { lastMove: true, check: true },
        animation: { enabled: true, duration: 150 },
      });
      redraw();
    }
  }

  // userDrop sends the action that puts a reserve piece dragged onto
  // square k on the board, or puts the board back if there is none.
  private userDrop(piece: cg.Piece, k: cg.Key): void {
    const letter = piece.role[0].toUpperCase(), to = sqName(k);
    const a = ((this.state && this.state.actions) || []).find((x) => x.piece === letter && x.to === to);
    if (a && this.state) {
      this.send({ t: 'move', move: a.move, v: this.state.v });
      return;
    }
    this.flash(`${letter} cannot be put on ${to}`);
    this.drawLive();
  }

  private event(v: number, e: GameEvent): void {
    if (v <= this.version) return;
    this.version = v;
    document.body.dataset.version = String(v);
    if (e.kind === 'ply') {
      const prev = this.plies.length ? this.plies[this.plies.length - 1] : null;
      this.plies.push(e);
      this.moves.add(e, prev, this.game ? this.game.start_fen : undefined);
      const words = e.events || e.removed || [];
      if (this.live) playSound(e.check ? 'check' : /x/.test(e.san || e.move || '') || words.length ? 'capture' : 'move');
      if (this.viewing !== null) this.show(this.viewing);
      else redraw();
    } else if (e.kind === 'offer') {
      const who = e.seat === this.seat ? 'You' : e.seat;
      const text = ({ draw: `${who} offered a draw`, draw_declined: `${who} declined the draw`, draw_withdrawn: `${who} withdrew the draw offer`, rematch: `${who} asked for a rematch` } as Record<string, string>)[e.offer || ''];
      this.flash(text || e.offer || '', false);
    } else if (e.kind === 'end') {
      if (this.live) playSound('end');
    } else if (e.kind === 'rematch') {
      this.rematchID = e.game || '';
      this.showRematch();
    }
  }

  private async showRematch(): Promise<void> {
    if (!this.rematchID) return;
    if (this.seatInfo && this.seat !== 'spectator' && !loadSeat(this.rematchID)) {
      saveSeat(this.rematchID, this.seat === 'white' ? 'black' : 'white', await rematchToken(this.seatInfo.token));
    }
    redraw();
  }

  private rematch(game: string, seat: Seat, token: string): void {
    saveSeat(game, seat, token);
    this.rematchID = game;
    this.showRematch();
  }

  private setState(s: State): void {
    this.state = s;
    document.body.dataset.version = String(s.v);
    document.body.dataset.turn = s.turn;
    document.body.dataset.result = s.status.result;
    const over = isOver(s);
    this.dests = new Map();
    this.byPair = new Map();
    // The moves that are not from one square to another come described
    // by the variant (state.actions): buttons by group, and pieces put
    // from the reserve, which chessgroundx keys "N@".
    const actions = s.actions || [];
    const described = new Set(actions.map((a) => a.move));
    const add = (from: cg.Orig, to: cg.Key) => {
      const list = this.dests.get(from) || [];
      if (!list.includes(to)) list.push(to);
      this.dests.set(from, list);
    };
    for (const a of actions) {
      if (a.piece && a.to) add((a.piece + '@') as cg.DropOrig, key(a.to));
    }
    for (const m of s.legal) {
      if (described.has(m)) continue;
      const ends = movePair(m);
      if (!ends) continue; // a button (actionsView)
      const from = key(ends[0]), to = key(ends[1]);
      add(from, to);
      const pair = from + to;
      this.byPair.set(pair, [...(this.byPair.get(pair) || []), m]);
    }
    this.choice = null;
    this.designOut = null;
    this.designSeq++; // an answer still on its way is for the editor replaced
    if (this.viewing === null) this.drawLive();
    this.clockBase = { at: performance.now(), clock: s.clock };
    this.showDice(s);
    redraw();
    if (over && this.live && !this.wasOver) this.gameOver(s);
    if (over && !this.wasOver && this.wasOverSeen) this.loadPlayers();
    this.wasOverSeen = true;
    this.wasOver = over;
    this.live = true;
    this.drawClocks();
  }

  // showDice shows the commitment to the game's dice while it is played,
  // and once the seed is revealed checks here, in the page, that it gives
  // the commitment and that every roll followed from it.
  private async showDice(s: State): Promise<void> {
    const d = s.dice;
    if (!d) { this.dice = null; return; }
    if (!d.seed) {
      this.dice = { title: d.commit, verified: 'pending', text: `dice: the server committed to ${d.commit.slice(0, 23)}…; the seed is revealed and checked here when the game ends` };
      return;
    }
    if (this.diceChecked === s.v) return;
    this.diceChecked = s.v;
    const res = await verifyDice(d, this.plies);
    const seed = d.seed;
    this.dice = {
      title: d.commit,
      verified: res.ok ? 'yes' : 'no',
      text: res.ok
        ? `dice verified in this page: the ${d.gen || 'PCG'} seed ${seed.length > 20 ? seed.slice(0, 16) + '…' : seed} gives the commitment, and ${res.rolls === 1 ? 'the one roll follows' : `all ${res.rolls} rolls follow`} from it ✓`
        : `dice check FAILED: ${res.error}`,
    };
    redraw();
  }

  // drawLive puts the live position on the board.
  private drawLive(): void {
    const s = this.state;
    const g = this.game;
    const cgApi = this.board.cg;
    if (!cgApi || !s || !g) return;
    const mine = s.status.result === '*' && !s.status.reason && s.turn === this.seat;
    // The last move's squares; where the state names none, those of the
    // last ply's text (a move in a variant's own notation), except in a
    // game with hidden information, whose views name none on purpose.
    const lastPly = this.plies[this.plies.length - 1];
    const last = s.last || (lastPly && !g.hidden ? movePair(lastPly.move) : null);
    const playing = this.seat !== 'spectator' && s.status.result === '*' && !s.status.reason;
    cgApi.set({
      fen: cgBoard(s.board, g.files, g.ranks),
      turnColor: s.turn,
      lastMove: last ? last.map(key) : undefined,
      check: s.check ? [key(s.check)] : false,
      // A player's pieces stay movable in the opponent's turn: a move
      // made then is a premove, played (if legal) when the turn comes.
      movable: { color: playing ? this.seat as Color : undefined, dests: mine ? this.dests : new Map() },
    });
    if (mine && cgApi.state.premovable.current) cgApi.playPremove();
    else if (!mine && cgApi.state.premovable.current && (s.status.result !== '*' || s.status.reason)) cgApi.cancelPremove();
    this.showMarks(s.describe, s.board, g.hidden && s.status.result === '*' && !s.status.reason ? s.visible : null);
    this.labelled = s.board;
    document.body.dataset.viewing = 'live';
  }

  // showMarks draws on the board what the board widget does not: the
  // labels of the squares the server's description marks (ranks,
  // passengers), terrain and what the player's view does not show
  // (visible, null for everything).
  private showMarks(d: Describe | undefined, board: string | undefined, visible: string[] | null | undefined): void {
    const g = this.game;
    if (!g || !this.board.cg) return;
    // Pieces whose movement the game designs are drawn from their design.
    installDesignCSS(g.variant, d && d.types);
    this.board.cg.setAutoShapes([...markShapes(d), ...fogShapes(board, visible, g.files)]);
  }

  // show draws the position after ply index i (0-based; -1 the start,
  // null the live position).
  private show(i: number | null): void {
    const g = this.game;
    const cgApi = this.board.cg;
    if (!g || !cgApi) return;
    if (i === null || (i >= this.plies.length - 1 && this.state)) {
      this.viewing = null;
      this.drawLive();
      redraw();
      return;
    }
    this.viewing = i;
    const board = i < 0 ? g.start_board : this.plies[i].board;
    const p = i >= 0 ? this.plies[i] : null;
    const pair = p && movePair(p.move);
    cgApi.set({
      fen: cgBoard(board, g.files, g.ranks),
      lastMove: pair ? pair.map(key) : undefined,
      check: p && p.check ? [key(p.check)] : false,
      movable: { color: undefined, dests: new Map() },
    });
    this.showMarks(i < 0 ? g.start_describe : this.plies[i].describe, board, null);
    this.labelled = board;
    document.body.dataset.viewing = String(i + 1);
    redraw();
  }

  private step(d: number): void {
    const n = this.plies.length;
    const cur = this.viewing === null ? n - 1 : this.viewing;
    const next = Math.max(-1, Math.min(n - 1, cur + d));
    if (next === n - 1) this.show(null); else this.show(next);
  }

  private userMove(orig: cg.Orig, dest: cg.Key): void {
    const s = this.state;
    if (!s) return;
    const cands = this.byPair.get(orig + dest) || [];
    if (cands.length === 1) { this.send({ t: 'move', move: cands[0], v: s.v }); return; }
    if (cands.length > 1) {
      this.choice = { kind: SQUARE_MOVE.test(cands[0]) ? 'promote' : 'which', moves: cands };
      redraw();
      return;
    }
    this.flash(`${sqName(orig)}-${sqName(dest)} is not a legal move`);
    this.setState(s);
  }
}
