// The lobby's seeks: the live list fed by GET /api/lobby (server-sent
// events), a seek posted with the variant's options, time control,
// rated or casual, colour and rating range, one-click accepting, and the
// quick-pairing buttons. When a seek becomes a game, both pages go to it:
// the accepter from its answer, the poster from the feed's paired event.
import { h, type VNode } from 'snabbdom';
import type { Paired, QuickControl, Seek, Variant } from './types';
import { api, errorText, postJSON, redraw, saveSeat, session, variantByName, variants } from './util';

/** SEEK_CONTROLS are the time controls a seek may be posted with: [value, label]. */
export const SEEK_CONTROLS: [string, string][] = [
  ['60000+0', '1+0'], ['180000+0', '3+0'], ['180000+2000', '3+2'], ['300000+0', '5+0'], ['300000+3000', '5+3'],
  ['600000+0', '10+0'], ['600000+5000', '10+5'], ['900000+10000', '15+10'], ['1800000+0', '30+0'],
  ['d1', '1 day per move'], ['d3', '3 days per move'], ['d7', '7 days per move'],
];

/** controlLabel writes a time control: "3+2", "1 day per move", "no clock". */
export function controlLabel(initialMS: number, incrementMS: number, days?: number): string {
  if (days) return days === 1 ? '1 day per move' : `${days} days per move`;
  if (!initialMS && !incrementMS) return 'no clock';
  return `${+(initialMS / 60000).toFixed(2)}+${+(incrementMS / 1000).toFixed(1)}`;
}

/** ratingText writes a rating, with "?" when it is provisional. */
export function ratingText(rating: number | undefined, provisional: boolean | undefined): string {
  return rating ? `${rating}${provisional ? '?' : ''}` : '';
}

/** playerLink is a link to a player's profile. */
export function playerLink(user: string, sel = 'a.player-name'): VNode {
  return h(sel, { attrs: { href: '#/@/' + encodeURIComponent(user) }, dataset: { user } }, user);
}

// field reads a form field of the page by its id.
function field(id: string): string {
  const el = document.getElementById(id) as HTMLInputElement | HTMLSelectElement | null;
  return el ? el.value : '';
}

/** Seeks is the lobby's seeks: its feed, the list, the form and the quick buttons. */
export class Seeks {
  private src: EventSource | null = null;
  private visitor = '';
  private seeks: Seek[] = [];
  private ready = false;
  private readonly mine = new Set<string>();
  private quick: Record<string, QuickControl[]> = {};
  private variant: Variant;
  private rated = false;
  private error = '';
  private note = '';
  private closed = false;
  private retry = 0;

  constructor() {
    this.variant = variantByName('chess') || variants()[0];
    this.rated = !!session();
    this.open();
    api<Record<string, QuickControl[]>>('/api/seeks/quick').then((q) => { this.quick = q; redraw(); }).catch(() => {});
  }

  /** close ends the feed (the server withdraws this visitor's seeks after a grace). */
  close(): void {
    this.closed = true;
    clearTimeout(this.retry);
    if (this.src) this.src.close();
  }

  // open opens the lobby's feed; after a lost connection it opens it
  // again as the same visitor, whose seeks the server keeps for a grace.
  private open(): void {
    const src = new EventSource('/api/lobby' + (this.visitor ? '?visitor=' + encodeURIComponent(this.visitor) : ''));
    this.src = src;
    const on = (name: string, fn: (data: unknown) => void) => src.addEventListener(name, (ev) => {
      if (this.closed) return;
      try { fn(JSON.parse((ev as MessageEvent).data)); } catch { return; }
      redraw();
    });
    on('hello', (d) => { this.visitor = (d as { visitor: string }).visitor; });
    on('seeks', (d) => { this.seeks = (d as Seek[]) || []; this.ready = true; });
    on('seek', (d) => { const s = d as Seek; this.seeks = [...this.seeks.filter((x) => x.id !== s.id), s]; });
    on('unseek', (d) => { const id = (d as { id: string }).id; this.seeks = this.seeks.filter((x) => x.id !== id); this.mine.delete(id); });
    on('paired', (d) => this.go(d as Paired));
    src.onerror = () => {
      if (this.closed || src.readyState !== EventSource.CLOSED) return;
      this.retry = window.setTimeout(() => { if (!this.closed) this.open(); }, 1000);
    };
  }

