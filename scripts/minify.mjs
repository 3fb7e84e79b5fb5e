// What scripts/minify.py runs: stdin minified to stdout by esbuild's JS API (the CLI of
// `esbuild-wasm` crashes under Node 20 when it reads stdin).
//   node scripts/minify.mjs js|css [--whitespace-only]     node scripts/minify.mjs --version
import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';

const esbuild = createRequire(import.meta.url)('esbuild-wasm');
const [loader, how] = process.argv.slice(2);
if (loader === '--version') {
  process.stdout.write(`esbuild-wasm ${esbuild.version}\n`);
} else {
  const minify = how === '--whitespace-only' ? { minifyWhitespace: true } : { minify: true };
  const format = loader === 'js' && !minify.minifyWhitespace ? { format: 'esm' } : {};
  const { code } = esbuild.transformSync(readFileSync(0, 'utf8'), { loader, ...minify, ...format, logLevel: 'error' });
  process.stdout.write(code);
}
