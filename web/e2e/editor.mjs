// Browser tests of the variant editor and the board editor
// (web/src/editor.ts, web/src/setup.ts), registered by run.mjs with its
// helpers. The variant editor's test restarts the server through the
// harness's hook (server/browser_test.go: a POST to /__e2e/restart starts
// another server on the same database behind the same address).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

// WIZARD is a variant on a 10x10 board with a fairy piece: the wizard,
// a camel and a ferz.
const WIZARD = `name = "wizardchess"
title = "Wizard Chess"
description = "Chess on a 10x10 board with a wizard, who leaps as a camel or steps as a ferz."
start = "rnbqkwbnr1/pppppppppp/10/10/10/10/10/10/PPPPPPPPPP/RNBQKWBNR1 w - - 0 1"

[board]
files = 10
ranks = 10

[[piece]]
letter = "K"
name = "king"
betza = "K"
royal = true

[[piece]]
letter = "Q"
name = "queen"
betza = "Q"

[[piece]]
letter = "R"
name = "rook"
betza = "R"

[[piece]]
letter = "B"
name = "bishop"
betza = "B"

[[piece]]
letter = "N"
name = "knight"
betza = "N"

[[piece]]
letter = "W"
name = "wizard"
betza = "CF"

[[piece]]
letter = "P"
name = "pawn"
betza = "fmWfcF"

[pawn]
letter = "P"

[promotion]
ranks = [10]
pieces = "QRBNW"
mandatory = true
`;

