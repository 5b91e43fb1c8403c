// The rules pages (#/rules/<variant>): a variant explained from the
// server's data alone: its description (the variant file's text), its
// board, options and start, and for every piece its name, letter, Betza
// and a diagram of where it goes from a centre square of an empty board
// (GET /api/variants/<name>/pieces: the rules' own move generation).
// Nothing here knows a variant by name.

const SQ = 10; // a square's side in a diagram's units

// diagramSVG draws a piece's moves (m) and captures (c) from its square
// on an empty board of files x ranks, White below: a dot where it moves,
// a cross where it captures, both for both. pieceImg is the piece's image
// URL.
export function diagramSVG(p, files, ranks, pieceImg) {
  const moves = new Set(p.moves);
  const caps = new Set(p.captures);
  const parts = [];
  for (let r = 0; r < ranks; r++) {
    for (let f = 0; f < files; f++) {
      const sq = String.fromCharCode(97 + f) + (r + 1);
      const x = f * SQ, y = (ranks - 1 - r) * SQ;
      const dark = (f + r) % 2 === 0;
      parts.push(`<rect x="${x}" y="${y}" width="${SQ}" height="${SQ}" class="${dark ? 'd' : 'l'}"/>`);
      const cx = x + SQ / 2, cy = y + SQ / 2;
      if (sq === p.from) {
        parts.push(`<image href="${pieceImg}" x="${x + 0.5}" y="${y + 0.5}" width="${SQ - 1}" height="${SQ - 1}"/>`);
        continue;
      }
      const m = moves.has(sq), c = caps.has(sq);
      if (m && c) parts.push(`<circle cx="${cx}" cy="${cy}" r="2.6" class="mc" data-sq="${sq}"/>`);
      else if (m) parts.push(`<circle cx="${cx}" cy="${cy}" r="2.2" class="m" data-sq="${sq}"/>`);
      else if (c) parts.push(`<path d="M${cx - 2.4} ${cy - 2.4}l4.8 4.8m0 -4.8l-4.8 4.8" class="c" data-sq="${sq}"/>`);
    }
  }
  return parts.join('');
}

// describe writes where a piece goes, for screen readers.
function describe(p) {
  const same = p.moves.length === p.captures.length && p.moves.every((s, i) => s === p.captures[i]);
  if (same) return `${p.name} on ${p.from} moves and captures on ${p.moves.join(', ')}`;
  return `${p.name} on ${p.from} moves to ${p.moves.join(', ') || 'no square'}; captures on ${p.captures.join(', ') || 'no square'}`;
}

// paragraphs splits a description into its paragraphs (blank lines),
// each on one line.
function paragraphs(text) {
  return String(text || '').split(/\n\s*\n/).map((s) => s.replace(/\s*\n\s*/g, ' ').trim()).filter(Boolean);
}

// showRules renders the rules page of variant name into app. kit holds
// the page's helpers (app.js): h, api, variantByName, pieceURL,
// installPieceCSS.
export async function showRules(app, kit, name) {
  const { h, api, pieceURL } = kit;
  const v = kit.variantByName(name);
  if (!v) {
    app.replaceChildren(h('div', { class: 'not-found', id: 'not-found' }, h('h2', {}, 'No such variant'),
      h('p', {}, `This server has no variant ${name}. `, h('a', { href: '#/' }, 'Back to the lobby'))));
    return;
  }
  const diagrams = h('div', { class: 'piece-diagrams', id: 'pieces' }, h('p', { class: 'dim' }, 'loading the pieces…'));
  const other = kit.variants().filter((x) => x.name !== v.name);
  const aliases = (v.aliases || []).filter((a) => a !== v.name);
  app.replaceChildren(h('article', { class: 'rules-page', id: 'rules', 'data-variant': v.name },
    h('p', { class: 'crumbs' }, h('a', { href: '#/' }, 'lobby'), ' · rules of ', other.flatMap((x, i) => [i ? ', ' : '', h('a', { href: '#/rules/' + x.name }, x.title)])),
    h('h2', { id: 'rules-title' }, v.title, h('span', { class: 'dim' }, ` ${v.name}${aliases.length ? ' (also ' + aliases.join(', ') + ')' : ''}`)),
    h('ul', { class: 'facts' },
      h('li', {}, `board ${v.files}×${v.ranks}`),
      v.chance ? h('li', {}, 'chance: some moves succeed or fail by a roll of the server\'s dice') : null,
      v.hidden ? h('li', {}, 'hidden information: may be played with each player seeing only part of the board') : null,
      v.ranked ? h('li', {}, 'pieces carry ranks, written after their letters in the FEN') : null,
      h('li', {}, 'start: ', h('code', { class: 'fen' }, v.start_fen))),
    h('div', { class: 'description', id: 'description' }, paragraphs(v.description).map((t) => h('p', {}, t))),
    v.options && v.options.length ? h('div', { class: 'options-list' }, h('h3', {}, 'Options'),
      h('ul', {}, v.options.map((o) => h('li', {}, h('code', {}, o.name), ' default ', h('code', {}, o.value || '""'))))) : null,
    h('h3', {}, 'Pieces'),
    h('p', { class: 'dim legend' }, 'Each piece alone on an empty board, White\'s side below: ',
      h('span', { class: 'key-m' }, '●'), ' moves there, ', h('span', { class: 'key-c' }, '✕'), ' captures there, ',
      h('span', { class: 'key-mc' }, '⬤'), ' both. Computed by the server\'s rules, not drawn by hand.'),
    diagrams,
    h('p', {}, h('a', { href: `#/analysis/${v.name}`, id: 'rules-analyse' }, 'Analysis board of this variant'), ' · ', h('a', { href: '#/' }, 'play it from the lobby'))));
  let info;
  try {
    info = await api(`/api/variants/${encodeURIComponent(v.name)}/pieces`);
  } catch (e) {
    diagrams.replaceChildren(h('p', { class: 'error' }, 'The pieces could not be read: ' + e.message));
    return;
  }
  diagrams.replaceChildren(...info.pieces.map((p) => {
    const svg = document.createElementNS('http://www.w3.org/2000/svg', 'svg');
    svg.setAttribute('viewBox', `0 0 ${info.files * SQ} ${info.ranks * SQ}`);
    svg.setAttribute('class', 'piece-diagram');
    svg.setAttribute('role', 'img');
    svg.setAttribute('aria-label', describe(p));
    svg.dataset.piece = p.letter;
    svg.dataset.moves = String(p.moves.length);
    svg.dataset.captures = String(p.captures.length);
    svg.innerHTML = diagramSVG(p, info.files, info.ranks, pieceURL(p.letter, p.name, p.betza, 'white'));
    return h('figure', { class: 'piece-card', 'data-piece': p.letter },
      svg,
      h('figcaption', {},
        h('img', { src: pieceURL(p.letter, p.name, p.betza, 'white'), alt: '', width: 28, height: 28 }),
        h('strong', {}, p.name), ` (${p.letter})`, p.royal ? h('span', { class: 'dim' }, ' royal') : null,
        h('br'), 'Betza ', h('code', { class: 'betza' }, p.betza),
        h('br'), h('span', { class: 'dim' }, `${p.moves.length} moves, ${p.captures.length} captures from ${p.from}`)));
  }));
}
