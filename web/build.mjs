// Builds the page from src/ with esbuild: dist/app.js, one bundle of the
// TypeScript from src/main.ts; dist/app.css (chessgroundx's base style,
// ours, and the analysis board's and rules pages' study.css);
// dist/index.html and the icon. It also writes the pure helpers of
// src/lib (dice, fen, pieces) as JavaScript modules for node, for the
// tests that run them there: src/dice.mjs, src/fen.mjs, src/pieces.js.
//
// With --check it writes nothing: it builds in memory and fails, naming
// them, when a built file differs from the one on disk (a stale dist/).
// Type checking is tsc's (npx tsc --noEmit): esbuild only strips types.
import * as esbuild from 'esbuild';
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';

const check = process.argv.includes('--check');

// NODE_MODULES are the helpers written for node: source and output.
const NODE_MODULES = [
  ['src/lib/dice.ts', 'src/dice.mjs'],
  ['src/lib/fen.ts', 'src/fen.mjs'],
  ['src/lib/pieces.ts', 'src/pieces.js'],
];

const out = new Map(); // path -> contents (Buffer or string)

const app = await esbuild.build({
  entryPoints: ['src/main.ts'],
  bundle: true,
  minify: true,
  format: 'esm',
  target: ['es2020'],
  outfile: 'dist/app.js',
  legalComments: 'none',
  write: false,
});
for (const f of app.outputFiles) out.set('dist/app.js', Buffer.from(f.contents));
out.set('dist/app.css', readFileSync('node_modules/chessgroundx/assets/chessground.base.css', 'utf8') + '\n' + readFileSync('src/style.css', 'utf8') + '\n' + readFileSync('src/study.css', 'utf8'));
out.set('dist/index.html', readFileSync('src/index.html'));
out.set('dist/favicon.svg', readFileSync('src/favicon.svg'));
for (const [src, dst] of NODE_MODULES) {
  const r = await esbuild.transform(readFileSync(src, 'utf8'), { loader: 'ts', format: 'esm', target: 'es2020' });
  out.set(dst, `// Built by build.mjs from ${src.replace(/^src\//, '')} for node; do not edit.\n` + r.code);
}

if (check) {
  const stale = [];
  for (const [path, body] of out) {
    if (!existsSync(path) || !Buffer.from(body).equals(readFileSync(path))) stale.push(path);
  }
  for (const name of readdirSync('dist')) {
    if (!out.has('dist/' + name)) stale.push('dist/' + name + ' (not built from src)');
  }
  if (stale.length) {
    console.error('stale: ' + stale.join(', ') + ': run npm run build in web/ and commit the result');
    process.exit(1);
  }
  console.log('dist/ and the node modules match src/');
} else {
  rmSync('dist', { recursive: true, force: true });
  mkdirSync('dist', { recursive: true });
  for (const [path, body] of out) writeFileSync(path, body);
  console.log('built dist/');
}