  // go takes this browser's seat in a game a seek became and opens it.
  private go(p: Paired): void {
    saveSeat(p.game, p.seat, p.token);
    location.hash = '#/game/' + p.game;
  }

  // own reports whether a seek is this visitor's or its account's.
  private own(s: Seek): boolean {
    const me = session();
    return this.mine.has(s.id) || (!!me && !!s.user && s.user.toLowerCase() === me.user);
  }

  private fail(e: unknown): void { this.error = errorText(e); redraw(); }

  private async post(ev: Event): Promise<void> {
    ev.preventDefault();
    this.error = '';
    const v = this.variant;
    const options: Record<string, string> = {};
    for (const inp of document.querySelectorAll<HTMLInputElement>('#seek-form input[data-option]')) {
      const name = inp.dataset.option || '';
      const def = (v.options || []).find((o) => o.name === name);
      if (!def || def.value !== inp.value) options[name] = inp.value;
    }
    const body: Record<string, unknown> = { visitor: this.visitor, variant: v.name, options, color: field('seek-color'), rated: !!session() && this.rated };
    const tc = field('seek-tc');
    if (tc.startsWith('d')) body.days = parseInt(tc.slice(1), 10);
    else { const [i, inc] = tc.split('+').map(Number); body.clock = { initial_ms: i, increment_ms: inc }; }
    if (body.rated) {
      body.rating_min = parseInt(field('seek-min'), 10) || 0;
      body.rating_max = parseInt(field('seek-max'), 10) || 0;
    }
    try {
      const s = await postJSON<Seek>('/api/seeks', body);
      this.mine.add(s.id);
      if (!this.seeks.some((x) => x.id === s.id)) this.seeks = [...this.seeks, s];
      redraw();
    } catch (e) { this.fail(e); }
  }

  private async accept(s: Seek): Promise<void> {
    this.error = '';
    try { this.go(await postJSON<Paired>(`/api/seeks/${encodeURIComponent(s.id)}/accept`, { visitor: this.visitor })); } catch (e) { this.fail(e); }
  }

