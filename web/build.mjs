// Builds the page from src/ into dist/ with esbuild: one bundled app.js,
// one app.css (chessgroundx's base style, ours, and the analysis board's
// and rules pages' study.css), and index.html.
import * as esbuild from 'esbuild';
import { copyFileSync, mkdirSync, readFileSync, writeFileSync, rmSync } from 'node:fs';

rmSync('dist', { recursive: true, force: true });
mkdirSync('dist', { recursive: true });
await esbuild.build({
  entryPoints: ['src/app.js'],
  bundle: true,
  minify: true,
  format: 'esm',
  target: ['es2020'],
  outfile: 'dist/app.js',
  legalComments: 'none',
});
const css = readFileSync('node_modules/chessgroundx/assets/chessground.base.css', 'utf8') + '\n' + readFileSync('src/style.css', 'utf8') + '\n' + readFileSync('src/study.css', 'utf8');
writeFileSync('dist/app.css', css);
copyFileSync('src/index.html', 'dist/index.html');
copyFileSync('src/favicon.svg', 'dist/favicon.svg');
console.log('built dist/');
