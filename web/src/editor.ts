// The variant editor (#/editor, #/editor/<variant>): a variant file
// written or changed in a text area with line numbers, checked by the
// server as it is typed (POST /api/variants/check): its faults beside
// their lines, a board of its start, every piece with the diagram of
// where it goes, its value, and a perft. Saved under its name (POST
// /api/variants), it is played at once against a friend or the engine.
// The page knows no rules: everything it shows is the server's answer.
import { h, type VNode } from 'snabbdom';
import { Board, boardLabel, cgBoard } from './components/board';
import { installPieceCSS, pieceURL } from './lib/pieces';
import { diagramSVG } from './rules';
import type { CheckedPiece, Created, Variant, VariantCheck } from './types';
import { api, errorText, inviteURL, redraw, saveSeat, setVariants, variants } from './util';

// How long the page waits after a keystroke before it asks for a check.
const CHECK_MS = 350;
// The highest engine level a game of a saved variant may ask for.
const MAX_LEVEL = 6;
// The variant a new file starts from when the route names none.
const DEFAULT_BASE = 'chess';
// A line's height in the code area, in px (style.css: .code).
const LINE_PX = 18;
const SQ = 10; // a square's side in a diagram's units (rules.ts)

/** SaveError is the error of a refused save: its message and the faults it lists. */
interface SaveError {
  code: string;
  message: string;
  errors?: { line: number; col: number; message: string }[];
}

/** fetchFile returns a variant's file text (GET /api/variants/{name}/file). */
export async function fetchFile(name: string): Promise<string> {
  const resp = await fetch(`/api/variants/${encodeURIComponent(name)}/file`);
  if (!resp.ok) {
    const body = await resp.json().catch(() => ({}));
    throw new Error((body && body.error && body.error.message) || resp.statusText);
  }
  return resp.text();
}

/** lineCount is the number of a text's lines. */
export function lineCount(text: string): number { return text.split('\n').length; }

let previewCount = 0;

/** EditorPage is the variant editor. */
export class EditorPage {
  private text = '';
  private from: string;
  private loading = true;
  private loadError = '';
  private check: VariantCheck | null = null;
  private good: VariantCheck | null = null; // the last good file's check, which the preview shows
  private checkError = '';
  private checking = false;
  private seq = 0;
  private timer = 0;
  private saving = false;
  private saveMsg = { text: '', error: false };
  private savedText: string | null = null;
  private savedName = '';
  private invite = '';
  private level = 1;
  private board = new Board();
  private previewKey = '';
  private piecesKey = '';
  private scrollTop = 0;
  private closed = false;

  constructor(from: string) {
    this.from = from || DEFAULT_BASE;
    this.load(this.from);
  }

  /** close ends the page. */
  close(): void {
    this.closed = true;
    clearTimeout(this.timer);
    this.board.destroy();
  }

  private async load(name: string): Promise<void> {
    try {
      this.text = await fetchFile(name);
    } catch (e) {
      this.loadError = `${name} has no file to start from (${errorText(e)}): start from another variant.`;
      this.text = '';
    }
    if (this.closed) return;
    this.loading = false;
    redraw();
    this.runCheck();
  }

  private edited(text: string): void {
    this.text = text;
    this.saveMsg = { text: '', error: false };
    this.checking = true; // a check is due
    this.seq++; // an answer for the text before the edit is stale
    clearTimeout(this.timer);
    this.timer = window.setTimeout(() => this.runCheck(), CHECK_MS);
    redraw();
  }

