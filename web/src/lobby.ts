// The lobby (#/): game creation (variant options, colour, the engine or a
// friend through an invite link, clocks, a set-up position), the games to
// watch and the finished ones, and every variant with its rules.
import { h, type VNode } from 'snabbdom';
import { analysisURL } from './analysis';
import { pieceURL } from './lib/pieces';
import { Seeks } from './seeks';
import type { CreateRequest, Created, LevelInfo, Summary, Variant } from './types';
import { api, errorText, inviteURL, oneLine, plural, postJSON, redraw, saveSeat, variantByName, variants } from './util';

const TIME_CONTROLS: [string, string][] = [
  ['none', 'no clock'], ['60000+0', '1+0'], ['180000+2000', '3+2'], ['300000+3000', '5+3'],
  ['600000+5000', '10+5'], ['900000+10000', '15+10'], ['1800000+0', '30+0'],
  ['d1', 'correspondence, 1 day per move'], ['d3', 'correspondence, 3 days'], ['d7', 'correspondence, 7 days'],
];

/** GameList is a list of games as the lobby has it: loading, the games, or an error. */
type GameList = null | Summary[] | { error: string };

// value reads a form field of the page by its id.
function value(id: string): string {
  const el = document.getElementById(id) as HTMLInputElement | HTMLSelectElement | null;
  return el ? el.value : '';
}

/** Lobby is the lobby page. */
export class Lobby {
  private variant: Variant;
  private engine = true;
  private error = '';
  private live: GameList = null;
  private done: GameList = null;
  private closed = false;
  private levels: LevelInfo[] = [];
  private readonly seeks = new Seeks();

  constructor() {
    this.variant = variants()[0];
    this.fill('live');
    this.fill('finished');
    api<LevelInfo[]>('/api/engine/levels').then((l) => { this.levels = l; redraw(); }).catch(() => {});
  }

  /** close ends the page. */
  close(): void { this.closed = true; this.seeks.close(); }

  // levelLabel names an engine level with its Elo in chess when measured.
  private levelLabel(n: number): string {
    const l = this.levels.find((x) => x.level === n);
    return 'level ' + n + (l && l.elo ? ` · about ${l.elo}` : '');
  }

  private async fill(state: 'live' | 'finished'): Promise<void> {
    let list: GameList;
    try { list = await api<Summary[]>('/api/games?state=' + state); } catch (e) { list = { error: errorText(e) }; }
    if (this.closed) return;
    if (state === 'live') this.live = list; else this.done = list;
    redraw();
  }

  private async create(ev: Event): Promise<void> {
    ev.preventDefault();
    this.error = '';
    redraw();
    const v = this.variant;
    const req: CreateRequest = { variant: v.name, color: value('color'), opponent: value('opponent') };
    if (req.opponent === 'engine') req.level = parseInt(value('level'), 10);
    const options: Record<string, string> = {};
    for (const inp of document.querySelectorAll<HTMLInputElement>('#app input[data-option]')) {
      const name = inp.dataset.option || '';
      const def = (v.options || []).find((o) => o.name === name);
      if (!def || def.value !== inp.value) options[name] = inp.value;
    }
    if (Object.keys(options).length) req.options = options;
    const fen = value('fen').trim();
    if (fen) req.fen = fen;
    const tc = value('tc');
    if (tc.startsWith('d')) req.days = parseInt(tc.slice(1), 10);
    else if (tc !== 'none') {
      const [i, inc] = tc.split('+').map(Number);
      req.clock = { initial_ms: i, increment_ms: inc };
    }
    try {
      const g = await postJSON<Created>('/api/games', req);
      saveSeat(g.id, g.seat, g.token);
      if (g.invite) localStorage.setItem('anychess.invite.' + g.id, inviteURL(g.invite));
      location.hash = '#/game/' + g.id;
    } catch (e) { this.error = errorText(e); redraw(); }
  }

