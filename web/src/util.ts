// Helpers every page shares: the server's HTTP API, the variants it
// plays, the seats this browser holds, the redraw of the page, text.
import type { Me, Seat, SeatClaim, Variant } from './types';

let me: Me | null = null;

/** session is the account this browser is signed in as, or null. */
export function session(): Me | null { return me; }

/** setSession keeps the account signed in as (null: signed out). */
export function setSession(m: Me | null): void { me = m && m.user ? m : null; }

/** loadSession asks the server who this browser is signed in as (GET /api/me). */
export async function loadSession(): Promise<void> {
  try { setSession(await api<Me>('/api/me')); } catch { setSession(null); }
}

/**
 * api fetches a JSON answer of the server; an error answer throws its
 * message. A request that changes state (anything but GET and HEAD) carries
 * the session's CSRF token while signed in, as the server asks.
 */
export async function api<T>(path: string, opts?: RequestInit): Promise<T> {
  const method = ((opts && opts.method) || 'GET').toUpperCase();
  if (me && method !== 'GET' && method !== 'HEAD') {
    const headers = new Headers((opts && opts.headers) || {});
    headers.set('X-CSRF-Token', me.csrf);
    opts = { ...opts, headers };
  }
  const resp = await fetch(path, opts);
  const body = await resp.json().catch(() => ({}));
  if (!resp.ok) throw new Error((body && body.error && body.error.message) || resp.statusText);
  return body as T;
}

/** postJSON posts a JSON body with api. */
export function postJSON<T>(path: string, body: unknown): Promise<T> {
  return api<T>(path, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
}

/** errorText is the message of a thrown value. */
export function errorText(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

let variantList: Variant[] = [];

/** setVariants keeps the server's variants (GET /api/variants). */
export function setVariants(vs: Variant[]): void { variantList = vs; }

/** variants returns the server's variants. */
export function variants(): Variant[] { return variantList; }

/** variantByName finds a variant by its name or an alias. */
export function variantByName(name: string): Variant | undefined {
  return variantList.find((v) => v.name === name || (v.aliases || []).includes(name));
}

let redrawFn: () => void = () => {};

/** setRedraw sets what redraw does (main.ts: patch the page). */
export function setRedraw(fn: () => void): void { redrawFn = fn; }

/** redraw renders the page again from its state. */
export function redraw(): void { redrawFn(); }

/** oneLine joins the lines of a text with spaces. */
export function oneLine(s: string | undefined): string { return (s || '').replace(/\s*\n\s*/g, ' '); }

/** plural writes a count with its noun: "1 ply", "3 plies", "2 pieces". */
export function plural(n: number, one: string, many = one + 's'): string { return `${n} ${n === 1 ? one : many}`; }

/**
 * inviteURL makes an invite path the server returns ("/#/game/…") a link
 * on this page's address, with one slash between them.
 */
export function inviteURL(path: string): string { return location.origin + location.pathname.replace(/\/+$/, '') + path; }

/** SeatInfo is a seat this browser holds in a game, with its token. */
export interface SeatInfo {
  seat: Seat;
  token: string;
}

function tokenKey(id: string): string { return 'anychess.seat.' + id; }

/** saveSeat stores the seat this browser holds in game id. */
export function saveSeat(id: string, seat: Seat, token: string): void { localStorage.setItem(tokenKey(id), JSON.stringify({ seat, token })); }

/** loadSeat returns the seat this browser holds in game id, or null. */
export function loadSeat(id: string): SeatInfo | null {
  try { return JSON.parse(localStorage.getItem(tokenKey(id)) || 'null'); } catch { return null; }
}

/** heldSeats lists every seat this browser holds, with its token (for claiming at sign-up). */
export function heldSeats(): SeatClaim[] {
  const out: SeatClaim[] = [];
  for (let i = 0; i < localStorage.length; i++) {
    const k = localStorage.key(i) || '';
    if (!k.startsWith('anychess.seat.')) continue;
    const s = loadSeat(k.slice('anychess.seat.'.length));
    if (s && (s.seat === 'white' || s.seat === 'black') && s.token) out.push({ game: k.slice('anychess.seat.'.length), seat: s.seat, token: s.token });
  }
  return out;
}

/** forgetSeat forgets the seat of game id (the server refused its token). */
export function forgetSeat(id: string): void { localStorage.removeItem(tokenKey(id)); }

/**
 * PendingInvite is an invite link's seat token on its way to the game page
 * the link opens. The page tries it and stores it only when the server
 * accepts it, so a bogus link never replaces a seat the browser already
 * holds.
 */
export interface PendingInvite {
  id: string;
  token: string;
}

let pendingInvite: PendingInvite | null = null;

/** setInvite keeps an invite link's token for the game page it opens. */
export function setInvite(inv: PendingInvite | null): void { pendingInvite = inv; }

/** takeInvite returns the pending invite's token if it is for game id, and forgets it. */
export function takeInvite(id: string): string | null {
  const t = pendingInvite && pendingInvite.id === id ? pendingInvite.token : null;
  pendingInvite = null;
  return t;
}

/** rematchToken derives a seat's token in the rematch, as the server does. */
export async function rematchToken(token: string): Promise<string> {
  const data = new TextEncoder().encode('rematch:' + token);
  const digest = await crypto.subtle.digest('SHA-256', data);
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('');
}

/** copyText puts text on the clipboard (text may be a promise of it). */
export async function copyText(text: string | Promise<string>): Promise<void> {
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
  const area = document.createElement('textarea');
  area.style.cssText = 'position:fixed;left:-9999px';
  area.value = t;
  document.body.append(area);
  area.select();
  const ok = document.execCommand('copy');
  area.remove();
  if (!ok) throw new Error('the browser refused to copy');
}

/** isTyping reports whether a key event is meant for a form field or is a shortcut. */
export function isTyping(ev: KeyboardEvent): boolean {
  const target = ev.target as HTMLElement | null;
  return /^(INPUT|SELECT|TEXTAREA)$/.test((target && target.tagName) || '') || ev.altKey || ev.ctrlKey || ev.metaKey;
}

/** parity says whether a board's size is odd or even (style.css places the coordinates by it). */
export function parity(n: number): string { return n % 2 ? 'odd' : 'even'; }
