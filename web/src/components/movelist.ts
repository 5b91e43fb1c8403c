// The game's move list: the plies in numbered rows, White's left and
// Black's right (style.css), each with what it did and, for a move decided
// by chance, its outcome and odds.
import { h, type VNode } from 'snabbdom';
import type { PlyEvent } from '../types';

/** MoveRow is one ply of the list as it is shown. */
export interface MoveRow {
  ply: number;
  seat: string;
  /** no is the move's number ("12. ", "12… "), empty for a ply that continues its turn. */
  no: string;
  text: string;
  cont: boolean;
  outcome: { title: string; text: string } | null;
  words: string[];
}

/**
 * MoveList numbers the plies as they come: the move number is the
 * position's (the FEN's sixth field) where the page knows it, so a move
 * that replaces an undone one keeps its number; a further decision of the
 * same turn (a design change, a capture tried again) continues the
 * turn's line unnumbered.
 */
export class MoveList {
  rows: MoveRow[] = [];
  private turnsDone = 0;

  /** add adds ply e; prev is the ply before it, startFEN the game's start. */
  add(e: PlyEvent, prev: PlyEvent | null, startFEN: string | undefined): void {
    const before = prev ? prev.fen : startFEN;
    const fenNo = before ? parseInt(before.split(' ')[5], 10) : NaN;
    const no = Number.isFinite(fenNo) && fenNo > 0 ? fenNo : Math.floor(this.turnsDone / 2) + 1;
    const cont = !!prev && prev.seat === e.seat && !prev.turn_over;
    if (e.turn_over) this.turnsDone++;
    const oc = e.outcomes && e.outcomes.length > 1 ? e.outcomes : null;
    const chosen = oc ? oc[e.outcome || 0] : null;
    this.rows.push({
      ply: e.ply,
      seat: e.seat,
      no: cont ? '' : e.seat === 'white' ? `${no}. ` : `${no}… `,
      text: e.san || e.move || '…',
      cont,
      outcome: oc && chosen ? {
        title: oc.map((o) => `${o.label || 'outcome'} ${o.p}`).join(', '),
        text: `${e.mark || ''} ${(chosen.label || '')} ${chosen.p}` + (e.roll ? ` (rolled ${e.roll} of ${oc[0].p.split('/')[1]})` : ''),
      } : null,
      // What the ply did, in the variant's words and in order (a chain of
      // captures; a move undone; a purchase or a design of the variant's
      // own kind). Plies stored before events existed name the pieces
      // removed.
      words: e.events || e.removed || [],
    });
  }

  /**
   * view is the list with the ply current marked (its number, 1-based;
   * null for the last), each ply showing its position when clicked.
   */
  view(current: number | null, onShow: (ply: number) => void): VNode {
    const last = this.rows.length ? this.rows[this.rows.length - 1].ply : -1;
    const cur = current === null ? last : current;
    return h('ol#moves.moves', this.rows.map((r) => h('li.ply', {
      key: r.ply,
      class: { cont: r.cont, current: r.ply === cur },
      attrs: r.words.length ? { title: `${r.text}: ${r.words.join(' → ')}` } : {},
      dataset: { ply: String(r.ply), seat: r.seat },
      on: { click: () => onShow(r.ply) },
    }, [
      r.no ? h('span.no', r.no) : '',
      r.text,
      r.outcome ? h('span.outcome', { attrs: { title: r.outcome.title } }, r.outcome.text) : null,
      r.words.length ? h('div.chain.words', r.words.map((w, i) => h('span.step', (i ? ' → ' : '') + w))) : null,
    ].filter((x) => x !== null && x !== '') as (VNode | string)[])));
  }
}
