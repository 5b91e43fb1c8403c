// The game's clocks: one above the board and one below, each naming its
// side and, in a game with a clock, the time it has left.
import { h, type VNode } from 'snabbdom';
import type { Clock } from '../types';

/**
 * fmtClock writes a time left: "4:59", "0:09.3" under ten seconds,
 * "1:02:03" from an hour, "2d 3h" from a day (correspondence).
 */
export function fmtClock(ms: number | undefined | null): string {
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

/**
 * ClockBase is a state's clock and when the page received it, from which
 * the running clock counts down.
 */
export interface ClockBase {
  at: number;
  clock: Clock;
}

/** timeLeft returns each side's time left now (a stopped game's clocks stand). */
export function timeLeft(base: ClockBase, over: boolean, now: number): Record<'white' | 'black', number> {
  const c = base.clock;
  const elapsed = over ? 0 : now - base.at;
  return { white: c.white_ms - (c.running === 'white' ? elapsed : 0), black: c.black_ms - (c.running === 'black' ? elapsed : 0) };
}

/**
 * clockView is the clock at pos ("top" or "bottom") for side col; left
 * is null until the page has the game's clocks, which then hold a line
 * from the start, so the board does not move down when they are first
 * filled (chessgroundx keeps the board's place on the page until a resize
 * or a scroll, and would take clicks for the squares below them).
 */
export function clockView(pos: 'top' | 'bottom', col: string, left: number | null, enabled: boolean, running: boolean): VNode {
  const text = left === null ? '\u00a0' : `${col}${enabled ? ' · ' + fmtClock(left) : ''}`;
  return h(`div#clock-${pos}.clock`, { class: { running, low: left !== null && enabled && left < 10000 } }, text);
}