  private async runCheck(): Promise<void> {
    const seq = ++this.seq;
    this.checking = true;
    redraw();
    try {
      const c = await api<VariantCheck>('/api/variants/check', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ text: this.text }) });
      if (this.closed || seq !== this.seq) return;
      this.check = c;
      this.checkError = '';
      if (c.board && c.start) this.good = c;
      this.showStart();
    } catch (e) {
      if (this.closed || seq !== this.seq) return;
      this.checkError = errorText(e);
    }
    this.checking = false;
    redraw();
  }

  // showStart puts the checked variant's start on the preview board.
  private showStart(): void {
    const c = this.good;
    if (!c || !c.board || !c.start) return;
    const pieces = c.pieces || [];
    const pk = JSON.stringify(pieces.map((p) => [p.letter, p.name, p.betza]));
    if (pk !== this.piecesKey) {
      this.piecesKey = pk;
      this.previewKey = 'editor' + (++previewCount);
      installPieceCSS(this.previewKey, pieces);
    }
    const fen = cgBoard(c.start.split(' ')[0], c.board.files, c.board.ranks);
    const dims = { width: c.board.files, height: c.board.ranks };
    if (this.board.cg && (this.board.cg.state.dimensions.width !== dims.width || this.board.cg.state.dimensions.height !== dims.height)) this.board.destroy();
    if (this.board.cg) this.board.cg.set({ fen });
    else this.board.start({ dimensions: dims, fen, viewOnly: true, coordinates: true, drawable: { enabled: false } });
  }

  private async save(): Promise<void> {
    this.saving = true;
    this.saveMsg = { text: 'saving…', error: false };
    redraw();
    const text = this.text;
    try {
      const resp = await fetch('/api/variants', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ text }) });
      const body = await resp.json().catch(() => ({}));
      if (!resp.ok) {
        const e: SaveError = (body && body.error) || { code: String(resp.status), message: resp.statusText };
        const where = e.errors && e.errors[0] && e.errors[0].line ? ` (line ${e.errors[0].line})` : '';
        throw new Error(`${e.message}${where}`);
      }
      this.savedText = text;
      this.savedName = body.name;
      this.saveMsg = { text: `Saved as ${body.name}${body.replaced ? ', replacing the saved variant of that name for new games' : ''}.`, error: false };
      const vs = await api<Variant[]>('/api/variants');
      setVariants(vs);
      for (const v of vs) installPieceCSS(v.name, v.pieces);
    } catch (e) {
      this.saveMsg = { text: 'Not saved: ' + errorText(e), error: true };
    }
    this.saving = false;
    redraw();
  }

  private async play(opponent: 'human' | 'engine'): Promise<void> {
    const body: Record<string, unknown> = { variant: this.savedName, color: 'white', opponent };
    if (opponent === 'engine') body.level = this.level;
    try {
      const g = await api<Created>('/api/games', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
      saveSeat(g.id, g.seat, g.token);
      if (g.invite) {
        const link = inviteURL(g.invite);
        localStorage.setItem('anychess.invite.' + g.id, link);
        this.invite = link;
      }
      location.hash = '#/game/' + g.id;
    } catch (e) {
      this.saveMsg = { text: 'No game: ' + errorText(e), error: true };
      redraw();
    }
  }

  // jumpTo selects a line of the text area.
  private jumpTo(line: number): void {
    const area = document.getElementById('editor-text') as HTMLTextAreaElement | null;
    if (!area || line < 1) return;
    const lines = this.text.split('\n');
    let start = 0;
    for (let i = 0; i < line - 1 && i < lines.length; i++) start += lines[i].length + 1;
    area.focus();
    area.setSelectionRange(start, start + (lines[line - 1] || '').length);
    area.scrollTop = Math.max(0, (line - 3) * LINE_PX);
  }

  /** view is the page. */
  view(): VNode {
    const c = this.check;
    const errs = c ? c.errors : [];
    const errLines = new Set(errs.filter((e) => e.line > 0).map((e) => e.line));
    const n = lineCount(this.text);
    const saved = this.savedText !== null && this.savedText === this.text;
    const canSave = !!c && c.ok && !c.taken && !this.saving && !this.checking;
    const status = this.loading ? 'loading the file…' : this.checking ? 'checking…' : this.checkError ? 'not checked: ' + this.checkError
      : c ? (c.ok ? `good: ${c.title || c.name} (${c.name})` + (c.taken ? ' — the name is a built-in variant\'s: choose another name to save it' : c.saved ? ' — saving replaces the saved variant of that name' : '') : `${errs.length} fault${errs.length === 1 ? '' : 's'}`) : '';
    const others = variants();
    return h('div#editor.editor-page', { key: 'editor' }, [
      h('p.crumbs', [h('a', { attrs: { href: '#/' } }, 'lobby'), ' · variant editor · start from ',
        h('select#editor-from', { attrs: { 'aria-label': 'start from a variant' }, on: { change: (ev: Event) => { location.hash = '#/editor/' + encodeURIComponent((ev.target as HTMLSelectElement).value); } } },
          others.map((v) => h('option', { attrs: { value: v.name }, props: { selected: v.name === this.from } }, v.title)))]),
      h('h2', 'Variant editor'),
      this.loadError ? h('p.error', this.loadError) : '',
      h('div.editor-cols', [
        h('div.editor-code', [
          h('div.code', [
            h('div.code-gutter', { attrs: { 'aria-hidden': 'true' }, style: { transform: `translateY(${-this.scrollTop}px)` } },
              Array.from({ length: n }, (_, i) => h('div.ln', { class: { err: errLines.has(i + 1) }, dataset: { line: String(i + 1) } }, String(i + 1)))),
            h('div.code-marks', { attrs: { 'aria-hidden': 'true' }, style: { transform: `translateY(${-this.scrollTop}px)` } },
              [...errLines].map((l) => h('div.code-mark', { dataset: { line: String(l) }, style: { top: `${(l - 1) * LINE_PX + 6}px` } }))),
            h('textarea#editor-text', {
              attrs: { spellcheck: 'false', wrap: 'off', 'aria-label': 'the variant file', autocapitalize: 'off', autocomplete: 'off' },
              props: { value: this.text },
              on: {
                input: (ev: Event) => this.edited((ev.target as HTMLTextAreaElement).value),
                scroll: (ev: Event) => { this.scrollTop = (ev.target as HTMLTextAreaElement).scrollTop; redraw(); },
              },
            }),
          ]),
          h('p#editor-status', { class: { error: !!c && !c.ok, dim: !c || c.ok }, attrs: { 'aria-live': 'polite' }, dataset: { ok: c && !this.checking ? String(c.ok) : '' } }, status),
          h('ul#editor-errors.editor-errors', errs.map((e) => h('li', { dataset: { line: String(e.line) } }, [
            e.line > 0 ? h('a', { attrs: { href: 'javascript:void 0' }, on: { click: () => this.jumpTo(e.line) } }, `line ${e.line}${e.col ? ', col ' + e.col : ''}`) : 'the variant',
            ': ', e.message]))),
          h('div.editor-actions', [
            h('button#editor-save', { attrs: { type: 'button', disabled: !canSave }, on: { click: () => this.save() } }, 'Save'),
            h('span#editor-save-msg', { class: { error: this.saveMsg.error } }, ' ' + this.saveMsg.text),
          ]),
          h('div#editor-play.editor-actions', { style: { display: saved ? '' : 'none' } }, [
            h('button#editor-friend', { attrs: { type: 'button' }, on: { click: () => this.play('human') } }, 'Play a friend'), ' ',
            h('button#editor-engine', { attrs: { type: 'button' }, on: { click: () => this.play('engine') } }, 'Play the engine'), ' ',
            h('select#editor-level', { attrs: { 'aria-label': 'engine level' }, on: { change: (ev: Event) => { this.level = Number((ev.target as HTMLSelectElement).value); } } },
              Array.from({ length: MAX_LEVEL }, (_, i) => h('option', { attrs: { value: String(i + 1) }, props: { selected: i + 1 === this.level } }, 'level ' + (i + 1)))),
            ' ', this.savedName ? h('a#editor-rules', { attrs: { href: '#/rules/' + encodeURIComponent(this.savedName) } }, 'its rules page') : '',
            ' · ', this.savedName ? h('a#editor-setup', { attrs: { href: '#/setup/' + encodeURIComponent(this.savedName) } }, 'set up a position') : '',
            this.invite ? h('input#editor-invite', { attrs: { readonly: true, 'aria-label': 'invite link' }, props: { value: this.invite } }) : '',
          ]),
        ]),
        h('div.editor-preview', this.previewView()),
      ]),
    ]);
  }

  // previewView is the checked variant: its start, pieces and perft.
  private previewView(): (VNode | string)[] {
    const c = this.good;
    if (!c || !c.board || !c.start) return [h('p.dim', this.checking ? 'checking…' : 'The start and the pieces show here once the file is good.')];
    const files = c.board.files, ranks = c.board.ranks;
    const stale = c !== this.check;
    return [
      h('h3', [c.title || c.name, h('span.dim', ` ${c.name} · ${files}×${ranks}`)]),
      stale ? h('p#editor-stale.dim', 'The last good version of the file, until this one is fixed.') : '',
      h('div.editor-board', [this.board.view({ variant: this.previewKey, files, ranks }, boardLabel(c.start, files, c.pieces, 'white'))]),
      h('p', ['start ', h('code#editor-start.fen', c.start)]),
      h('p#editor-perft', { dataset: { perft: (c.perft || []).join(',') } }, ['perft from the start: ',
        ...(c.perft || []).flatMap((v, i) => [i ? ', ' : '', `depth ${i + 1}: `, h('strong', String(v))])]),
      h('div#editor-pieces.piece-diagrams', (c.pieces || []).map((p) => pieceCard(p, files, ranks))),
    ];
  }
}

