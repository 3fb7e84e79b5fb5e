// Fleet benchmark (#25): a hub of N simulated clusters × 300 objects each (synthetic, healthy),
// read by /fleet as shipped (4 clusters at a time). Per size, median of RUNS cold loads:
// - time until every row is complete (`fluxlens:view-rendered` on /fleet, set when no row is
//   loading), and until the first row is;
// - peak memory while loading (JS heap + wasm linear memory, sampled every 100 ms) and after
//   (only the rows are kept, never the objects);
// - API requests per cluster (the hub's log, by /clusters/<name>/ prefix): the first read, and
//   a steady round after it (each cluster's poller keeps what it read: a round costs a poll);
// then the per-cluster cost from the slope between the sizes, and what it predicts for 50 and
// 200 clusters. Writes the "fleet" section of BENCHMARKS.md. Run through `make bench`.
import { mkdtempSync, writeFileSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSim, launch } from '../e2e/helpers.mjs';

const ROOT = new URL('..', import.meta.url).pathname;
const RUNS = Number(process.env.RUNS || 3);
const OBJECTS = 300;
const SIZES = (process.env.FLEET_SIZES || '5,20').split(',').map(Number);
const IN_FLIGHT = 4; // src/api/fleet.rs IN_FLIGHT
const STEADY_AFTER_S = 10; // the next round's wait (`?poll=`), for the steady round's count
const median = (xs) => { const s = [...xs].sort((a, b) => a - b); return s[Math.floor(s.length / 2)]; };

function fleetDir(n) {
  const dir = mkdtempSync(join(tmpdir(), 'fluxlens-fleet-bench-'));
  const clusters = Array.from({ length: n }, (_, i) => ({
    name: `c${String(i + 1).padStart(3, '0')}`, scenario: `synthetic-healthy:${OBJECTS}`, labels: { wave: String(1 + (i % 4)) },
  }));
  writeFileSync(join(dir, 'fleet.json'), JSON.stringify({ clusters }));
  return dir;
}

async function once(browser, sim, n) {
  await fetch(`${sim.base}/__sim/log?clear=1`);
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  const page = await context.newPage();
  await page.addInitScript(() => addEventListener('fluxlens:wasm-started', (e) => { window.__wasm = e.detail.wasm; }));
  const cdp = await context.newCDPSession(page);
  await cdp.send('Performance.enable');
  const memory = async () => {
    const heap = ((await cdp.send('Performance.getMetrics')).metrics.find((m) => m.name === 'JSHeapUsedSize') || { value: 0 }).value;
    const wasm = await page.evaluate(() => window.__wasm?.memory?.buffer?.byteLength ?? 0).catch(() => 0);
    return heap + wasm;
  };
  let peak = 0;
  let sampling = true;
  const sampler = (async () => { while (sampling) { peak = Math.max(peak, await memory().catch(() => 0)); await new Promise((r) => setTimeout(r, 100)); } })();
  await page.goto(`${sim.base}/fleet?poll=${STEADY_AFTER_S}`);
  await page.waitForFunction(() => performance.getEntriesByName('fluxlens:view-rendered').length > 0, null, { timeout: 300000 });
  sampling = false;
  await sampler;
  const t = await page.evaluate(() => ({ complete: performance.getEntriesByName('fluxlens:view-rendered')[0].startTime }));
  const first = await page.evaluate(() => document.querySelectorAll('tr[data-state=ok]').length);
  await cdp.send('HeapProfiler.collectGarbage').catch(() => {});
  const after = await memory();
  const perCluster = async (clear) => {
    const log = await (await fetch(`${sim.base}/__sim/log${clear ? '?clear=1' : ''}`)).json();
    const per = new Map();
    const objects = new Map();
    for (const e of log) {
      const m = /^\/clusters\/([^/]+)\/api\//.exec(e.path);
      if (m) per.set(m[1], (per.get(m[1]) || 0) + 1);
      if (m) objects.set(m[1], (objects.get(m[1]) || 0) + (e.objects?.length || 0));
    }
    per.objects = objects;
    return per;
  };
  const per = await perCluster(true);
  // The next round: every cluster polled, then the log quiet for 1.5 s.
  let steady = new Map();
  for (let quiet = 0, last = -1; quiet < 3;) {
    await new Promise((r) => setTimeout(r, 500));
    steady = await perCluster(false);
    const total = [...steady.values()].reduce((x, y) => x + y, 0);
    quiet = steady.size === n && total === last ? quiet + 1 : 0;
    last = total;
  }
  await context.close();
  if (first !== n || per.size !== n) throw new Error(`${first} of ${n} rows ok, ${per.size} clusters read`);
  return {
    complete: t.complete, peak, after, requests: median([...per.values()]), steady: median([...steady.values()]),
    objects: median([...per.objects.values()]), steadyObjects: median([...steady.objects.values()]),
  };
}

