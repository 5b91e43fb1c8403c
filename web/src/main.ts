// The anychess web page: the router and the renderer. Each route is a
// page (lobby.ts, game.ts, analysis.ts, rules.ts, editor.ts, setup.ts)
// whose view() is a snabbdom tree of its state; redraw() patches the
// page's DOM to it.
import { attributesModule, classModule, datasetModule, eventListenersModule, h, init, propsModule, styleModule, type VNode } from 'snabbdom';
import { AnalysisView, parseRoute } from './analysis';
import { EditorPage } from './editor';
import { GameView } from './game';
import { installPieceCSS } from './lib/pieces';
import { Lobby } from './lobby';
import { LeaderboardPage, LoginPage, ProfilePage, accountView } from './people';
import { RulesPage } from './rules';
import { SetupPage } from './setup';
import type { Variant } from './types';
import { api, errorText, loadSession, setInvite, setRedraw, setVariants, variants } from './util';

/** Page is a page of the site: its view, and what ends it when another opens. */
interface Page {
  view(): VNode;
  close?(): void;
}

const patch = init([classModule, propsModule, attributesModule, styleModule, datasetModule, eventListenersModule]);

const app = document.getElementById('app') as HTMLElement;
let vnode: VNode | HTMLElement = app;
let account: VNode | HTMLElement | null = document.getElementById('account');
let sessionLoaded = false;
let current: Page | null = null;
let error = '';
let patching = false;
let again = false;

// render patches the page to the current page's view. A redraw asked for
// while patching (from a hook) is done right after.
function render(): void {
  if (patching) { again = true; return; }
  patching = true;
  if (vnode === app) app.replaceChildren(); // "Loading…" goes with the first page
  try {
    do {
      again = false;
      const kids = error ? [h('p.error', error)] : current ? [current.view()] : [];
      vnode = patch(vnode, h('main#app', kids));
      if (account && sessionLoaded) account = patch(account, accountView());
    } while (again);
  } finally {
    patching = false;
  }
}
setRedraw(render);

// route opens the page the location's hash names.
async function route(): Promise<void> {
  if (current && current.close) current.close();
  current = null;
  const hash = location.hash || '#/';
  const parts = hash.slice(2).split('/').filter(Boolean);
  if (!sessionLoaded) {
    await loadSession();
    sessionLoaded = true;
  }
  if (!variants().length) {
    try {
      setVariants(await api<Variant[]>('/api/variants'));
    } catch (e) {
      error = 'The server cannot be reached: ' + errorText(e);
      render();
      return;
    }
    for (const v of variants()) installPieceCSS(v.name, v.pieces);
  }
  if (parts[0] === 'game' && parts.length === 4) {
    setInvite({ id: parts[1], token: parts[3] });
    location.replace('#/game/' + parts[1]);
    return;
  }
  if (parts[0] === 'game' && parts[1]) current = new GameView(parts[1]);
  else if (parts[0] === 'analysis') current = new AnalysisView(parseRoute(hash));
  else if (parts[0] === 'rules' && parts[1]) current = new RulesPage(decodeURIComponent(parts[1]));
  else if (parts[0] === 'editor') current = new EditorPage(decodeURIComponent(parts[1] || ''));
  else if (parts[0] === 'setup' && parts[1]) {
    const [name, query = ''] = hash.slice('#/setup/'.length).split('?');
    current = new SetupPage(decodeURIComponent(name), new URLSearchParams(query).get('fen') || '');
  }
  else if (parts[0] === 'login') current = new LoginPage();
  else if (parts[0] === '@' && parts[1]) current = new ProfilePage(decodeURIComponent(parts[1]));
  else if (parts[0] === 'leaderboard') current = new LeaderboardPage(decodeURIComponent(parts[1] || 'chess'));
  else current = new Lobby();
  render();
}

window.addEventListener('hashchange', route);
route();
