// Built by build.mjs from lib/fen.ts for node; do not edit.
function parseBoard(text, { files = 0, ranked = false } = {}) {
  let field = String(text || "").trim().split(/\s+/)[0] || "";
  let pocket = null;
  const open = field.indexOf("[");
  if (open >= 0) {
    const close = field.indexOf("]", open);
    pocket = field.slice(open + 1, close < 0 ? void 0 : close);
    field = field.slice(0, open);
  }
  const rows = field === "" ? [] : field.split("/").map((row) => rowCells(row, files, ranked));
  return { rows, pocket };
}
const LETTER = /[A-Za-z]/;
const DIGIT = /[0-9]/;
function rowCells(row, files, ranked) {
  const tokens = [];
  for (let j = 0; j < row.length; j++) {
    const ch = row[j];
    if (DIGIT.test(ch)) {
      let n = ch;
      while (DIGIT.test(row[j + 1] || "")) n += row[++j];
      tokens.push({ empty: parseInt(n, 10) });
    } else if (ch === "*") {
      tokens.push({ cell: { terrain: true } });
    } else if (ch === "(") {
      let end = row.indexOf(")", j);
      if (end < 0) end = row.length;
      const stack = Array.from(row.slice(j + 1, end).match(/[A-Za-z]\*?/g) || []);
      j = end;
      if (!stack.length) continue;
      const cell = { piece: stack[0][0], stack };
      if (stack.some((p) => p.endsWith("*"))) cell.risen = true;
      tokens.push({ cell });
    } else if (LETTER.test(ch)) {
      const cell = { piece: ch };
      if (ranked && DIGIT.test(row[j + 1] || "")) cell.rank = parseInt(row[++j], 10);
      const token = { cell };
      if (row[j + 1] === "*") {
        token.star = true;
        j++;
      }
      tokens.push(token);
    }
  }
  const stars = tokens.filter((t) => t.star).length;
  const width = tokens.reduce((w, t) => w + (t.empty || (t.cell ? 1 : 0)), 0);
  const terrain = stars > 0 && files > 0 && width !== files && width + stars === files;
  const cells = [];
  for (const t of tokens) {
    if (t.empty) {
      for (let k = 0; k < t.empty; k++) cells.push(null);
      continue;
    }
    if (!t.cell) {
      cells.push(null);
      continue;
    }
    if (t.star && !terrain) t.cell.risen = true;
    cells.push(t.cell);
    if (t.star && terrain) cells.push({ terrain: true });
  }
  return cells;
}
function squareName(file, rank) {
  return String.fromCharCode(97 + file) + rank;
}
function eachSquare(rows, fn, files = 0) {
  rows.forEach((cells, i) => {
    const rank = rows.length - i;
    cells.forEach((cell, f) => {
      if (!files || f < files) fn(squareName(f, rank), cell, f, rank);
    });
  });
}
function plainBoard(rows, pocket = null, { terrainEmpty = false } = {}) {
  const text = rows.map((cells) => {
    let out = "";
    let empty = 0;
    for (const c of cells) {
      if (!c || c.terrain && terrainEmpty) {
        empty++;
        continue;
      }
      if (empty) {
        out += empty;
        empty = 0;
      }
      out += c.terrain ? "*" : c.piece;
    }
    return out + (empty ? empty : "");
  }).join("/");
  return pocket === null ? text : `${text}[${pocket}]`;
}
export {
  eachSquare,
  parseBoard,
  plainBoard,
  squareName
};
