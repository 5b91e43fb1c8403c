// Browser tests of seeks, accounts, ratings and profiles (web/src/seeks.ts,
// web/src/people.ts), registered by run.mjs with its helpers. Each page
// from newPage is a browser context of its own: its own cookies and
// localStorage, as another visitor's browser.
import { join } from 'node:path';

export function peopleTests({ test, newPage, check, base, shots, createGame, typeMove, waitOver, noOverflow, PHONE }) {
  const PASSWORD = 'correct horse battery';
  const sfx = Date.now().toString(36).slice(-6);
  const ANN = 'Ann_' + sfx, BOB = 'Bob_' + sfx;
  let ann = null, bob = null, game = '';

  // signUp signs a page up under name from the sign-in page.
  async function signUp(page, name) {
    await page.goto(base + '/#/login');
    await page.waitForSelector('#login-name');
    await page.fill('#login-name', name);
    await page.fill('#login-password', PASSWORD);
    await page.click('#signup');
    await page.waitForSelector('#me-link');
    check((await page.textContent('#me-link')).trim() === name, `the header names ${await page.textContent('#me-link')}, not ${name}`);
  }

  // lobby opens the lobby and waits for its feed's list of seeks.
  async function lobby(page) {
    await page.goto(base + '/#/');
    await page.waitForSelector('#seeks[data-ready="yes"]');
  }

  // play plays a move once it is the seat's turn.
  async function play(page, seat, move) {
    await page.waitForFunction((s) => document.body.dataset.turn === s && document.querySelector('#status').textContent.includes('your move'), seat);
    await typeMove(page, move);
  }

  // ratingOf reads a player's rating in chess from its profile.
  async function ratingOf(page, name) {
    await page.goto(base + '/#/@/' + name);
    await page.waitForSelector('#profile-name');
    const row = await page.waitForSelector('tr.rating-row[data-variant="chess"]');
    return { rating: Number(await row.getAttribute('data-rating')), text: (await row.textContent()).trim() };
  }

  test('seeks: a rated seek posted in one page appears in another within a second, is accepted, both play; both ratings change', async () => {
    ann = await newPage();
    bob = await newPage();
    // Both visitors go on into the tests below.
    ann.context().keep = true;
    bob.context().keep = true;
    await signUp(ann, ANN);
    await signUp(bob, BOB);
    await lobby(ann);
    await lobby(bob);
    await ann.selectOption('#seek-variant', 'chess');
    await ann.selectOption('#seek-tc', '180000+2000');
    await ann.selectOption('#seek-color', 'white');
    check(await ann.isChecked('#seek-rated'), 'a signed-in visitor\'s seek is not rated by default');
    await ann.click('#seek-post');
    const own = await ann.waitForSelector('tr.seek[data-own="yes"]');
    check(!(await own.$('button.accept')), 'the poster is offered to accept its own seek');
    const t0 = Date.now();
    const row = await bob.waitForSelector(`tr.seek:has-text("${ANN}")`);
    const took = Date.now() - t0;
    check(took < 1000, `the seek took ${took} ms to reach the other lobby`);
    const text = (await row.textContent()).trim();
    check(text.includes('1500?') && text.includes('rated') && text.includes('3+2') && text.includes('white'), `the seek reads ${text}`);
    check(await row.getAttribute('data-own') === 'no', 'the other visitor is told the seek is its own');
    // Another tab of the same account sees the seek as its own: no Accept.
    const tab = await ann.context().newPage();
    await lobby(tab);
    const mine = await tab.waitForSelector(`tr.seek:has-text("${ANN}")`);
    check(await mine.getAttribute('data-own') === 'yes' && !(await mine.$('button.accept')), 'another tab of the poster\'s account may accept its seek');
    await tab.close();
    await row.$eval('button.accept', (b) => b.click());
    await bob.waitForSelector('body[data-seat="black"]');
    await ann.waitForSelector('body[data-seat="white"]');
    game = bob.url().split('/').pop();
    check(ann.url().split('/').pop() === game, `the poster went to ${ann.url()}, the accepter to ${bob.url()}`);
    for (const p of [ann, bob]) {
      await p.waitForSelector('#players[data-rated="yes"]');
      const said = (await p.textContent('#players')).trim();
      check(said.includes(ANN) || said.includes(ANN.toLowerCase()), `the players read ${said}`);
      check(said.includes('1500?') && said.includes('rated'), `the players read ${said}`);
    }
    // Fool's mate: the poster (White) loses.
    await play(ann, 'white', 'f3');
    await play(bob, 'black', 'e5');
    await play(ann, 'white', 'g4');
    await play(bob, 'black', 'Qh4#');
    await waitOver(ann);
    await waitOver(bob);
    // The game page shows the ratings after the game.
    await ann.waitForFunction(() => {
      const w = document.querySelector('#players .player[data-color="white"]');
      const b = document.querySelector('#players .player[data-color="black"]');
      return w && b && Number(w.dataset.rating) < 1500 && Number(b.dataset.rating) > 1500;
    });
    const a = await ratingOf(ann, ANN);
    const b = await ratingOf(bob, BOB);
    check(a.rating < 1500 && a.text.includes('?'), `the loser's profile says ${a.text}`);
    check(b.rating > 1500 && b.text.includes('?'), `the winner's profile says ${b.text}`);
    await ann.waitForSelector('.rating-graph[data-variant="chess"] polyline', { state: 'attached' });
    const lost = await ann.waitForSelector(`li.profile-game[data-game="${game}"]`);
    check(await lost.getAttribute('data-outcome') === 'loss', `the loser's game says ${await lost.getAttribute('data-outcome')}`);
    check((await lost.$eval('a.analyse', (l) => l.getAttribute('href'))).includes('#/analysis/game/' + game), 'the game does not link to its analysis');
    await bob.waitForSelector(`li.profile-game[data-game="${game}"][data-outcome="win"]`);
    // A name links to the profile; the game to its replay.
    await (await lost.$('a.replay')).click();
    await ann.waitForSelector('body[data-seat="white"] #status[data-over="yes"]');
    check(ann.url().endsWith('#/game/' + game), `the replay link opened ${ann.url()}`);
    await ann.click(`#players a.player-name[data-user]:has-text("${BOB}")`);
    await ann.waitForSelector(`#profile-name:has-text("${BOB}")`);
    check(ann.errors.length === 0 && bob.errors.length === 0, ann.errors.concat(bob.errors).join('; '));
  });

  test('profiles: games filtered by result and paged; leaderboards', async () => {
    const page = bob;
    await page.goto(base + '/#/@/' + BOB);
    await page.waitForSelector(`li.profile-game[data-game="${game}"]`);
    await page.selectOption('#games-result', 'loss');
    await page.waitForSelector('#profile-games[data-loading="no"] li.dim:has-text("No games")');
    await page.selectOption('#games-result', 'win');
    await page.waitForSelector(`#profile-games[data-loading="no"] li.profile-game[data-game="${game}"]`);
    check(!(await page.$('#games-more')), 'a single page of games offers more');
    // Paging: "More" asks for the page after the cursor the server gave,
    // with the same filters, and adds its games below (the server's pages
    // of one player's games, as if it had more than a page of them).
    const asked = [];
    await page.route('**/api/users/*/games?*', async (route) => {
      const url = new URL(route.request().url());
      asked.push(url.search);
      if (!url.searchParams.get('before')) {
        const real = await (await route.fetch()).json();
        return route.fulfill({ json: { ...real, next: 'cursor-1' } });
      }
      return route.fulfill({ json: { games: [{ game: 'older0000001', seat: 'white', variant: 'chess', created: '2026-01-02T03:04:05Z', opponent: ANN.toLowerCase(), rated: true, class: 'blitz', outcome: 'win', result: '1-0', replay: '/#/game/older0000001', analysis: '/#/analysis/game/older0000001' }] } });
    });
    await page.selectOption('#games-variant', 'chess');
    await page.waitForSelector('#games-more');
    await page.click('#games-more');
    await page.waitForSelector('li.profile-game[data-game="older0000001"]');
    const order = await page.$$eval('li.profile-game', (els) => els.map((e) => e.dataset.game));
    check(order.join(' ') === `${game} older0000001`, `the games after More: ${order.join(' ')}`);
    check(!(await page.$('#games-more')), 'the last page still offers more');
    const last = new URLSearchParams(asked[asked.length - 1]);
    check(last.get('before') === 'cursor-1' && last.get('result') === 'win' && last.get('variant') === 'chess', `the next page was asked as ${asked[asked.length - 1]}`);
    await page.unroute('**/api/users/*/games?*');
    await page.goto(base + '/#/leaderboard/chess');
    await page.waitForSelector('#leaderboard-variant');
    // Provisional ratings stay off the leaderboards.
    check(!(await page.$(`.leaderboard a.player-name:has-text("${BOB}")`)), 'a provisional rating is on the leaderboard');
  });

  test('accounts: sign out and sign in again from the header', async () => {
    const page = ann;
    await lobby(page);
    await page.click('#signout');
    await page.waitForSelector('#signin-link');
    await page.waitForSelector('#seeks[data-ready="yes"]');
    check(!(await page.$('#seek-rated')), 'a signed-out visitor is offered a rated seek');
    await page.click('#signin-link');
    await page.fill('#login-name', ANN.toUpperCase());
    await page.fill('#login-password', 'wrong password');
    await page.click('#login');
    await page.waitForSelector('#login-error:has-text("wrong user name or password")');
    await page.fill('#login-password', PASSWORD);
    await page.click('#login');
    await page.waitForSelector('#me-link');
    check((await page.textContent('#me-link')).trim() === ANN, `signed in as ${await page.textContent('#me-link')}`);
    // A POST from the signed-in page carries the CSRF token: game creation works.
    const id = await createGame(page, { variant: 'chess', opponent: 'engine' });
    check(/^[\w-]+$/.test(id), `no game created: ${page.url()}`);
    check(page.errors.length === 0, page.errors.join('; '));
  });

  test('quick pairing between two anonymous visitors; the waiting one may only cancel its seek', async () => {
    const c = await newPage(), d = await newPage();
    await lobby(c);
    await lobby(d);
    await c.selectOption('#seek-variant', 'chess');
    await d.selectOption('#seek-variant', 'chess');
    await c.click('.quick-pair[data-label="5+3"]');
    await c.waitForSelector('#seek-note:has-text("Waiting")');
    const own = await c.waitForSelector('tr.seek[data-own="yes"]');
    check(await own.$('button.cancel') && !(await own.$('button.accept')), 'the waiting visitor may accept its own seek');
    await d.waitForSelector('tr.seek[data-own="no"]');
    await d.click('.quick-pair[data-label="5+3"]');
    await d.waitForSelector('body[data-seat]');
    await c.waitForSelector('body[data-seat]');
    check(c.url().split('/').pop() === d.url().split('/').pop(), `paired into ${c.url()} and ${d.url()}`);
    const seats = [await c.getAttribute('body', 'data-seat'), await d.getAttribute('body', 'data-seat')].sort().join(' ');
    check(seats === 'black white', `the seats are ${seats}`);
    await c.context().close();
    await d.context().close();
  });

  test('a seek disappears from the other lobbies when its poster leaves', async () => {
    const c = await newPage(), d = await newPage();
    await lobby(c);
    await lobby(d);
    await c.selectOption('#seek-variant', 'chatrang');
    await c.selectOption('#seek-tc', '900000+10000');
    await c.click('#seek-post');
    const id = await (await c.waitForSelector('tr.seek[data-own="yes"]')).getAttribute('data-id');
    await d.waitForSelector(`tr.seek[data-id="${id}"]`);
    await c.context().close();
    // The server keeps a seek for a few seconds after its poster's feed
    // closed (the grace for a reload), then withdraws it from every lobby.
    await d.waitForSelector(`tr.seek[data-id="${id}"]`, { state: 'detached' });
  });

  test('the engine\'s levels are offered with their Elo when the server has measured it', async () => {
    const page = await newPage();
    // The server's levels as they are, with an Elo and its margin given
    // to some (as a server whose levels were measured answers).
    const levels = await (await fetch(base + '/api/engine/levels')).json();
    const measured = levels.map((l) => (l.level % 2 === 0 ? { ...l, elo: 1000 + 150 * l.level, margin: 40 } : l));
    await page.route('**/api/engine/levels', (route) => route.fulfill({ json: measured }));
    await page.goto(base + '/#/');
    await page.waitForSelector('#level');
    await page.waitForFunction(() => (document.querySelector('#level option[value="4"]') || {}).textContent === 'level 4 · about 1600');
    for (const l of measured) {
      const label = (await page.textContent(`#level option[value="${l.level}"]`)).trim();
      const want = l.elo ? `level ${l.level} · about ${l.elo}` : `level ${l.level}`;
      check(label === want, `level ${l.level} reads "${label}", not "${want}"`);
    }
  });

  test('claiming: a game played anonymously is claimed at sign-up in the same browser and shows in the profile', async () => {
    const page = await newPage();
    const id = await createGame(page, { variant: 'chess', opponent: 'engine' });
    page.once('dialog', (dlg) => dlg.accept());
    await page.waitForSelector('#resign:not([hidden])');
    await page.click('#resign');
    await waitOver(page);
    await page.goto(base + '/#/login');
    await page.waitForSelector('#claim');
    check(await page.isChecked('#claim'), 'the anonymous game is not offered for claiming');
    const name = 'Cay_' + sfx;
    await page.fill('#login-name', name);
    await page.fill('#login-password', PASSWORD);
    await page.click('#signup');
    await page.waitForSelector(`#profile-name:has-text("${name}")`);
    const li = await page.waitForSelector(`li.profile-game[data-game="${id}"]`);
    const text = (await li.textContent()).trim();
    check(text.includes('engine level 1') && text.includes('casual') && li && (await li.getAttribute('data-outcome')) === 'loss', `the claimed game reads ${text}`);
    check(page.errors.length === 0, page.errors.join('; '));
    await page.context().close();
  });

  test('screenshots and phones: the lobby with seeks and a profile, no sideways scrolling at 390 px', async () => {
    const anon = await newPage();
    await lobby(anon);
    await anon.selectOption('#seek-variant', 'greatshatranj');
    await anon.selectOption('#seek-tc', '600000+5000');
    await anon.click('#seek-post');
    await lobby(bob);
    await bob.selectOption('#seek-tc', '300000+3000');
    await bob.selectOption('#seek-color', 'black');
    await bob.fill('#seek-min', '1300');
    await bob.fill('#seek-max', '1800');
    await bob.click('#seek-post');
    await lobby(ann);
    await ann.waitForFunction(() => document.querySelectorAll('tr.seek').length >= 2);
    await ann.screenshot({ path: join(shots, 'seeks.png') });
    const phone = await newPage(PHONE);
    await lobby(phone);
    await phone.waitForFunction(() => document.querySelectorAll('tr.seek').length >= 2);
    await noOverflow(phone, 'the lobby with seeks at 390 px');
    await phone.goto(base + '/#/@/' + BOB);
    await phone.waitForSelector('.rating-graph polyline', { state: 'attached' });
    await phone.waitForSelector('li.profile-game');
    await noOverflow(phone, 'a profile at 390 px');
    await phone.screenshot({ path: join(shots, 'phone-profile.png') });
    await bob.goto(base + '/#/@/' + BOB);
    await bob.waitForSelector('.rating-graph polyline', { state: 'attached' });
    await bob.waitForSelector('li.profile-game');
    await bob.screenshot({ path: join(shots, 'profile.png') });
    check(phone.errors.length === 0 && anon.errors.length === 0, phone.errors.concat(anon.errors).join('; '));
    for (const p of [phone, anon, ann, bob]) await p.context().close();
  });
}
