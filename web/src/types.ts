// The server's data as the page reads it: the HTTP answers and the
// WebSocket frames of docs/protocol.md. Only what the page uses is typed;
// the server may send more.
import type { Dice, Outcome } from './lib/dice';

/** Color is a side of the board. */
export type Color = 'white' | 'black';

/** Seat is who a connection plays: a side, or a spectator. */
export type Seat = Color | 'spectator';

/** PieceType is one piece of a variant: letter, name and Betza string. */
export interface PieceType {
  letter: string;
  name: string;
  betza: string;
}

/** Option is a variant's per-game option with its default value. */
export interface Option {
  name: string;
  value: string;
}

/** Variant is one entry of GET /api/variants. */
export interface Variant {
  name: string;
  title: string;
  description: string;
  files: number;
  ranks: number;
  pieces: PieceType[];
  options?: Option[];
  aliases?: string[];
  chance?: boolean;
  hidden?: boolean;
  ranked?: boolean;
  /** a square may hold a stack of pieces, written together in the FEN */
  stacks?: boolean;
  start_fen?: string;
}

/** CreateRequest is the body of POST /api/games. */
export interface CreateRequest {
  variant: string;
  color: string;
  opponent: string;
  level?: number;
  options?: Record<string, string>;
  fen?: string;
  days?: number;
  clock?: { initial_ms: number; increment_ms: number };
}

/** Created is the answer of POST /api/games. */
export interface Created {
  id: string;
  seat: Seat;
  token: string;
  invite?: string;
}

/** Summary is a game's public summary (GET /api/games, welcome's game). */
export interface Summary {
  id: string;
  variant: string;
  /** the variant's per-game options the game was created with (public ones) */
  options?: Record<string, string>;
  title: string;
  files: number;
  ranks: number;
  opponent: string;
  level?: number;
  plies: number;
  finished?: boolean;
  result?: string;
  reason?: string;
  hidden?: boolean;
  initial_ms?: number;
  days?: number;
  start_fen?: string;
  start_board?: string;
  start_describe?: Describe;
  pieces?: PieceType[];
  white?: PlayerInfo;
  black?: PlayerInfo;
  rated?: boolean;
}

/** PlayerInfo is an account playing a game, with its rating now in the game's variant and class. */
export interface PlayerInfo {
  user: string;
  rating?: number;
  provisional?: boolean;
}

/** MarkedSquare is a square the description draws a label on. */
export interface MarkedSquare {
  square: string;
  label?: string;
  mark?: string;
  title?: string;
}

/** Counter is a counter of the description (a treasury, a right). */
export interface Counter {
  side?: string;
  name: string;
  value: string;
  unit?: string;
}

/** TypeInfo is a piece type in play with its movement and price. */
export interface TypeInfo {
  side?: string;
  letter: string;
  movement: string;
  price?: number;
}

/** Describe is the variant's description of a position (describe). */
export interface Describe {
  phase?: string;
  turn?: string;
  squares?: MarkedSquare[];
  counters?: Counter[];
  types?: TypeInfo[];
  notes?: string[];
}

/** Status is a game's result: "*" while it is played (or aborted). */
export interface Status {
  result: string;
  reason: string;
  detail?: string;
}

/** Clock is the clocks of a state. */
export interface Clock {
  white_ms: number;
  black_ms: number;
  running?: string;
  days?: number;
}

/** Action is a legal move that is not from one square to another. */
export interface Action {
  move: string;
  label?: string;
  group?: string;
  piece?: string;
  to?: string;
}

/** PlyEvent is an event of kind ply. */
export interface PlyEvent {
  kind: 'ply';
  seat: Color;
  ply: number;
  move: string;
  san?: string;
  events?: string[];
  removed?: string[];
  describe?: Describe;
  fen?: string;
  board?: string;
  check?: string;
  outcome?: number;
  mark?: string;
  label?: string;
  outcomes?: Outcome[];
  roll?: number;
  turn_over?: boolean;
}

/** OtherEvent is an event of another kind: an offer, the end, a rematch. */
export interface OtherEvent {
  kind: 'offer' | 'end' | 'rematch';
  seat?: Color;
  offer?: string;
  result?: string;
  reason?: string;
  detail?: string;
  game?: string;
}

/** GameEvent is the e of an event frame. */
export type GameEvent = PlyEvent | OtherEvent;

/** State is a state frame: the position as the connection may see it. */
export interface State {
  t: 'state';
  v: number;
  fen: string;
  board: string;
  turn: Color;
  check?: string;
  legal: string[];
  last?: [string, string];
  clock: Clock;
  status: Status;
  offer?: string;
  actions?: Action[];
  describe?: Describe;
  visible?: string[] | null;
  chances?: Record<string, string>;
  dice?: Dice;
}

/** ServerFrame is a frame the server sends over the game's WebSocket. */
export type ServerFrame =
  | { t: 'welcome'; seat: Seat; game: Summary; version: number }
  | { t: 'event'; v: number; e: GameEvent }
  | State
  | { t: 'ack'; id: number; v: number }
  | { t: 'error'; id?: number; code: string; message?: string }
  | { t: 'rematch'; game: string; seat: Seat; token: string }
  | { t: 'pong'; id?: number };

