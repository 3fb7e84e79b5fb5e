// Browser benchmark: bundle transfer size, timings from navigation to the fluxlens marks,
// memory and API requests, on the demo and synthetic scenarios (median of RUNS runs).
// Writes the "browser" section of BENCHMARKS.md. Run through `make bench`.
import { readdirSync, readFileSync, writeFileSync, statSync } from 'node:fs';
import { gzipSync, brotliCompressSync, constants } from 'node:zlib';
import { startSim, launch } from '../e2e/helpers.mjs';

const RUNS = Number(process.env.RUNS || 5);
const ROOT = new URL('..', import.meta.url).pathname;
const median = (xs) => { const s = [...xs].sort((a, b) => a - b); return s[Math.floor(s.length / 2)]; };
const kb = (n) => (n / 1024).toFixed(1);

// What each file is, for the size table: the overview's first load needs the page, the app's
// script and the main module; the rest arrives later or elsewhere.
function part(f) {
  // The build's folder (fluxlens-<hash>/, scripts/split.py) holds the app's modules.
  const inBuild = f.replace(/^fluxlens-[0-9a-f]{16}\//, '');
  if (inBuild === 'fluxlens_bg.wasm') return { name: 'wasm: the main module (the overview and the app)', first: true };
  // Code the overview's first view does not run (src/chunks.rs), apart from the pages'.
  if (inBuild === 'split_fluxlens_snapshot.wasm') return { name: 'wasm: the snapshot codec (keeps this visit\'s read after the first view; last visit, snapshot links)' };
  if (inBuild === 'split_fluxlens_fleet.wasm') return { name: 'wasm: the fleet page and its reads (only on /fleet)' };
  if (f.endsWith('.wasm')) return { name: 'wasm: the other pages\' chunks and the code they share (fetched when a page opens or its link is pointed at)' };
  if (inBuild === 'fluxlens.js') return { name: 'js: the app\'s bindings', first: true };
  if (inBuild === '__wasm_split.js') return { name: 'js: the chunks\' loader (wasm-split)', first: true };
  if (inBuild.startsWith('snippets/')) return { name: 'js: the API reader (imported at start; also the reader worker\'s script)', first: true };
  if (f.endsWith('.js')) return { name: 'js: the launcher plugin (fluxlens-element.js)' };
  if (f === 'index.html') return { name: 'html: index.html (style and page scripts inline)', first: true };
  if (f === 'rules.html') return { name: 'html: the rule reference (rules.html, opened from a finding)' };
  return { name: `other: ${f}` };
}

function sizes() {
  const byPart = new Map();
  let total = { raw: 0, gz: 0, br: 0 };
  let first = { raw: 0, gz: 0, br: 0 };
  // Every file, also in directories (snippets/ holds the reader worker's script).
  for (const f of readdirSync(`${ROOT}dist`, { recursive: true })) {
    if (f.endsWith('.gz') || f.endsWith('.br')) continue; // the build's precompressed copies
    if (f.startsWith('.')) continue; // the build's stamp (.build-inputs), never served
    if (!statSync(`${ROOT}dist/${f}`).isFile()) continue;
    const buf = readFileSync(`${ROOT}dist/${f}`);
    const gz = gzipSync(buf, { level: 9 }).length;
    const br = brotliCompressSync(buf, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length;
    const p = part(f);
    const row = byPart.get(p.name) || { name: p.name, files: 0, raw: 0, gz: 0, br: 0 };
    byPart.set(p.name, { name: p.name, files: row.files + 1, raw: row.raw + buf.length, gz: row.gz + gz, br: row.br + br });
    total = { raw: total.raw + buf.length, gz: total.gz + gz, br: total.br + br };
    if (p.first) first = { raw: first.raw + buf.length, gz: first.gz + gz, br: first.br + br };
  }
  const rows = [...byPart.values()].sort((a, b) => a.name.localeCompare(b.name));
  return { rows, total, first };
}

async function measure(browser, simArgs, label) {
  const sim = await startSim(simArgs);
  const runs = [];
  try {
    for (let i = 0; i < RUNS; i++) {
      await fetch(`${sim.base}/__sim/log?clear=1`);
      const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
      const page = await context.newPage();
      await page.addInitScript(() => addEventListener('fluxlens:wasm-started', (e) => { window.__wasm = e.detail.wasm; }));
      await page.goto(`${sim.base}/graph?group=0&flat=1&poll=600`);
      await page.waitForFunction(() => performance.getEntriesByName('fluxlens:graph-laid-out').length > 0 && performance.getEntriesByName('fluxlens:view-rendered').length > 0, null, { timeout: 120000 });
      const t = await page.evaluate(() => {
        const at = (n) => performance.getEntriesByName(n)[0].startTime;
        return { ready: at('fluxlens:data-ready'), laid: at('fluxlens:graph-laid-out'), rendered: at('fluxlens:view-rendered'),
                 wasm: window.__wasm?.memory?.buffer?.byteLength ?? 0, dom: document.getElementsByTagName('*').length };
      });
      const cdp = await context.newCDPSession(page);
      const metrics = (await cdp.send('Performance.getMetrics').catch(() => ({ metrics: [] }))).metrics;
      await cdp.send('Performance.enable');
      const heap = ((await cdp.send('Performance.getMetrics')).metrics.find((m) => m.name === 'JSHeapUsedSize') || { value: 0 }).value;
      void metrics;
      const api = (await sim.log()).filter((e) => e.path.startsWith('/api/')).length;
      runs.push({ ...t, heap, api });
      await context.close();
    }
  } finally { sim.stop(); }
  const m = (k) => median(runs.map((r) => r[k]));
  return { label, ready: m('ready'), laid: m('laid'), rendered: m('rendered'), layoutOnly: median(runs.map((r) => r.laid - r.ready)),
           mem: m('heap') + m('wasm'), heap: m('heap'), wasm: m('wasm'), api: m('api'), dom: m('dom') };
}

const browser = await launch();
const s = sizes();
const results = [];
for (const [args, label, n] of [[['--scenario', 'demo'], 'demo (190)', 190], [['--synthetic', '200'], 'synthetic 200', 200], [['--synthetic', '1000'], 'synthetic 1,000', 1000], [['--synthetic', '5000'], 'synthetic 5,000', 5000]]) {
  results.push({ ...(await measure(browser, args, label)), n });
  console.error(`measured ${label}`);
}
await browser.close();

const date = new Date().toISOString().slice(0, 10);
let md = `<!-- browser:start (generated by \`make bench\`, ${date}; median of ${RUNS} runs, headless Chromium, 1280×800, route /graph?flat=1: every object drawn) -->\n`;
md += `### Transfer size (release build, bytes)\n\n| part | files | raw | gzip -9 | brotli -q11 |\n|---|---|---|---|---|\n`;
for (const r of s.rows) md += `| ${r.name} | ${r.files} | ${r.raw} | ${r.gz} | ${r.br} |\n`;
md += `| **the overview's first load** (page, scripts, main module) | | ${s.first.raw} | ${s.first.gz} | **${s.first.br}** (${kb(s.first.br)} KiB) |\n`;
md += `| **total** | | ${s.total.raw} | **${s.total.gz}** (${kb(s.total.gz)} KiB; target ≤ 150 KB: ${s.total.gz <= 150000 ? 'met' : 'NOT met'}) | ${s.total.br} |\n\n`;
md += `### Timings, memory, requests\n\n| scenario | data-ready (ms) | graph-laid-out (ms) | view-rendered (ms) | ready → laid out (ms) | JS heap + wasm memory (MB) | API requests (budget 3 + ⌈N/500⌉ + 2) | DOM elements |\n|---|---|---|---|---|---|---|---|\n`;
for (const r of results) md += `| ${r.label} | ${r.ready.toFixed(0)} | ${r.laid.toFixed(0)} | ${r.rendered.toFixed(0)} | ${r.layoutOnly.toFixed(0)} | ${(r.mem / 1e6).toFixed(1)} (${(r.heap / 1e6).toFixed(1)} + ${(r.wasm / 1e6).toFixed(1)}) | ${r.api} (${3 + Math.ceil(r.n / 500) + 2}) | ${r.dom} |\n`;
md += `<!-- browser:end -->`;
const file = `${ROOT}BENCHMARKS.md`;
const cur = readFileSync(file, 'utf8');
const next = cur.includes('<!-- browser:start') ? cur.replace(/<!-- browser:start[\s\S]*<!-- browser:end -->/, md) : `${cur}\n${md}\n`;
writeFileSync(file, next);
console.log(md);