  private async cancel(s: Seek): Promise<void> {
    try { await api<unknown>(`/api/seeks/${encodeURIComponent(s.id)}/cancel`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ visitor: this.visitor }) }); } catch (e) { this.fail(e); return; }
    this.seeks = this.seeks.filter((x) => x.id !== s.id);
    this.mine.delete(s.id);
    redraw();
  }

  private async quickPair(c: QuickControl): Promise<void> {
    this.error = '';
    const body: Record<string, unknown> = { visitor: this.visitor, variant: this.variant.name, rated: !!session() && this.rated };
    if (c.days) body.days = c.days; else body.clock = { initial_ms: c.initial_ms, increment_ms: c.increment_ms };
    try {
      const a = await postJSON<{ paired?: Paired; seek?: Seek }>('/api/seeks/quick', body);
      if (a.paired) { this.go(a.paired); return; }
      if (a.seek) {
        this.mine.add(a.seek.id);
        if (!this.seeks.some((x) => x.id === a.seek!.id)) this.seeks = [...this.seeks, a.seek];
        this.note = `Waiting for an opponent: ${this.variant.title} ${c.label}`;
      }
      redraw();
    } catch (e) { this.fail(e); }
  }

  /** view is the seeks' section of the lobby. */
  view(): VNode {
    const v = this.variant;
    const me = session();
    const opt = (val: string, label: string, selected = false) => h('option', { attrs: { value: val }, props: { selected } }, label);
    const rows = this.seeks.map((s) => {
      const own = this.own(s);
      const opts = Object.entries(s.options || {}).map(([k, x]) => `${k}=${x}`).join(' ');
      return h('tr.seek', { key: s.id, dataset: { id: s.id, user: s.user || '', own: own ? 'yes' : 'no' } }, [
        h('td.seek-player', s.user ? [playerLink(s.user), ' ', h('span.rating', ratingText(s.rating, s.provisional))] : [h('span.dim', 'anonymous')]),
        h('td.seek-variant', [s.title, opts ? h('span.dim', ' ' + opts) : '']),
        h('td.seek-tc', controlLabel(s.initial_ms, s.increment_ms, s.days)),
        h('td.seek-rated', s.rated ? 'rated' + (s.rating_min || s.rating_max ? ` ${s.rating_min || ''}–${s.rating_max || ''}` : '') : 'casual'),
        h('td.seek-color', s.color),
        h('td', own
          ? h('button.cancel', { attrs: { 'aria-label': 'cancel this seek' }, on: { click: () => this.cancel(s) } }, 'Cancel')
          : h('button.accept', { attrs: { 'aria-label': `accept ${s.user || 'an anonymous'} seek` }, on: { click: () => this.accept(s) } }, 'Accept')),
      ]);
    });
    const quick = this.quick[v.name] || [];
    return h('section.seeks', [
      h('h2', 'Seeks'),
      h('div.seeks-scroll', h('table#seeks', { dataset: { ready: this.ready ? 'yes' : 'no' } }, [
        h('tbody', rows.length ? rows : [h('tr', h('td.dim', { attrs: { colspan: 6 } }, 'No one is seeking a game right now.'))]),
      ])),
      h('form#seek-form.seek-form', { on: { submit: (ev: Event) => this.post(ev) } }, [
        h('label', ['variant ', h('select#seek-variant', { on: { change: (ev: Event) => {
          const found = variantByName((ev.target as HTMLSelectElement).value);
          if (found) { this.variant = found; redraw(); }
        } } }, variants().map((x) => opt(x.name, x.title, x === v)))]),
        h('div.options', { key: 'seek-options-' + v.name }, (v.options || []).map((o) => h('label', [o.name + ' ', h('input', { attrs: { size: 6 }, props: { value: o.value }, dataset: { option: o.name } })]))),
        h('label', ['clock ', h('select#seek-tc', SEEK_CONTROLS.map(([val, l]) => opt(val, l, val === '180000+2000')))]),
        h('label', ['play as ', h('select#seek-color', ['random', 'white', 'black'].map((c) => opt(c, c)))]),
        me ? h('label', [h('input#seek-rated', { attrs: { type: 'checkbox' }, props: { checked: this.rated }, on: { change: (ev: Event) => { this.rated = (ev.target as HTMLInputElement).checked; redraw(); } } }), ' rated']) : h('span.dim', 'casual (sign in to play rated)'),
        me && this.rated ? h('label', ['rating ', h('input#seek-min', { attrs: { type: 'number', min: 0, max: 4000, step: 50, placeholder: 'min', 'aria-label': 'lowest rating' } }), ' – ',
          h('input#seek-max', { attrs: { type: 'number', min: 0, max: 4000, step: 50, placeholder: 'max', 'aria-label': 'highest rating' } })]) : '',
        h('button#seek-post', { attrs: { type: 'submit' } }, 'Post seek'),
      ]),
      h('div#quick.quick', quick.map((c) => h('button.quick-pair', { dataset: { label: c.label }, attrs: { type: 'button', title: `${v.title} ${c.label} (${c.class})` }, on: { click: () => this.quickPair(c) } }, c.label))),
      h('p#seek-note.dim', this.note),
      h('p#seek-error.error', this.error),
    ]);
  }
}