const browser = await launch();
const results = [];
try {
  for (const n of SIZES) {
    const sim = await startSim(['--scenario', fleetDir(n)]);
    try {
      const runs = [];
      for (let i = 0; i < RUNS; i++) runs.push(await once(browser, sim, n));
      const m = (k) => median(runs.map((r) => r[k]));
      results.push({ n, complete: m('complete'), peak: m('peak'), after: m('after'), requests: m('requests'), steady: m('steady'), objects: m('objects'), steadyObjects: m('steadyObjects') });
      console.log(results.at(-1));
    } finally { sim.stop(); }
  }
} finally { await browser.close(); }

const [a, b] = [results[0], results.at(-1)];
const perCluster = (b.complete - a.complete) / (b.n - a.n); // ms of wall time each added cluster costs
const perWave = perCluster * IN_FLIGHT;
const predict = (n) => b.complete + perCluster * (n - b.n);
const peakPer = (b.peak - a.peak) / (b.n - a.n);
const keptPer = (b.after - a.after) / (b.n - a.n);
const mb = (x) => (x / 1e6).toFixed(1);
let md = `<!-- fleet:start (generated by \`make bench\`, ${new Date().toISOString().slice(0, 10)}; median of ${RUNS} cold loads of /fleet, headless Chromium, simulator on the same host, clusters of ${OBJECTS} synthetic healthy objects, ${IN_FLIGHT} read at a time) -->\n`;
md += '| clusters | every row complete (ms) | peak memory while loading (MB) | memory after (MB) | per cluster, first read: requests (objects read) | then per round, a poll: requests (objects read) |\n|---|---|---|---|---|---|\n';
for (const r of results) md += `| ${r.n} | ${r.complete.toFixed(0)} | ${mb(r.peak)} | ${mb(r.after)} | ${r.requests} (${r.objects}) | ${r.steady} (${r.steadyObjects}) |\n`;
md += `\nFrom the slope between ${a.n} and ${b.n} clusters: each added cluster costs ${perCluster.toFixed(0)} ms of wall time (${perWave.toFixed(0)} ms per cluster read, ${IN_FLIGHT} at a time); what stays after a full garbage collection grows by ${mb(keptPer)} MB a cluster (its row, its table row's DOM and reactive nodes, and its poller's memory: the objects it read, kept so that each later round costs a poll, not a cold read), and the peak while loading by ${mb(peakPer)} MB a cluster (garbage of the reads not yet collected, with at most ${IN_FLIGHT} clusters' objects live at once). `;
md += `Predicted at the same size per cluster: **50 clusters ≈ ${(predict(50) / 1000).toFixed(1)} s and ${mb(b.after + keptPer * (50 - b.n))} MB kept; 200 clusters ≈ ${(predict(200) / 1000).toFixed(1)} s and ${mb(b.after + keptPer * (200 - b.n))} MB kept** until every row is complete. After the first read each round costs a cluster ${b.steady} requests and ${b.steadyObjects} object reads (a dashboard's unchanged poll: the rolling re-read), so at the default round of 60 s **200 clusters cost ${200 * b.steady} requests and ${200 * b.steadyObjects} object reads a minute** (${200 * b.requests} and ${200 * b.objects} if every round were a cold read, as before #47); the price is the memory above, each cluster's objects kept. `;
md += `Rows fill progressively: the first are on screen after one cluster read, not after the last.\n<!-- fleet:end -->`;
const file = `${ROOT}BENCHMARKS.md`;
const s = readFileSync(file, 'utf8');
const next = s.includes('<!-- fleet:start') ? s.replace(/<!-- fleet:start[\s\S]*<!-- fleet:end -->/, md) : `${s.trimEnd()}\n\n## Fleet\n\n${md}\n`;
writeFileSync(file, next);
console.log(md);
