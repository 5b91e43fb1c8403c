// People: the account in the page's header (sign in, sign up, sign out),
// the sign-in page (#/login, which offers this browser's anonymous seats
// for claiming at sign-up), a player's profile (#/@/<name>: ratings per
// variant and class, a rating graph per variant, the games by page with
// filters) and the leaderboards (#/leaderboard/<variant>).
import { h, type VNode } from 'snabbdom';
import { playerLink, ratingText } from './seeks';
import type { GameEntry, GamePage, HistoryPoint, Leaderboard, Me, Profile, RatingInfo } from './types';
import { api, errorText, heldSeats, postJSON, redraw, session, setSession, variantByName, variants } from './util';

// reroute opens the page of the location's hash again (the router
// listens for hashchange), or goes to hash.
function reroute(hash: string): void {
  if (location.hash === hash) window.dispatchEvent(new HashChangeEvent('hashchange'));
  else location.hash = hash;
}

// variantTitle is a variant's title, or its name when the server has no such variant.
function variantTitle(name: string): string {
  const v = variantByName(name);
  return v ? v.title : name;
}

/** accountView is the header's account: a link to the own profile and sign-out, or sign-in. */
export function accountView(): VNode {
  const me = session();
  const board = h('a#leaderboard-link', { attrs: { href: '#/leaderboard/chess' } }, 'Leaderboards');
  if (!me) return h('nav#account.account', [board, h('a#signin-link', { attrs: { href: '#/login' } }, 'Sign in')]);
  return h('nav#account.account', { dataset: { user: me.user } }, [
    board,
    h('a#me-link', { attrs: { href: '#/@/' + encodeURIComponent(me.user) } }, me.display || me.user),
    h('button#signout', { attrs: { type: 'button' }, on: { click: () => signOut() } }, 'Sign out'),
  ]);
}

// signOut ends the session and opens the lobby again (its feed belongs to
// the account signed in when it opened).
async function signOut(): Promise<void> {
  try { await api<unknown>('/api/logout', { method: 'POST' }); } catch { /* the session is gone either way */ }
  setSession(null);
  reroute('#/');
}

/** LoginPage is #/login: sign in, or sign up claiming this browser's anonymous games. */
export class LoginPage {
  private error = '';
  private busy = false;
  private claim = true;

  private async submit(ev: Event, signup: boolean): Promise<void> {
    ev.preventDefault();
    const name = (document.getElementById('login-name') as HTMLInputElement).value.trim();
    const password = (document.getElementById('login-password') as HTMLInputElement).value;
    this.error = '';
    this.busy = true;
    redraw();
    const body: Record<string, unknown> = { name, password };
    const seats = heldSeats();
    if (signup && this.claim && seats.length) body.claim = seats;
    try {
      const me = await postJSON<Me>(signup ? '/api/signup' : '/api/login', body);
      setSession(me);
      reroute(signup ? '#/@/' + encodeURIComponent(me.user) : '#/');
    } catch (e) {
      this.error = errorText(e);
    }
    this.busy = false;
    redraw();
  }

  /** view is the page. */
  view(): VNode {
    const seats = heldSeats();
    const me = session();
    return h('div.login', { key: 'login' }, [
      h('h2', 'Sign in or sign up'),
      me ? h('p', ['Signed in as ', h('a', { attrs: { href: '#/@/' + encodeURIComponent(me.user) } }, me.display), '.']) : '',
      h('form#login-form.login-form', { on: { submit: (ev: Event) => this.submit(ev, false) } }, [
        h('label', ['user name ', h('input#login-name', { attrs: { autocomplete: 'username', required: true, minlength: 3, maxlength: 20 } })]),
        h('label', ['password ', h('input#login-password', { attrs: { type: 'password', autocomplete: 'current-password', required: true, minlength: 8 } })]),
        h('div.login-buttons', [
          h('button#login', { attrs: { type: 'submit', disabled: this.busy } }, 'Sign in'), ' ',
          h('button#signup', { attrs: { type: 'button', disabled: this.busy }, on: { click: (ev: Event) => {
            const form = document.getElementById('login-form') as HTMLFormElement;
            if (form.reportValidity()) this.submit(ev, true);
          } } }, 'Sign up'),
        ]),
        seats.length ? h('label.claim', [
          h('input#claim', { attrs: { type: 'checkbox' }, props: { checked: this.claim }, on: { change: (ev: Event) => { this.claim = (ev.target as HTMLInputElement).checked; } } }),
          ` at sign-up, claim the ${seats.length === 1 ? 'game' : seats.length + ' games'} this browser played without an account`,
        ]) : '',
        h('p.dim', 'User names: 3 to 20 letters, digits, _ or -, starting with a letter. Passwords: at least 8 characters.'),
        h('p#login-error.error', this.error),
      ]),
    ]);
  }
}