/** ClientFrame is a frame the page sends, without its id. */
export type ClientFrame =
  | { t: 'hello'; since: number; token?: string }
  | { t: 'move'; move: string; v?: number }
  | { t: 'resign' }
  | { t: 'draw'; offer: boolean }
  | { t: 'abort' }
  | { t: 'rematch' }
  | { t: 'ping' };

/** DesignInfo is the answer of GET /api/design. */
export interface DesignInfo {
  price: number;
  exact: number;
  colorbound?: boolean;
  royal?: boolean;
  diagram: string;
  move?: string;
  error?: { message: string; pos?: number };
}

/** LegalMove is a legal move of an analysis position. */
export interface LegalMove {
  move: string;
  san: string;
}

/** Position is the answer of GET /api/analysis/position. */
export interface Position {
  variant: string;
  files: number;
  ranks: number;
  fen: string;
  board: string;
  turn: Color;
  check?: string;
  last?: [string, string];
  status: Status;
  legal: LegalMove[];
}

/** EngineLine is a line event of GET /api/analysis. */
export interface EngineLine {
  depth: number;
  multipv: number;
  score: number;
  white: number;
  mate: number;
  pv: string[];
  san: string[];
}

/** StudyPly is a ply of GET /api/games/{id}/study. */
export interface StudyPly {
  ply: number;
  move: string;
  san: string;
  fen: string;
  chance?: boolean;
}

/** Study is the answer of GET /api/games/{id}/study. */
export interface Study {
  game: Summary;
  start_fen: string;
  plies: StudyPly[];
}

/** Blunder is a ply the blunder check names. */
export interface Blunder {
  ply: number;
  san: string;
  seat: Color;
  drop: number;
  best?: string;
}

/** PieceMoves is a piece of GET /api/variants/{name}/pieces. */
export interface PieceMoves extends PieceType {
  royal?: boolean;
  from: string;
  moves: string[];
  captures: string[];
}

/** PiecesInfo is the answer of GET /api/variants/{name}/pieces. */
export interface PiecesInfo {
  variant: string;
  files: number;
  ranks: number;
  pieces: PieceMoves[];
}

/** CheckedPiece is a piece of POST /api/variants/check: its moves and its value in centipawns. */
export interface CheckedPiece extends PieceMoves {
  value: number;
}

/** VariantError is a fault of a checked variant file (line 0: the rules as a whole). */
export interface VariantError {
  line: number;
  col: number;
  message: string;
}

/** VariantCheck is the answer of POST /api/variants/check. */
export interface VariantCheck {
  ok: boolean;
  errors: VariantError[];
  name?: string;
  title?: string;
  taken?: boolean;
  saved?: boolean;
  board?: { files: number; ranks: number };
  start?: string;
  pieces?: CheckedPiece[];
  perft?: number[];
}

/** Me is the account this browser is signed in as (GET /api/me, sign-up and sign-in). */
export interface Me {
  user: string;
  display: string;
  csrf: string;
  claimed?: { claimed: string[]; refused: string[] };
}

/** SeatClaim is an anonymous seat this browser holds, offered to an account. */
export interface SeatClaim {
  game: string;
  seat: Seat;
  token: string;
}

/** Seek is an offer to play in the lobby (docs/protocol.md). */
export interface Seek {
  id: string;
  variant: string;
  title: string;
  options?: Record<string, string>;
  color: string;
  initial_ms: number;
  increment_ms: number;
  days?: number;
  class: string;
  rated: boolean;
  rating_min?: number;
  rating_max?: number;
  user?: string;
  rating?: number;
  provisional?: boolean;
  hidden?: boolean;
  posted: string;
}

/** Paired is a seek that became a game: this browser's seat in it. */
export interface Paired {
  seek: string;
  game: string;
  seat: Seat;
  token: string;
}

/** QuickControl is a quick-pairing button's time control. */
export interface QuickControl {
  label: string;
  initial_ms: number;
  increment_ms: number;
  days?: number;
  class: string;
}

/** LevelInfo is one of the engine's levels, with its Elo in chess when measured. */
export interface LevelInfo {
  level: number;
  depth: number;
  max_ms?: number;
  elo?: number;
  margin?: number;
}

/** RatingInfo is a player's rating in one variant and time class. */
export interface RatingInfo {
  user?: string;
  variant: string;
  class: string;
  rating: number;
  rd: number;
  provisional: boolean;
  games: number;
}

/** HistoryPoint is a player's rating after one rated game. */
export interface HistoryPoint {
  class: string;
  at: string;
  rating: number;
  rd: number;
  game: string;
}

/** Profile is a player's page: its ratings and their history per variant. */
export interface Profile {
  user: string;
  display: string;
  created: string;
  ratings: RatingInfo[];
  history: Record<string, HistoryPoint[]>;
}

/** GameEntry is one of a player's games. */
export interface GameEntry {
  game: string;
  seat: Seat;
  variant: string;
  created: string;
  opponent?: string;
  rated: boolean;
  class: string;
  outcome: string;
  result: string;
  replay: string;
  analysis: string;
}

/** GamePage is a page of a player's games, with the cursor of the next. */
export interface GamePage {
  games: GameEntry[];
  next?: string;
}

/** Leaderboard is a variant's best established ratings per time class. */
export interface Leaderboard {
  variant: string;
  classes: Record<string, RatingInfo[]>;
}
