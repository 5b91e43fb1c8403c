// FEN boards as the variants write them, read in one place. The page
// reads the server's `board` (the plain piece placement) and `fen` (the
// variant's own FEN) only through parseBoard.
//
// A board is its rows from the top rank down, separated by '/'. In a row:
//
//   - a number, of one digit or more ('3', '10', '16'), is that many empty
//     squares;
//   - '*' alone is a square of terrain, a hole no piece enters (csipgs);
//   - a letter is a piece, upper case White, lower case Black; in a ranked
//     FEN (Vazir's RFEN: the game's `ranked`) exactly one digit follows it,
//     the piece's rank ('k0', 'Q9'), so "3r93n1" is 3 empty, r of rank 9,
//     3 empty, n of rank 1;
//   - '*' right after a letter is Crazy-FEN's mark of a risen Bishop ('B*');
//   - letters in parentheses are a stack (Crazy-FEN), bottom to top, each
//     with its own mark: "(RNp)", "(rb*)".
//
// A board may end with a reserve in brackets, "[QNnp]" (the core's FEN of
// a variant with drops).
//
// A piece followed by '*' reads two ways: a risen Bishop (Crazy-FEN) or a
// piece beside a square of terrain (csipgs). No variant has both, and the
// two readings give the row widths that differ by the number of such
// pieces, so the row's width decides: the marks are terrain when only
// that reading fills the row.

// Cell is a square of a board read by parseBoard: null for an empty
// square, a hole (terrain), or a piece (see parseBoard).
export type Cell = null | {
  terrain?: boolean;
  piece?: string;
  rank?: number;
  risen?: boolean;
  stack?: string[];
};

// Board is a FEN board read by parseBoard: its rows of cells, top row
// first, and the reserve in brackets (null without brackets).
export interface Board {
  rows: Cell[][];
  pocket: string | null;
}

// Token is one item of a row as rowCells reads it: a run of empty
// squares, or a cell with whether a '*' followed its letter.
interface Token {
  empty?: number;
  cell?: NonNullable<Cell>;
  star?: boolean;
}

// parseBoard reads a FEN board (or a whole FEN: its first field) into rows
// of cells, top row first, each row from the a-file on. A cell is null for
// an empty square, {terrain: true} for a hole, or a piece: {piece} (its
// letter), with rank (a number) in a ranked FEN, risen: true for a risen
// Bishop or a stack holding one, and stack (its pieces bottom to top, as
// written: 'R', 'b*') for a stack; piece is then the stack's base. files
// is the board's width, which the row's width is checked against for '*'
// after a piece; ranked says the FEN is ranked. pocket is the text in
// brackets, or null without brackets. Nothing throws: a malformed row
// gives the cells it has.
export function parseBoard(text: string | null | undefined, { files = 0, ranked = false }: { files?: number; ranked?: boolean } = {}): Board {
  let field = String(text || '').trim().split(/\s+/)[0] || '';
  let pocket: string | null = null;
  const open = field.indexOf('[');
  if (open >= 0) {
    const close = field.indexOf(']', open);
    pocket = field.slice(open + 1, close < 0 ? undefined : close);
    field = field.slice(0, open);
  }
  const rows = field === '' ? [] : field.split('/').map((row) => rowCells(row, files, ranked));
  return { rows, pocket };
}

const LETTER = /[A-Za-z]/;
const DIGIT = /[0-9]/;

// rowCells reads one row.
function rowCells(row: string, files: number, ranked: boolean): Cell[] {
  const tokens: Token[] = [];
  for (let j = 0; j < row.length; j++) {
    const ch = row[j];
    if (DIGIT.test(ch)) {
      let n = ch;
      while (DIGIT.test(row[j + 1] || '')) n += row[++j];
      tokens.push({ empty: parseInt(n, 10) });
    } else if (ch === '*') {
      tokens.push({ cell: { terrain: true } });
    } else if (ch === '(') {
      let end = row.indexOf(')', j);
      if (end < 0) end = row.length;
      const stack: string[] = Array.from(row.slice(j + 1, end).match(/[A-Za-z]\*?/g) || []);
      j = end;
      if (!stack.length) continue;
      const cell: NonNullable<Cell> = { piece: stack[0][0], stack };
      if (stack.some((p) => p.endsWith('*'))) cell.risen = true;
      tokens.push({ cell });
    } else if (LETTER.test(ch)) {
      const cell: NonNullable<Cell> = { piece: ch };
      if (ranked && DIGIT.test(row[j + 1] || '')) cell.rank = parseInt(row[++j], 10);
      const token: Token = { cell };
      if (row[j + 1] === '*') { token.star = true; j++; }
      tokens.push(token);
    }
    // anything else (a ')' without '(', '~', '+') takes no square
  }
  const stars = tokens.filter((t) => t.star).length;
  const width = tokens.reduce((w, t) => w + (t.empty || (t.cell ? 1 : 0)), 0);
  const terrain = stars > 0 && files > 0 && width !== files && width + stars === files;
  const cells: Cell[] = [];
  for (const t of tokens) {
    if (t.empty) {
      for (let k = 0; k < t.empty; k++) cells.push(null);
      continue;
    }
    if (!t.cell) { cells.push(null); continue; } // '0' (a malformed row) takes one square
    if (t.star && !terrain) t.cell.risen = true;
    cells.push(t.cell);
    if (t.star && terrain) cells.push({ terrain: true });
  }
  return cells;
}

// squareName names the square of a file (0 for a) and a rank (1-based):
// "a1", "j10", "p16".
export function squareName(file: number, rank: number): string {
  return String.fromCharCode(97 + file) + rank;
}

// eachSquare calls fn(square, cell, file, rank) for every cell of rows
// (from parseBoard), the top row being rank rows.length; at most files
// cells a row when files is given.
export function eachSquare(rows: Cell[][], fn: (square: string, cell: Cell, file: number, rank: number) => void, files = 0): void {
  rows.forEach((cells, i) => {
    const rank = rows.length - i;
    cells.forEach((cell, f) => {
      if (!files || f < files) fn(squareName(f, rank), cell, f, rank);
    });
  });
}

// plainBoard writes rows (from parseBoard) back as a plain FEN board:
// one letter a piece (a stack's base), without ranks and marks, empty
// squares counted ('10'), terrain as '*', or as empty squares with
// terrainEmpty; and the pocket in brackets when it is not null.
export function plainBoard(rows: Cell[][], pocket: string | null = null, { terrainEmpty = false }: { terrainEmpty?: boolean } = {}): string {
  const text = rows.map((cells) => {
    let out = '';
    let empty = 0;
    for (const c of cells) {
      if (!c || (c.terrain && terrainEmpty)) { empty++; continue; }
      if (empty) { out += empty; empty = 0; }
      out += c.terrain ? '*' : c.piece;
    }
    return out + (empty ? empty : '');
  }).join('/');
  return pocket === null ? text : `${text}[${pocket}]`;
}