// CLASS_COLORS are the graph's line colours per time class.
const CLASS_COLORS: Record<string, string> = { bullet: '#d9534f', blitz: '#2a7ae2', rapid: '#3c9a3c', correspondence: '#a66bbe' };

/**
 * ratingGraph draws a variant's rating history as an inline SVG, a
 * polyline per time class, oldest game on the left.
 */
export function ratingGraph(variant: string, points: HistoryPoint[]): VNode {
  const W = 320, H = 120, PAD = 6;
  let lo = Math.min(...points.map((p) => p.rating)), hi = Math.max(...points.map((p) => p.rating));
  if (hi - lo < 100) { const mid = (hi + lo) / 2; lo = mid - 50; hi = mid + 50; }
  const classes = [...new Set(points.map((p) => p.class))];
  const lines = classes.map((c) => {
    const mine = points.filter((p) => p.class === c);
    const xy = mine.map((p, i) => {
      const x = mine.length === 1 ? W / 2 : PAD + i * (W - 2 * PAD) / (mine.length - 1);
      const y = PAD + (hi - p.rating) * (H - 2 * PAD) / (hi - lo);
      return `${x.toFixed(1)},${y.toFixed(1)}`;
    });
    const color = CLASS_COLORS[c] || '#888';
    const dots = xy.map((p) => { const [x, y] = p.split(','); return h('circle', { attrs: { cx: x, cy: y, r: 2.5, fill: color } }); });
    // A single game is a level line across the graph.
    const line = xy.length === 1 ? [xy[0].replace(/^[^,]+/, String(PAD)), xy[0].replace(/^[^,]+/, String(W - PAD))] : xy;
    return h('g', [h('polyline', { attrs: { points: line.join(' '), fill: 'none', stroke: color, 'stroke-width': 2 }, dataset: { class: c, n: String(mine.length) } }), ...dots]);
  });
  return h('figure.rating-graph', { dataset: { variant } }, [
    h('svg', { attrs: { viewBox: `0 0 ${W} ${H}`, role: 'img', 'aria-label': `${variantTitle(variant)} rating, ${Math.round(lo)} to ${Math.round(hi)}` } }, [
      h('line', { attrs: { x1: 0, y1: H - 1, x2: W, y2: H - 1, stroke: 'currentColor', 'stroke-opacity': 0.3 } }),
      ...lines,
    ]),
    h('figcaption', [variantTitle(variant), ' ', ...classes.map((c) => h('span.graph-key', { style: { color: CLASS_COLORS[c] || '#888' } }, ' ' + c)),
      h('span.dim', ` ${Math.round(lo)}–${Math.round(hi)}`)]),
  ]);
}

// opponentView names a game's opponent: an account linked to its profile,
// the engine at its level, or an anonymous player.
function opponentView(o: string | undefined): VNode | string {
  if (!o) return 'anonymous';
  if (o.startsWith('engine:')) return 'engine level ' + o.slice('engine:'.length);
  return playerLink(o);
}

/** ProfilePage is #/@/<name>: a player's ratings, their graphs and games. */
export class ProfilePage {
  private profile: Profile | null = null;
  private error = '';
  private games: GameEntry[] = [];
  private next: string | undefined;
  private loading = false;
  private variant = '';
  private result = '';
  private closed = false;
  private seq = 0;

  constructor(private readonly name: string) {
    api<Profile>('/api/users/' + encodeURIComponent(name)).then((p) => { this.profile = p; redraw(); })
      .catch((e) => { if (!this.closed) { this.error = errorText(e); redraw(); } });
    this.load(false);
  }

  /** close ends the page. */
  close(): void { this.closed = true; }

  // load reads a page of the games with the filters: the first, or with
  // more the one after those shown.
  private async load(more: boolean): Promise<void> {
    const seq = ++this.seq;
    const q = new URLSearchParams();
    if (this.variant) q.set('variant', this.variant);
    if (this.result) q.set('result', this.result);
    if (more && this.next) q.set('before', this.next);
    this.loading = true;
    redraw();
    try {
      const page = await api<GamePage>(`/api/users/${encodeURIComponent(this.name)}/games?${q}`);
      if (this.closed || seq !== this.seq) return;
      this.games = more ? [...this.games, ...page.games] : page.games;
      this.next = page.next;
    } catch (e) {
      if (this.closed || seq !== this.seq) return;
      this.error = errorText(e);
    }
    this.loading = false;
    redraw();
  }