  /** view is the page. */
  view(): VNode {
    const v = this.variant;
    const opt = (val: string, label: string, selected = false) => h('option', { attrs: { value: val }, props: { selected } }, label);
    const form = h('form.create', { on: { submit: (ev: Event) => this.create(ev) } }, [
      h('h2', 'New game'),
      h('label', ['variant ', h('select#variant', { attrs: { name: 'variant' }, on: { change: (ev: Event) => {
        const found = variantByName((ev.target as HTMLSelectElement).value);
        if (found) { this.variant = found; redraw(); }
      } } }, variants().map((x) => opt(x.name, x.title, x === v)))]),
      h('div.options', { key: 'options-' + v.name }, (v.options || []).map((o) => h('label', [o.name + ' ', h('input', { attrs: { size: 6 }, props: { value: o.value }, dataset: { option: o.name } })]))),
      h('label', ['play as ', h('select#color', ['white', 'black', 'random'].map((c) => opt(c, c)))]),
      h('label', ['against ', h('select#opponent', { on: { change: (ev: Event) => { this.engine = (ev.target as HTMLSelectElement).value === 'engine'; redraw(); } } },
        [opt('engine', 'the engine'), opt('human', 'a friend (invite link)')])]),
      h('label', { style: { display: this.engine ? '' : 'none' } }, ['strength ', h('select#level', [1, 2, 3, 4, 5, 6, 7, 8].map((n) => opt(String(n), this.levelLabel(n), n === 3)))]),
      h('label', ['clock ', h('select#tc', TIME_CONTROLS.map(([val, l]) => opt(val, l)))]),
      h('label.wide', ['set-up ', h('input#fen', { attrs: { name: 'fen', placeholder: 'start position (FEN), optional', size: 50 } })]),
      h('button#create', { attrs: { type: 'submit' } }, 'Create game'), ' ',
      h('button#lobby-analyse', { attrs: { type: 'button' }, on: { click: () => { location.hash = analysisURL(this.variant.name, value('fen').trim()); } } }, 'Analysis board'),
      h('p#create-error.error', this.error),
    ]);
    const rules = h('div.rules', [
      h('h3', [v.title, h('span.dim', ` ${v.files}×${v.ranks}` + (v.chance ? ' · chance' : ''))]),
      h('p', [oneLine(v.description), ' ', h('a#lobby-rules', { attrs: { href: '#/rules/' + v.name } }, 'full rules')]),
      h('div.piece-row', { class: { ['v-' + v.name]: true } }, v.pieces.map((p) => h('span.piece-chip', { attrs: { title: `${p.name} (${p.betza})` } },
        [h('img', { attrs: { src: pieceURL(p.letter, p.name, p.betza, 'white'), alt: p.name } }), p.name]))),
    ]);
    return h('div.lobby', { key: 'lobby' }, [
      this.seeks.view(),
      h('section', [form, rules]),
      h('section', [h('h2', 'Games to watch'), gamesView('live-games', this.live), h('h2', 'Finished games'), gamesView('finished-games', this.done)]),
      h('section.all-variants', [h('h2', ['Variants ', h('a#lobby-editor.dim', { attrs: { href: '#/editor' } }, 'make your own')]), ...variants().map((x) => h('div.variant-card', [
        h('h3', [x.title, h('span.dim', ` ${x.name} · ${x.files}×${x.ranks}`)]),
        h('p', oneLine(x.description)),
        h('p.card-links', [h('a.rules-link', { attrs: { href: '#/rules/' + x.name }, dataset: { variant: x.name } }, 'rules'), ' · ', h('a', { attrs: { href: analysisURL(x.name, '') } }, 'analysis board')]),
      ]))]),
    ]);
  }
}

// gamesView is a list of games, each linked to its page.
function gamesView(id: string, list: GameList): VNode {
  let items: VNode[] = [];
  if (list && 'error' in list) items = [h('li.error', list.error)];
  else if (list) {
    items = list.length ? list.map((g) => h('li', [h('a', { attrs: { href: '#/game/' + g.id } },
      `${g.title} · ${g.opponent === 'engine' ? 'vs engine L' + g.level : 'two players'} · ${plural(g.plies, 'ply', 'plies')}` + (g.finished ? ` · ${g.result} ${g.reason || ''}` : ''))]))
      : [h('li.dim', 'none yet')];
  }
  return h('ul#' + id + '.games', items);
}