// pieceCard is a piece of the checked variant: its diagram, Betza and value.
function pieceCard(p: CheckedPiece, files: number, ranks: number): VNode {
  const img = pieceURL(p.letter, p.name, p.betza, 'white');
  return h('figure.piece-card', { key: p.letter, dataset: { piece: p.letter } }, [
    h('svg.piece-diagram', {
      attrs: { viewBox: `0 0 ${files * SQ} ${ranks * SQ}`, role: 'img', 'aria-label': `${p.name} on ${p.from}: ${p.moves.length} moves, ${p.captures.length} captures` },
      dataset: { piece: p.letter, moves: String(p.moves.length), captures: String(p.captures.length) },
      props: { innerHTML: diagramSVG(p, files, ranks, img) },
    }),
    h('figcaption', [
      h('img', { attrs: { src: img, alt: '', width: 28, height: 28 } }),
      h('strong', p.name), ` (${p.letter})`, p.royal ? h('span.dim', ' royal') : '',
      h('br'), 'Betza ', h('code.betza', p.betza),
      h('br'), p.royal ? h('span.piece-value', 'royal: no value') : h('span.piece-value', { dataset: { value: String(p.value) } }, `value ${(p.value / 100).toFixed(2)}`),
      h('span.dim', ` · ${p.moves.length} moves, ${p.captures.length} captures from ${p.from}`),
    ]),
  ]);
}