export function editorTests({ test, newPage, check, base, shots, typeMove, noOverflow, PHONE }) {
  // squareAt returns the middle of a square on the page (White below).
  async function squareAt(page, sq, files = 8, ranks = 8) {
    const box = await page.locator('cg-board').boundingBox();
    const f = sq.charCodeAt(0) - 97, r = parseInt(sq.slice(1), 10);
    return [box.x + (f + 0.5) * box.width / files, box.y + (ranks - r + 0.5) * box.height / ranks];
  }

  // clickAt clicks a square of the board editor and waits for the FEN it
  // changes (the board handles a click after the event).
  async function clickAt(page, sq, files = 8, ranks = 8) {
    const before = await page.inputValue('#setup-fen');
    const [x, y] = await squareAt(page, sq, files, ranks);
    await page.mouse.click(x, y);
    await page.waitForFunction((b) => document.querySelector('#setup-fen')?.value !== b, before);
  }

  async function waitMyMove(page) {
    await page.waitForFunction(() => document.querySelector('#status')?.textContent.includes('your move'));
  }

  // download clicks the game page's PGN link and returns the file's text.
  async function download(page) {
    const [dl] = await Promise.all([page.waitForEvent('download'), page.click('#pgn')]);
    return readFileSync(await dl.path(), 'utf8');
  }

  // gameOpened waits for the game page a button of the editors opens, or
  // fails with the editor's message.
  async function gameOpened(page, msg) {
    await page.waitForFunction((msg) => location.hash.startsWith('#/game/') || document.querySelector(`${msg}.error`), msg);
    const err = await page.$(`${msg}.error`);
    check(!err, `no game: ${err && await err.textContent()}`);
    await page.waitForSelector('body[data-version]');
    return page.url().split('/').pop();
  }

  // resign ends the game on the page (an engine game counts for its
  // client until it is over).
  async function resign(page) {
    page.once('dialog', (d) => d.accept());
    await page.click('#resign');
    await page.waitForSelector('#status[data-over="yes"]');
  }

  // waitValid waits for the board editor's verdict on the position its
  // FEN field shows and returns it.
  async function waitValid(page) {
    await page.waitForFunction(() => {
      const s = document.querySelector('#setup-status');
      return s && s.dataset.valid && s.dataset.fen === document.querySelector('#setup-fen')?.value;
    });
    return page.getAttribute('#setup-status', 'data-valid');
  }

  test('variant editor: a 10x10 variant with a fairy piece, its error at its line, fixed, saved, played against the engine, the server restarted, the PGN downloaded, the variant edited and the first game unchanged', async () => {
    const page = await newPage({ acceptDownloads: true });
    await page.goto(base + '/#/editor/chess');
    await page.waitForFunction(() => document.querySelector('#editor-text')?.value.includes('name = "chess"'));
    await page.waitForSelector('#editor-status[data-ok="true"]');
    // Chess's own file checks, but its name is a built-in variant's.
    check((await page.textContent('#editor-status')).includes('choose another name') && await page.isDisabled('#editor-save'), 'chess\'s name may be saved over');
    // A fault: an atom the Betza notation does not have.
    const broken = WIZARD.replace('betza = "CF"', 'betza = "C%F"');
    const line = broken.split('\n').findIndex((l) => l.includes('C%F')) + 1;
    await page.fill('#editor-text', broken);
    await page.waitForSelector('#editor-status[data-ok="false"]');
    const errs = await page.$$eval('#editor-errors li', (els) => els.map((e) => ({ line: Number(e.dataset.line), text: e.textContent })));
    check(errs.length >= 1 && errs[0].line === line && errs[0].text.includes('C%F'), `the error is not at line ${line}: ${JSON.stringify(errs)}`);
    check(await page.$(`.code-gutter .ln.err[data-line="${line}"]`), `line ${line} is not marked`);
    check(await page.$(`.code-mark[data-line="${line}"]`), `line ${line} is not highlighted`);
    check(await page.isDisabled('#editor-save'), 'a broken file can be saved');
    // The fault's link selects its line.
    await page.click('#editor-errors li a');
    const sel = await page.$eval('#editor-text', (t) => t.value.slice(t.selectionStart, t.selectionEnd));
    check(sel === 'betza = "C%F"', `the link selects ${JSON.stringify(sel)}`);
    // Fixed: the start on a 10x10 board, the wizard's diagram, values, perft.
    await page.fill('#editor-text', WIZARD);
    await page.waitForSelector('#editor-status[data-ok="true"]');
    check(!(await page.$('.code-gutter .ln.err')), 'a line is still marked after the fix');
    await page.waitForSelector('.editor-preview .board-wrap.dim-10x10 cg-board');
    const pieces = await page.$$eval('.editor-preview cg-board piece:not(.ghost)', (els) => els.length);
    check(pieces === 38, `the preview shows ${pieces} pieces, not 38`);
    const wiz = await page.$eval('#editor-pieces .piece-diagram[data-piece="W"]', (e) => ({ m: Number(e.dataset.moves), c: Number(e.dataset.captures) }));
    check(wiz.m === 12 && wiz.c === 12, `the wizard's diagram: ${JSON.stringify(wiz)} (a camel and a ferz from e5 on 10x10: 12)`);
    const value = Number(await page.getAttribute('#editor-pieces figure[data-piece="W"] .piece-value', 'data-value'));
    check(value > 0, `the wizard's value: ${value}`);
    const perft = (await page.getAttribute('#editor-perft', 'data-perft')).split(',').map(Number);
    check(perft.length >= 2 && perft[0] > 0 && perft[1] > perft[0], `perft: ${perft}`);
    await page.screenshot({ path: join(shots, 'editor.png') });
    await page.click('#editor-save');
    await page.waitForFunction(() => document.querySelector('#editor-save-msg')?.textContent.includes('Saved as wizardchess'));
    // Play the engine at once; three moves.
    await page.selectOption('#editor-level', '1');
    await page.click('#editor-engine');
    const id = await gameOpened(page, '#editor-save-msg');
    for (const m of ['e3', 'd3', 'f3']) {
      await waitMyMove(page);
      await typeMove(page, m);
    }
    await waitMyMove(page);
    const label = await page.getAttribute('#board', 'aria-label');
    const pgn = await page.evaluate((id) => fetch(`/api/games/${id}/pgn`).then((r) => r.text()), id);
    check(/1\. e3 .+ 2\. d3 .+ 3\. f3 /.test(pgn.replace(/\s+/g, ' ')), `the PGN's moves: ${pgn}`);
    check(pgn.includes('[VariantDefinition "sha256:'), 'the PGN names no definition');
    // The server restarts; the page, reloaded, has the game as it was.
    const r = await fetch(base + '/__e2e/restart', { method: 'POST' });
    check(r.status === 204, `the restart hook answered ${r.status}: run this test through go test ./server -run Browser`);
    await page.reload();
    await page.waitForSelector('body[data-version]');
    await waitMyMove(page);
    check(await page.getAttribute('#board', 'aria-label') === label, 'the board changed with the restart');
    const got = await download(page);
    check(got === pgn, `the downloaded PGN differs:\n${got}\nwas\n${pgn}`);
    // The variant edited: the wizard also leaps as a dabbaba. The check of
    // the file as loaded is held until the edit is made: its answer, for
    // the text before the edit, must not show as the edit's.
    let edited;
    const editMade = new Promise((r) => { edited = r; });
    await page.route('**/api/variants/check', async (route) => {
      if ((route.request().postData() || '').includes('betza = \\"CF\\"')) await editMade;
      await route.continue();
    });
    await page.goto(base + '/#/editor/wizardchess');
    await page.waitForFunction(() => document.querySelector('#editor-text')?.value.includes('name = "wizardchess"'));
    await page.fill('#editor-text', WIZARD.replace('betza = "CF"', 'betza = "CFD"'));
    edited();
    await page.waitForSelector('#editor-status[data-ok="true"]');
    await page.unroute('**/api/variants/check');
    const wiz2 = Number(await page.getAttribute('#editor-pieces .piece-diagram[data-piece="W"]', 'data-moves'));
    check(wiz2 === 16, `the edited wizard moves to ${wiz2} squares, not 16`);
    await page.click('#editor-save');
    await page.waitForFunction(() => document.querySelector('#editor-save-msg')?.textContent.includes('replacing'));
    // The first game replays unchanged: its moves from the start, its PGN.
    await page.goto(base + '/#/game/' + id);
    await page.waitForSelector('body[data-version]');
    await waitMyMove(page);
    check(await page.getAttribute('#board', 'aria-label') === label, 'the first game\'s board changed with the edit');
    await page.click('#nav-first');
    for (let i = 0; i < 6; i++) await page.click('#nav-next');
    check(await page.getAttribute('#board', 'aria-label') === label, 'the first game replayed move by move ends elsewhere');
    check(await download(page) === pgn, 'the first game\'s PGN changed with the edit');
    await resign(page);
    check(page.errors.length === 0, page.errors.join('; '));
  });

  test('board editor: a Crazy Chess stack and Vazir ranks, placed by click and drag, the FEN copied, played against the engine; both editors on a phone', async () => {
    const page = await newPage({ permissions: ['clipboard-read', 'clipboard-write'] });
    await page.goto(base + '/#/setup/crazychess');
    check(await waitValid(page) === 'true', 'the start is not valid');
    // The knight of b1 goes onto the rook of a1: a stack. The check of the
    // board without the knight is held until the knight is placed: its
    // answer, about the board before that edit, must not show as the
    // edit's.
    const withoutKnight = 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/R1BQKBNR w';
    let asked, placed;
    const held = new Promise((r) => { asked = r; });
    const knightPlaced = new Promise((r) => { placed = r; });
    await page.route('**/api/analysis/position?*', async (route) => {
      if ((new URL(route.request().url()).searchParams.get('fen') || '').startsWith(withoutKnight)) {
        asked();
        await knightPlaced;
      }
      await route.continue();
    });
    await page.click('#tool-trash');
    await clickAt(page, 'b1');
    await held;
    await page.click('.palette-piece[data-piece="N"]');
    await clickAt(page, 'a1');
    const stale = page.waitForResponse((r) => r.url().includes('/api/analysis/position') && (new URL(r.url()).searchParams.get('fen') || '').startsWith(withoutKnight));
    placed();
    await stale;
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    const shown = await page.$eval('#setup-status', (s) => ({ valid: s.dataset.valid, fen: s.dataset.fen, text: s.textContent }));
    const now = await page.inputValue('#setup-fen');
    check(shown.valid === '' || shown.fen === now, `the answer about ${shown.fen} shows as the verdict (${shown.valid}: ${shown.text}) on ${now}`);
    await page.unroute('**/api/analysis/position?*');
    await page.waitForFunction(() => document.querySelector('#setup-fen')?.value.startsWith('rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/(RN)1BQKBNR w'));
    check(await waitValid(page) === 'true', `the stack is refused: ${await page.textContent('#setup-status')}`);
    check((await page.textContent('#stacks .stack[data-square="a1"]')).includes('R N'), 'the stack is not listed bottom to top');
    // One piece too many is refused, with the server's reason.
    await clickAt(page, 'h1');
    check(await waitValid(page) === 'false', 'a 33rd piece is accepted');
    check((await page.textContent('#setup-status')).includes('32'), `the error: ${await page.textContent('#setup-status')}`);
    await page.click('#tool-trash');
    await clickAt(page, 'h1');
    check(await waitValid(page) === 'true', `the position is not valid again: ${await page.inputValue('#setup-fen')}: ${await page.textContent('#setup-status')}`);
    const fen = await page.inputValue('#setup-fen');
    await page.click('#setup-copy');
    await page.waitForFunction(() => document.querySelector('#setup-msg')?.textContent === 'FEN copied');
    check(await page.evaluate(() => navigator.clipboard.readText()) === fen, 'the clipboard does not hold the FEN');
    await page.screenshot({ path: join(shots, 'setup.png') });
    await page.selectOption('#setup-level', '1');
    await page.click('#setup-engine');
    let id = await gameOpened(page, '#setup-msg');
    let g = await page.evaluate((id) => fetch(`/api/games/${id}`).then((r) => r.json()), id);
    check(g.start_fen === fen, `the game starts from ${g.start_fen}, not ${fen}`);
    await page.waitForSelector('#stacks .stack[data-square="a1"]');
    await waitMyMove(page);
    await typeMove(page, 'e2-e4');
    await waitMyMove(page);
    await resign(page);

    // Vazir: a knight of rank 7 by a click, a knight of rank 5 by a drag.
    await page.goto(base + '/#/setup/vazir');
    check(await waitValid(page) === 'true', 'the Vazir start is not valid');
    await page.selectOption('#setup-rank', '7');
    await page.click('.palette-piece[data-piece="N"]');
    await clickAt(page, 'b1');
    await page.selectOption('#setup-rank', '5');
    const chip = await page.locator('.palette-piece[data-piece="N"]').boundingBox();
    const [x, y] = await squareAt(page, 'g1');
    await page.mouse.move(chip.x + chip.width / 2, chip.y + chip.height / 2);
    await page.mouse.down();
    await page.mouse.move(x, y, { steps: 8 });
    await page.mouse.up();
    await page.waitForFunction(() => document.querySelector('#setup-fen')?.value.includes('/R0N7B0Q0K0B0N5R0 w'));
    check(await waitValid(page) === 'true', `the ranks are refused: ${await page.textContent('#setup-status')}`);
    const vfen = await page.inputValue('#setup-fen');
    await page.click('#setup-copy');
    await page.waitForFunction(() => document.querySelector('#setup-msg')?.textContent === 'FEN copied');
    check(await page.evaluate(() => navigator.clipboard.readText()) === vfen, 'the clipboard does not hold the Vazir FEN');
    await page.click('#setup-engine');
    id = await gameOpened(page, '#setup-msg');
    g = await page.evaluate((id) => fetch(`/api/games/${id}`).then((r) => r.json()), id);
    check(g.start_fen === vfen, `the Vazir game starts from ${g.start_fen}, not ${vfen}`);
    await waitMyMove(page);
    await resign(page);
    check(page.errors.length === 0, page.errors.join('; '));

    // Both pages on a phone: nothing scrolls sideways.
    const phone = await newPage(PHONE);
    for (const route of ['#/editor/greatshatranj', '#/setup/vazir', '#/setup/csipgs']) {
      await phone.goto(base + '/' + route);
      await phone.waitForSelector('cg-board');
      if (route.startsWith('#/editor')) await phone.waitForSelector('#editor-status[data-ok="true"]');
      // (csipgs's start may be refused here: the server does not analyse
      // a position on the board of a game this client plays, as an
      // earlier test's may be.)
      else check(await waitValid(phone) === 'true' || route.endsWith('csipgs'), `${route}: ${await phone.textContent('#setup-status')}`);
      await noOverflow(phone, route + ' on a phone');
    }
    await phone.screenshot({ path: join(shots, 'setup-phone.png') });
    check(phone.errors.length === 0, phone.errors.join('; '));
  });
}
