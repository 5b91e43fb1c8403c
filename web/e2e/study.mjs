// Browser tests of the analysis board and the rules pages (web/src/analysis.js,
// web/src/rules.js), registered by run.mjs with its helpers.
import { join } from 'node:path';

export function studyTests({ test, newPage, check, base, shots, createGame, typeMove, waitOver, noOverflow, PHONE }) {
  // squareAt returns the middle of a square on the page (White below).
  async function squareAt(page, sq, files = 8, ranks = 8) {
    const box = await page.locator('cg-board').boundingBox();
    const f = sq.charCodeAt(0) - 97, r = parseInt(sq.slice(1), 10);
    return [box.x + (f + 0.5) * box.width / files, box.y + (ranks - r + 0.5) * box.height / ranks];
  }

  // evalOf reads the evaluation bar once the engine has a line at least
  // minDepth deep for the position shown.
  async function evalOf(page, minDepth = 4) {
    await page.waitForFunction((d) => {
      const l = document.querySelector('#lines .engine-line[data-multipv="1"]');
      const depth = parseInt((document.querySelector('#depth').textContent.match(/depth (\d+)/) || [])[1] || '0', 10);
      return l && depth >= d && document.querySelector('#evalbar').dataset.white !== undefined && document.querySelector('#status').dataset.over === 'no';
    }, minDepth);
    return {
      white: Number(await page.getAttribute('#evalbar', 'data-white')),
      text: (await page.textContent('#eval')).trim(),
      line: (await page.textContent('#lines .engine-line[data-multipv="1"] .line-moves')).trim(),
    };
  }

  test('analysis board: a finished chess game evaluated, its best line, a side line that changes the evaluation, its blunders; on a phone too', async () => {
    const a = await newPage();
    const id = await createGame(a, { variant: 'chess', opponent: 'human' });
    const b = await newPage();
    await b.goto(await a.inputValue('#invite-link'));
    await b.waitForSelector('body[data-seat="black"]');
    const moves = ['e4', 'e5', 'Bc4', 'Nc6', 'Qh5', 'Nf6', 'Qxf7#'];
    for (let i = 0; i < moves.length; i++) await typeMove(i % 2 ? b : a, moves[i]);
    await waitOver(a);
    // The game page offers the analysis once the game is over.
    await a.waitForSelector('#analyse:not([hidden])');
    await a.click('#gameover-analyse');
    await a.waitForSelector('#tree .tree-move[data-ply="7"].current');
    // The tree marks the ply at once; the position's status comes with the
    // server's answer, which also sets the body's data-analysis-ply.
    await a.waitForSelector('body[data-analysis-ply="7"]');
    check((await a.textContent('#status')).startsWith('1-0 · checkmate'), `the last position: ${await a.textContent('#status')}`);
    check(await a.textContent('#eval') === '1-0', `the bar at the mate: ${await a.textContent('#eval')}`);
    // After 2...Nc6: an evaluation and a best line.
    await a.click('#tree .tree-move[data-ply="4"]');
    await a.waitForSelector('#tree .tree-move[data-ply="4"].current');
    const before = await evalOf(a);
    check(/^[+−]?\d+\.\d\d$|^#/.test(before.text), `the evaluation: ${before.text}`);
    check(/^3\. \S+/.test(before.line), `the best line: ${before.line}`);
    check(Math.abs(before.white) < 200, `2...Nc6 is about even: ${before.white}`);
    const fenBefore = await a.inputValue('#analysis-fen');
    // A side line played on the board: 3.Bxf7+ gives a bishop away.
    const [x0, y0] = await squareAt(a, 'c4');
    const [x1, y1] = await squareAt(a, 'f7');
    await a.mouse.click(x0, y0);
    await a.mouse.click(x1, y1);
    await a.waitForSelector('#tree .variation .tree-move.current');
    const side = (await a.textContent('#tree .variation')).trim();
    check(side.includes('Bxf7+'), `the variation: ${side}`);
    // The position is the server's: it is drawn once the answer comes.
    await a.waitForFunction((f) => document.querySelector('#analysis-fen').value !== f, fenBefore);
    check(await a.textContent('#status') === 'black to move', `after Bxf7+: ${await a.textContent('#status')}`);
    const after = await evalOf(a);
    check(after.white < before.white - 100, `the evaluation did not fall after Bxf7+: ${before.white} then ${after.white}`);
    check(/^3… Kxf7/.test(after.line), `the best line after Bxf7+: ${after.line}`);
    // The main line is still there, and the blunders of the game.
    await a.click('#find-blunders');
    await a.waitForSelector('#blunder-list');
    const list = await a.textContent('#blunder-list');
    check(list.includes('3… Nf6??'), `the blunders: ${list}`);
    check((await a.textContent('#tree .tree-move.blunder')).includes('Nf6??'), 'the blunder is not marked in the moves');
    check(!list.includes('Qxf7'), `a White move marked: ${list}`);
    await a.click('#tree .tree-move[data-ply="5"]');
    await evalOf(a, 3);
    await a.screenshot({ path: join(shots, 'analysis.png') });
    check(a.errors.length === 0, a.errors.join('; '));
    // The game page's link opens the analysis at the ply shown there.
    await a.goto(`${base}/#/game/${id}`);
    await waitOver(a);
    await a.click('#nav-first');
    for (let i = 0; i < 3; i++) await a.click('#nav-next');
    check(await a.getAttribute('#analyse', 'href') === `#/analysis/game/${id}/3`, `the link at ply 3: ${await a.getAttribute('#analyse', 'href')}`);
    await a.click('#analyse');
    await a.waitForSelector('#tree .tree-move[data-ply="3"].current');
    check(a.errors.length === 0, a.errors.join('; '));

    // A phone: the board, the bar and the lines fit the width.
    const p = await newPage(PHONE);
    await p.goto(`${base}/#/analysis/game/${id}/4`);
    await p.waitForSelector('#tree .tree-move[data-ply="4"].current');
    await evalOf(p, 3);
    await noOverflow(p, 'the analysis board on a phone');
    for (const sel of ['cg-board', '#evalbar', '#lines', '#tree', '#nav-first', '#analysis-fen']) {
      const box = await p.locator(sel).boundingBox();
      check(box && box.x >= 0 && box.x + box.width <= 390 + 0.5, `phone: ${sel} at ${JSON.stringify(box)}`);
    }
    await p.screenshot({ path: join(shots, 'analysis-phone.png'), fullPage: true });
    check(p.errors.length === 0, p.errors.join('; '));

    // From the lobby: the analysis board of the variant chosen, from a FEN.
    const l = await newPage();
    await l.goto(base + '/');
    await l.waitForSelector('#create');
    await l.selectOption('#variant', 'greatshatranj');
    await l.click('#lobby-analyse');
    await l.waitForSelector('.board-wrap.dim-10x8');
    const gs = await evalOf(l, 2);
    check(gs.line.startsWith('1. '), `Great Shatranj's best line: ${gs.line}`);
    check(l.errors.length === 0, l.errors.join('; '));
  });

  test('rules pages: every variant with its description and a diagram of every piece from the server\'s moves, linked from the lobby and the game', async () => {
    const variants = await (await fetch(base + '/api/variants')).json();
    const page = await newPage();
    await page.goto(base + '/');
    await page.waitForSelector('.variant-card');
    for (const v of variants) {
      check(await page.$(`.rules-link[data-variant="${v.name}"]`), `the lobby has no rules link for ${v.name}`);
    }
    await page.click(`.rules-link[data-variant="${variants[0].name}"]`);
    await page.waitForSelector(`#rules[data-variant="${variants[0].name}"] .piece-diagram`);
    for (const v of variants) {
      const info = await (await fetch(`${base}/api/variants/${v.name}/pieces`)).json();
      await page.goto(`${base}/#/rules/${v.name}`);
      await page.waitForSelector(`#rules[data-variant="${v.name}"] .piece-card`);
      const cards = await page.$$eval('.piece-card', (els) => els.map((el) => {
        const svg = el.querySelector('svg.piece-diagram');
        return { letter: el.dataset.piece, marks: svg ? svg.querySelectorAll('[data-sq]').length : -1, image: svg ? svg.querySelectorAll('image').length : 0,
          text: el.querySelector('figcaption').textContent };
      }));
      check(cards.length === info.pieces.length && cards.length > 0, `${v.name}: ${cards.length} diagrams for ${info.pieces.length} pieces`);
      info.pieces.forEach((p, i) => {
        const c = cards[i];
        const squares = new Set([...p.moves, ...p.captures]).size;
        check(c.letter === p.letter && c.marks === squares && c.marks > 0 && c.image === 1, `${v.name} ${p.name}: diagram ${JSON.stringify(c)}, want ${squares} marked squares`);
        check(c.text.includes(p.name) && c.text.includes(p.betza), `${v.name} ${p.name}: caption ${c.text}`);
      });
      const desc = (await page.textContent('#description')).trim();
      check(desc.length > 40 && desc.startsWith(v.description.trim().split(/\s+/).slice(0, 3).join(' ')), `${v.name}: the description ${desc.slice(0, 80)}`);
    }
    await page.goto(`${base}/#/rules/greatshatranj`);
    await page.waitForSelector('.piece-diagram');
    await page.screenshot({ path: join(shots, 'rules-greatshatranj.png'), fullPage: true });
    const phone = await newPage(PHONE);
    await phone.goto(`${base}/#/rules/csipgs`);
    await phone.waitForSelector('.piece-diagram');
    await noOverflow(phone, 'a rules page on a phone');
    // The game page links to its variant's rules.
    await createGame(page, { variant: 'chatrang', level: '1' });
    check(await page.getAttribute('#game-rules', 'href') === '#/rules/chatrang', `the game's rules link: ${await page.getAttribute('#game-rules', 'href')}`);
    check(page.errors.length === 0 && phone.errors.length === 0, page.errors.concat(phone.errors).join('; '));
  });
}
