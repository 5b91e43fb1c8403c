// Piece images for every piece of every variant, drawn as SVG here: the
// six chess shapes for pieces that are (or descend from) chess pieces, and
// for every other piece a round token with its letter and a mark of how it
// moves, so a variant with designed pieces still gets clear images.

const SHAPES = {
  // Each shape is drawn in a 100x100 box; fill and stroke come from the colour.
  pawn: `<circle cx="50" cy="30" r="13"/><path d="M38 44 Q50 38 62 44 L66 70 Q50 66 34 70 Z"/><path d="M24 86 Q26 72 36 70 L64 70 Q74 72 76 86 Z"/>`,
  rook: `<path d="M26 22 L36 22 L36 30 L45 30 L45 22 L55 22 L55 30 L64 30 L64 22 L74 22 L74 38 L66 44 L66 70 L34 70 L34 44 L26 38 Z"/><path d="M22 86 L24 74 L76 74 L78 86 Z"/><path d="M34 44 L66 44" fill="none"/>`,
  knight: `<path d="M30 86 L72 86 Q74 60 66 44 Q60 26 44 20 L40 12 L36 22 Q26 28 22 44 Q20 52 26 56 Q32 58 38 52 L44 50 Q40 62 30 72 Z"/><circle cx="38" cy="32" r="3" class="eye"/>`,
  bishop: `<path d="M50 12 Q66 28 64 50 Q62 62 50 64 Q38 62 36 50 Q34 28 50 12 Z"/><path d="M46 30 L56 40" fill="none"/><circle cx="50" cy="10" r="5"/><path d="M30 86 Q32 70 42 66 L58 66 Q68 70 70 86 Z"/>`,
  queen: `<path d="M22 34 L34 62 L38 28 L50 58 L62 28 L66 62 L78 34 L72 72 L28 72 Z"/><circle cx="22" cy="30" r="5"/><circle cx="38" cy="24" r="5"/><circle cx="50" cy="20" r="5"/><circle cx="62" cy="24" r="5"/><circle cx="78" cy="30" r="5"/><path d="M24 86 L28 74 L72 74 L76 86 Z"/>`,
  king: `<path d="M46 8 L54 8 L54 16 L62 16 L62 24 L54 24 L54 32 L46 32 L46 24 L38 24 L38 16 L46 16 Z"/><path d="M50 36 Q72 26 80 44 Q80 58 68 72 L32 72 Q20 58 20 44 Q28 26 50 36 Z"/><path d="M24 86 L28 74 L72 74 L76 86 Z"/>`,
};

// Names of pieces drawn with a chess shape, in every variant.
const BY_NAME = {
  king: 'king', shah: 'king',
  queen: 'queen',
  rook: 'rook', rukh: 'rook',
  bishop: 'bishop',
  knight: 'knight', asp: 'knight',
  pawn: 'pawn', piyadak: 'pawn',
};

function esc(s) {
  return String(s).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

// token draws a piece without a chess shape: a disc with the letter, and
// small marks for how far it reaches (from its Betza string).
function token(letter, name, betza, fg) {
  const ride = /[RBQ]|\w{2}/.test(betza || '') ? 1 : 0;
  const ring = ride ? `<circle cx="50" cy="50" r="30" fill="none" stroke-dasharray="4 4"/>` : '';
  return `<circle cx="50" cy="50" r="38"/>${ring}` +
    `<text x="50" y="64" text-anchor="middle" font-family="DejaVu Sans, Arial, sans-serif" font-weight="bold" font-size="42" fill="${fg}" stroke="none">${esc(letter)}</text>`;
}

// pieceSVG returns the SVG text of one piece.
export function pieceSVG(letter, name, betza, color) {
  const white = color === 'white';
  const fill = white ? '#fafafa' : '#2b2b2b';
  const stroke = white ? '#1d1d1d' : '#f2f2f2';
  const shape = BY_NAME[(name || '').toLowerCase()];
  const body = shape ? SHAPES[shape].replace('class="eye"', `fill="${stroke}"`) : token(letter.toUpperCase(), name, betza, stroke);
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100"><g fill="${fill}" stroke="${stroke}" stroke-width="3.5" stroke-linejoin="round">${body}</g></svg>`;
}

// pieceURL returns a data URL of the piece's image.
export function pieceURL(letter, name, betza, color) {
  return 'data:image/svg+xml;base64,' + btoa(pieceSVG(letter, name, betza, color));
}

// installPieceCSS adds the style rules that show a variant's pieces on
// boards of class v-NAME. Each variant's pieces are installed once.
const installed = new Set();
export function installPieceCSS(variant, pieces) {
  if (installed.has(variant)) return;
  installed.add(variant);
  const rules = [];
  for (const p of pieces) {
    const role = p.letter.toLowerCase() + '-piece';
    for (const color of ['white', 'black']) {
      const url = pieceURL(p.letter, p.name, p.betza, color);
      rules.push(`.v-${variant} piece.${role}.${color}, .v-${variant} .piece-img.${role}.${color} { background-image: url("${url}"); }`);
    }
  }
  const style = document.createElement('style');
  style.dataset.variant = variant;
  style.textContent = rules.join('\n');
  document.head.appendChild(style);
}
