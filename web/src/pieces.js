// Built by build.mjs from lib/pieces.ts for node; do not edit.
const BASE = `<path d="M24 86 L28 74 L72 74 L76 86 Z"/>`;
function base64(text) {
  let bin = "";
  for (const b of new TextEncoder().encode(text)) bin += String.fromCharCode(b);
  return btoa(bin);
}
function shogi(ch) {
  return `<path d="M50 10 L72 22 L80 86 L20 86 L28 22 Z"/><text x="50" y="68" font-size="34" text-anchor="middle" class="eye" stroke="none">${ch}</text>`;
}
const SHAPES = {
  // Each shape is drawn in a 100x100 box; fill and stroke come from the colour.
  pawn: `<circle cx="50" cy="30" r="13"/><path d="M38 44 Q50 38 62 44 L66 70 Q50 66 34 70 Z"/><path d="M24 86 Q26 72 36 70 L64 70 Q74 72 76 86 Z"/>`,
  rook: `<path d="M26 22 L36 22 L36 30 L45 30 L45 22 L55 22 L55 30 L64 30 L64 22 L74 22 L74 38 L66 44 L66 70 L34 70 L34 44 L26 38 Z"/><path d="M22 86 L24 74 L76 74 L78 86 Z"/><path d="M34 44 L66 44" fill="none"/>`,
  knight: `<path d="M30 86 L72 86 Q74 60 66 44 Q60 26 44 20 L40 12 L36 22 Q26 28 22 44 Q20 52 26 56 Q32 58 38 52 L44 50 Q40 62 30 72 Z"/><circle cx="38" cy="32" r="3" class="eye"/>`,
  bishop: `<path d="M50 12 Q66 28 64 50 Q62 62 50 64 Q38 62 36 50 Q34 28 50 12 Z"/><path d="M46 30 L56 40" fill="none"/><circle cx="50" cy="10" r="5"/><path d="M30 86 Q32 70 42 66 L58 66 Q68 70 70 86 Z"/>`,
  queen: `<path d="M22 34 L34 62 L38 28 L50 58 L62 28 L66 62 L78 34 L72 72 L28 72 Z"/><circle cx="22" cy="30" r="5"/><circle cx="38" cy="24" r="5"/><circle cx="50" cy="20" r="5"/><circle cx="62" cy="24" r="5"/><circle cx="78" cy="30" r="5"/>${BASE}`,
  king: `<path d="M46 8 L54 8 L54 16 L62 16 L62 24 L54 24 L54 32 L46 32 L46 24 L38 24 L38 16 L46 16 Z"/><path d="M50 36 Q72 26 80 44 Q80 58 68 72 L32 72 Q20 58 20 44 Q28 26 50 36 Z"/>${BASE}`,
  // An elephant's head seen from the side: ear, trunk and tusk.
  elephant: `<path d="M64 72 L64 58 Q80 54 80 38 Q78 20 60 18 Q42 18 34 30 Q28 40 30 52 Q28 62 20 64 Q16 68 20 72 Q28 74 36 66 Q40 62 42 58 L44 72 Z"/><path d="M54 26 Q66 16 76 24 Q84 40 74 56 Q66 62 56 56 Q62 40 54 26 Z"/><path d="M42 56 Q36 64 28 62" fill="none" class="line"/><circle cx="44" cy="36" r="3" class="eye"/>${BASE}`,
  // A general's crested helmet with its visor and nose guard.
  general: `<path d="M28 72 Q24 40 50 32 Q76 40 72 72 Z"/><path d="M44 34 Q36 16 58 8 Q54 20 56 34 Z"/><path d="M28 54 L72 54 M50 54 L50 70" fill="none"/>${BASE}`,
  // A minister's hat: a tall cap with a wing on either side.
  minister: `<path d="M34 62 L36 30 Q50 20 64 30 L66 62 Z"/><path d="M12 40 L34 46 L34 54 L12 50 Z"/><path d="M88 40 L66 46 L66 54 L88 50 Z"/><path d="M26 72 L28 60 L72 60 L74 72 Z"/>${BASE}`,
  // A priestess's mitre with a cross.
  mitre: `<path d="M30 72 L28 38 Q34 20 50 8 Q66 20 72 38 L70 72 Z"/><path d="M50 26 L50 54 M40 36 L60 36" fill="none"/><path d="M29 62 L71 62" fill="none"/>${BASE}`,
  // A wooden man: round head, a plank for a body with its grain, stick arms.
  woody: `<path d="M36 40 L20 58 M64 40 L80 58" fill="none" class="line" stroke-width="8" stroke-linecap="round"/><circle cx="50" cy="22" r="11"/><path d="M37 34 L63 34 L61 72 L39 72 Z"/><path d="M46 40 Q49 52 46 66 M55 42 Q52 54 56 68" fill="none"/>${BASE}`,
  // A soldier's shield.
  soldier: `<path d="M28 18 Q50 24 72 18 Q76 52 50 72 Q24 52 28 18 Z"/><path d="M50 26 L50 64 M34 38 L66 38" fill="none"/>${BASE}`,
  // A camel seen from the side: two humps, a long neck and its head.
  camel: `<path d="M20 72 L22 52 Q22 42 30 40 Q36 26 44 38 Q52 24 60 38 Q64 40 66 36 L70 22 Q72 14 80 16 L86 20 L84 26 L78 26 L76 44 Q72 52 66 54 L66 72 L58 72 L56 56 L34 56 L30 72 Z"/><circle cx="78" cy="20" r="2" class="eye"/>${BASE}`,
  // A giraffe's long neck and head, with its horns and spots.
  giraffe: `<path d="M32 72 L34 56 Q38 48 48 48 L54 48 L58 22 Q56 14 62 12 L64 6 L66 12 L70 6 L71 13 L80 18 L78 24 L68 24 L64 52 Q66 60 64 72 Z"/><circle cx="47" cy="58" r="3" class="eye"/><circle cx="58" cy="62" r="3" class="eye"/><circle cx="61" cy="40" r="2.5" class="eye"/><circle cx="62" cy="30" r="2.5" class="eye"/>${BASE}`,
  // A cannon on its carriage (xiangqi's).
  cannon: `<path d="M16 52 L68 32 L74 46 L22 64 Z"/><circle cx="70" cy="39" r="5" class="eye"/><path d="M36 58 L60 72" fill="none" class="line"/><circle cx="40" cy="66" r="12"/><circle cx="40" cy="66" r="4" class="eye"/>${BASE}`,
  // Shogi's pieces without a Western counterpart: the five-sided piece
  // with the character it bears.
  gold: shogi("\u91D1"),
  silver: shogi("\u9280"),
  lance: shogi("\u9999"),
  // A vizier's turban with its jewel.
  turban: `<path d="M24 66 Q18 38 50 30 Q82 38 76 66 Z"/><path d="M26 48 Q50 38 74 48 M25 58 Q50 48 75 58" fill="none"/><circle cx="50" cy="24" r="7"/><path d="M32 74 L34 66 L66 66 L68 74 Z"/>${BASE}`
};
const BY_NAME = {
  king: "king",
  shah: "king",
  queen: "queen",
  rook: "rook",
  rukh: "rook",
  bishop: "bishop",
  knight: "knight",
  asp: "knight",
  pawn: "pawn",
  piyadak: "pawn",
  elephant: "elephant",
  pil: "elephant",
  alfil: "elephant",
  general: "general",
  minister: "minister",
  "high priestess": "mitre",
  priestess: "mitre",
  "high priest": "mitre",
  priest: "mitre",
  woody: "woody",
  soldier: "soldier",
  camel: "camel",
  giraffe: "giraffe",
  farzin: "turban",
  ferz: "turban",
  fers: "turban",
  vizier: "turban",
  // The classic families' names.
  faras: "knight",
  baidaq: "pawn",
  courier: "bishop",
  mann: "general",
  schleich: "soldier",
  chancellor: "minister",
  marshal: "minister",
  archbishop: "mitre",
  cardinal: "mitre",
  khun: "king",
  met: "turban",
  khon: "elephant",
  rua: "rook",
  ma: "knight",
  bia: "pawn",
  advisor: "turban",
  horse: "knight",
  chariot: "rook",
  cannon: "cannon",
  gold: "gold",
  silver: "silver",
  lance: "lance"
};
function shapeOf(name, betza) {
  const s = BY_NAME[(name || "").toLowerCase()];
  if (s) return s;
  if (/^royal-/.test(betza || "")) return "king";
  return "";
}
function esc(s) {
  return String(s).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
const ATOMS = {
  W: [1, 0],
  F: [1, 1],
  D: [2, 0],
  N: [2, 1],
  A: [2, 2],
  H: [3, 0],
  C: [3, 1],
  L: [3, 1],
  Z: [3, 2],
  G: [3, 3]
};
const RIDERS = { R: "W", B: "F" };
const SHORT = { K: ["W", "F"], Q: ["R", "B"] };
const MODS = /^[fblrvshmcijn]*$/;
function eightWays([a, b]) {
  const out = [];
  for (const [x, y] of [[a, b], [b, a]]) {
    for (const sx of [1, -1]) {
      for (const sy of [1, -1]) {
        const v = [x * sx, y * sy];
        if (!out.some((o) => o[0] === v[0] && o[1] === v[1])) out.push(v);
      }
    }
  }
  return out;
}
function allowed(mods, [a, b], [dx, dy]) {
  const dirs = mods.replace(/[mcijn]/g, "");
  if (!dirs) return true;
  const has = (c) => dirs.includes(c);
  if (b === 0) {
    return (has("f") || has("v")) && dy > 0 || (has("b") || has("v")) && dy < 0 || (has("l") || has("s")) && dx < 0 || (has("r") || has("s")) && dx > 0;
  }
  if (a === b) {
    const vert2 = has("f") || has("b") || has("v");
    const side2 = has("l") || has("r") || has("s");
    const okV2 = !vert2 || has("v") || has("f") && dy > 0 || has("b") && dy < 0;
    const okS2 = !side2 || has("s") || has("l") && dx < 0 || has("r") && dx > 0;
    return okV2 && okS2;
  }
  const narrow = Math.abs(dy) > Math.abs(dx);
  const vert = has("f") || has("b");
  const okV = !vert || has("f") && dy > 0 || has("b") && dy < 0;
  const side = has("l") || has("r");
  const okS = !side || has("l") && dx < 0 || has("r") && dx > 0;
  const wantNarrow = has("v") || /ff|bb/.test(dirs);
  const okN = (!wantNarrow || narrow) && (!has("s") || !narrow);
  return okV && okS && okN;
}
function movement(betza) {
  let s = String(betza || "").replace(/^(royal-)?(relay-)?/, "");
  if (!s) return null;
  const moves = [];
  const re = /([a-z]*)([A-Z])(\2?)/y;
  while (s.length) {
    re.lastIndex = 0;
    const m = re.exec(s);
    if (!m || !MODS.test(m[1])) return null;
    s = s.slice(m[0].length);
    if (m[1].includes("i")) continue;
    const only = m[1].includes("m") && !m[1].includes("c") ? "m" : m[1].includes("c") && !m[1].includes("m") ? "c" : "";
    const atoms = SHORT[m[2]] || [m[2]];
    for (const atom of atoms) {
      let ride = !!m[3] || !!RIDERS[atom];
      const leap = ATOMS[RIDERS[atom] || atom];
      if (!leap) return null;
      if (m[3] && SHORT[m[2]]) return null;
      for (const d of eightWays(leap)) {
        if (allowed(m[1], leap, d)) moves.push({ dx: d[0], dy: d[1], ride, only });
      }
    }
  }
  return moves.length ? moves : null;
}
function diagram(moves, fg, up) {
  const u = 9;
  const parts = [`<rect x="46" y="46" width="8" height="8" fill="${fg}" stroke="none"/>`];
  for (const m of moves) {
    const x = m.dx * u, y = -m.dy * u * up;
    if (m.ride) {
      const len = Math.hypot(x, y);
      const ex = 50 + x / len * 33, ey = 50 + y / len * 33;
      parts.push(`<path d="M${50 + x * 0.45} ${50 + y * 0.45} L${ex.toFixed(1)} ${ey.toFixed(1)}" fill="none" stroke="${fg}" stroke-width="4"${m.only === "m" ? ' stroke-dasharray="4 3"' : ""}/>`);
      if (m.only === "c") parts.push(cross(ex, ey, fg));
    } else if (m.only === "c") {
      parts.push(cross(50 + x, 50 + y, fg));
    } else {
      parts.push(`<circle cx="${50 + x}" cy="${50 + y}" r="4" fill="${m.only === "m" ? "none" : fg}" stroke="${fg}" stroke-width="2"/>`);
    }
  }
  return parts.join("");
}
function cross(x, y, fg) {
  return `<path d="M${(x - 4).toFixed(1)} ${(y - 4).toFixed(1)} l8 8 m0 -8 l-8 8" fill="none" stroke="${fg}" stroke-width="2.5"/>`;
}
function letterText(letter, x, y, size, fg) {
  return `<text x="${x}" y="${y}" text-anchor="middle" font-family="DejaVu Sans, Arial, sans-serif" font-weight="bold" font-size="${size}" fill="${fg}" stroke="none">${esc(letter)}</text>`;
}
function token(letter, betza, fg, up) {
  const moves = movement(betza);
  if (!moves) return `<circle cx="50" cy="50" r="38"/>` + letterText(letter, 50, 64, 42, fg);
  return `<circle cx="50" cy="50" r="40"/>` + diagram(moves, fg, up) + `<circle cx="84" cy="16" r="13" stroke-width="2.5"/>` + letterText(letter, 84, 23, 19, fg) + `<desc>movement</desc>`;
}
function pieceSVG(letter, name, betza, color, flipped = false) {
  const white = color === "white";
  const fill = white ? "#fafafa" : "#2b2b2b";
  const stroke = white ? "#1d1d1d" : "#f2f2f2";
  const shape = shapeOf(name, betza);
  const body = shape ? SHAPES[shape].replaceAll('class="eye"', `fill="${stroke}"`).replaceAll('class="line"', `stroke="${stroke}"`) + `<desc>${shape}</desc>` : token(letter.toUpperCase(), betza, stroke, white !== flipped ? 1 : -1);
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100"><g fill="${fill}" stroke="${stroke}" stroke-width="3.5" stroke-linejoin="round">${body}</g></svg>`;
}
function pieceURL(letter, name, betza, color, flipped = false) {
  return "data:image/svg+xml;base64," + base64(pieceSVG(letter, name, betza, color, flipped));
}
const installed = /* @__PURE__ */ new Set();
function installPieceCSS(variant, pieces) {
  if (installed.has(variant)) return;
  installed.add(variant);
  const style = document.createElement("style");
  style.dataset.variant = variant;
  style.textContent = pieceRules(variant, pieces);
  document.head.appendChild(style);
}
function pieceRules(variant, pieces) {
  const rules = [];
  for (const p of pieces) {
    const role = p.letter.toLowerCase() + "-piece";
    for (const color of ["white", "black"]) {
      const url = pieceURL(p.letter, p.name, p.betza, color);
      rules.push(`.v-${variant} piece.${role}.${color}, .v-${variant} .piece-img.${role}.${color} { background-image: url("${url}"); }`);
      if (!shapeOf(p.name, p.betza) && movement(p.betza)) {
        const turned = pieceURL(p.letter, p.name, p.betza, color, true);
        rules.push(`.v-${variant} .orientation-black piece.${role}.${color} { background-image: url("${turned}"); }`);
      }
    }
  }
  return rules.join("\n");
}
const designs = /* @__PURE__ */ new Map();
function installDesignCSS(variant, types) {
  const table = {};
  for (const t of types || []) if (t.letter && t.movement) table[t.letter] = t.movement;
  const letters = Object.keys(table).sort();
  if (!letters.length) return;
  const key = letters.map((l) => l + "=" + table[l]).join(",");
  let d = designs.get(variant);
  if (d && d.key === key) return;
  if (!d) {
    d = { key: "", style: document.createElement("style") };
    d.style.dataset.designs = variant;
    document.head.appendChild(d.style);
    designs.set(variant, d);
  }
  d.key = key;
  d.style.textContent = pieceRules(variant, letters.map((l) => ({ letter: l, name: "", betza: table[l] })));
}
export {
  installDesignCSS,
  installPieceCSS,
  movement,
  pieceSVG,
  pieceURL,
  shapeOf
};