  /** view is the page. */
  view(): VNode {
    const p = this.profile;
    if (this.error && !p) return h('div.profile', { key: 'profile' }, [h('h2', this.name), h('p#profile-error.error', this.error)]);
    const me = session();
    const ratings = p ? p.ratings : [];
    const opt = (val: string, label: string, selected: boolean) => h('option', { attrs: { value: val }, props: { selected } }, label);
    return h('div.profile', { key: 'profile-' + this.name }, [
      h('h2#profile-name', p ? [p.display, h('span.dim', ` · playing since ${new Date(p.created).toLocaleDateString()}`)] : this.name),
      me && p && me.user === p.user ? h('p.dim', 'This is you.') : '',
      h('h3', 'Ratings'),
      ratings.length ? h('div.table-scroll', h('table#ratings.ratings', [
        h('thead', h('tr', ['variant', 'class', 'rating', 'deviation', 'games'].map((x) => h('th', x)))),
        h('tbody', ratings.map((r) => h('tr.rating-row', { dataset: { variant: r.variant, class: r.class, rating: String(r.rating) } }, [
          h('td', h('a', { attrs: { href: '#/leaderboard/' + r.variant } }, variantTitle(r.variant))), h('td', r.class),
          h('td.rating', { attrs: { title: r.provisional ? 'provisional: too few games yet' : '' } }, ratingText(r.rating, r.provisional)),
          h('td', '±' + r.rd), h('td', String(r.games)),
        ]))),
      ])) : h('p#ratings.dim', p ? 'No rated games yet.' : 'Loading…'),
      h('div.graphs', p ? Object.entries(p.history || {}).filter(([, pts]) => pts.length).map(([v, pts]) => ratingGraph(v, pts)) : []),
      h('h3', 'Games'),
      h('div.game-filters', [
        h('label', ['variant ', h('select#games-variant', { on: { change: (ev: Event) => { this.variant = (ev.target as HTMLSelectElement).value; this.load(false); } } },
          [opt('', 'all', !this.variant), ...variants().map((v) => opt(v.name, v.title, v.name === this.variant))])]),
        h('label', ['result ', h('select#games-result', { on: { change: (ev: Event) => { this.result = (ev.target as HTMLSelectElement).value; this.load(false); } } },
          [['', 'all'], ['win', 'wins'], ['loss', 'losses'], ['draw', 'draws'], ['aborted', 'aborted']].map(([val, l]) => opt(val, l, val === this.result)))]),
      ]),
      h('ul#profile-games.games', { dataset: { loading: this.loading ? 'yes' : 'no' } }, this.games.length ? this.games.map((g) => h('li.profile-game', { key: g.game, dataset: { game: g.game, outcome: g.outcome || 'playing' } }, [
        h('span.dim', new Date(g.created).toLocaleDateString() + ' '),
        `${variantTitle(g.variant)} · ${g.class} · as ${g.seat} vs `, opponentView(g.opponent),
        ` · ${g.rated ? 'rated' : 'casual'} · `,
        h('b.outcome', g.outcome || 'playing'), g.result && g.result !== '*' ? ` ${g.result}` : '', ' · ',
        h('a.replay', { attrs: { href: g.replay } }, 'replay'), ' · ',
        h('a.analyse', { attrs: { href: g.analysis } }, 'analyse'),
      ])) : [h('li.dim', this.loading ? 'Loading…' : 'No games.')]),
      this.next ? h('button#games-more', { attrs: { type: 'button', disabled: this.loading }, on: { click: () => this.load(true) } }, 'More') : '',
      this.error ? h('p#profile-error.error', this.error) : '',
    ]);
  }
}

/** LeaderboardPage is #/leaderboard/<variant>: its best established ratings per time class. */
export class LeaderboardPage {
  private board: Leaderboard | null = null;
  private error = '';

  constructor(private readonly variant: string) {
    api<Leaderboard>('/api/leaderboard/' + encodeURIComponent(variant)).then((b) => { this.board = b; redraw(); })
      .catch((e) => { this.error = errorText(e); redraw(); });
  }

  /** view is the page. */
  view(): VNode {
    const b = this.board;
    const classes = b ? Object.entries(b.classes || {}).filter(([, l]) => l && l.length) : [];
    const row = (r: RatingInfo, i: number) => h('tr', [h('td', String(i + 1)), h('td', r.user ? playerLink(r.user) : ''), h('td', String(r.rating)), h('td', String(r.games))]);
    return h('div.leaderboard', { key: 'leaderboard-' + this.variant }, [
      h('h2', ['Leaderboard · ', variantTitle(this.variant)]),
      h('label', ['variant ', h('select#leaderboard-variant', { on: { change: (ev: Event) => { location.hash = '#/leaderboard/' + (ev.target as HTMLSelectElement).value; } } },
        variants().map((v) => h('option', { attrs: { value: v.name }, props: { selected: v.name === this.variant } }, v.title)))]),
      this.error ? h('p.error', this.error) : '',
      b && !classes.length ? h('p.dim', 'No established ratings yet (a rating is provisional for its first games).') : '',
      ...classes.map(([c, list]) => h('div.table-scroll', [h('h3', c), h('table.ratings', { dataset: { class: c } }, [
        h('thead', h('tr', ['#', 'player', 'rating', 'games'].map((x) => h('th', x)))),
        h('tbody', list.map(row)),
      ])])),
    ]);
  }
}
