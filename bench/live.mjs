// Live-session benchmark (#22, #23): a page left open on an unchanged cluster, through a fault
// and back, at 200, 1,000 and 5,000 objects (synthetic, healthy). Measures, per size:
// - API requests per poll (and per hour at the default 30 s): steady over a whole refetch cycle,
//   while a kind's List fails, and after it recovers;
// - main-thread time per unchanged poll (CDP TaskDuration between two polls; median, and the
//   slowest, which is the poll that decodes the whole list afresh), beside what a bare page
//   spends making the same reads on its own main thread (the app makes them in a worker); on a
//   page whose polling is off, the same span costs under 1 ms, so this is the poll's own cost;
// - DOM nodes added + removed per unchanged poll on /, /graph and /signatures;
// - API requests per pan / zoom gesture on the graph with a node selected;
// - time for one changed object to show: from the start of the poll that carries it to its
//   node's data-status on screen.
// Writes the "live" section of BENCHMARKS.md. Run through `make bench`.
import { readFileSync, writeFileSync } from 'node:fs';
import { startSim, launch } from '../e2e/helpers.mjs';

const ROOT = new URL('..', import.meta.url).pathname;
const POLL = 2; // seconds, the shortest the app accepts: the same work per poll, sooner
const CYCLE = 10; // polls in one rolling refetch cycle (loader FULL_REFETCH_POLLS)
const median = (xs) => { const s = [...xs].sort((a, b) => a - b); return s[Math.floor(s.length / 2)]; };
const SIZES = (process.env.LIVE_SIZES || '200,1000,5000').split(',').map(Number);

const apiCalls = (log) => log.filter((e) => e.path.startsWith('/api/'));
const polls = (log) => log.filter((e) => e.path === '/api/v1/report').length;

async function waitPolls(sim, n) {
  const start = polls(await sim.log());
  for (;;) {
    await new Promise((r) => setTimeout(r, 200));
    if (polls(await sim.log()) >= start + n) return;
  }
}

/** Requests per poll over `n` polls, counted from the simulator's log. */
async function requestsPerPoll(sim, n) {
  await waitPolls(sim, 1);
  await fetch(`${sim.base}/__sim/log?clear=1`);
  await waitPolls(sim, n);
  // The log now ends with the report of poll n+1: count what came before it.
  const log = await sim.log();
  const lastReport = log.map((e) => e.path).lastIndexOf('/api/v1/report');
  return apiCalls(log.slice(0, lastReport)).length / n;
}

async function open(browser, sim, path) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  await page.goto(`${sim.base}${path}`);
  await page.waitForFunction(() => performance.getEntriesByName('fluxlens:view-rendered').length > 0, null, { timeout: 120000 });
  return { context, page };
}

/** Main-thread milliseconds between consecutive polls (each delta one poll cycle). */
async function mainThreadPerPoll(sim, page, n) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Performance.enable');
  const task = async () => (await cdp.send('Performance.getMetrics')).metrics.find((m) => m.name === 'TaskDuration').value * 1000;
  await waitPolls(sim, 1);
  const deltas = [];
  let last = await task();
  for (let i = 0; i < n; i++) {
    await waitPolls(sim, 1);
    const now = await task();
    deltas.push(now - last);
    last = now;
  }
  return { median: median(deltas), max: Math.max(...deltas) };
}

/** DOM nodes added + removed per poll over `n` polls of unchanged data. */
async function churnPerPoll(sim, page, n) {
  await waitPolls(sim, 1);
  await page.evaluate(() => {
    window.__churn = 0;
    new MutationObserver((ms) => { for (const m of ms) window.__churn += m.addedNodes.length + m.removedNodes.length; })
      .observe(document.body, { subtree: true, childList: true });
  });
  await waitPolls(sim, n);
  return (await page.evaluate(() => window.__churn)) / n;
}

/** The browser's own cost of a steady poll's reads: a bare page on the same origin that asks
 *  for what the app asks in a steady poll (the report, the default list, one batch of
 *  REREAD_MAX objects) and only reads each answer as text and compares it with the last. */
async function floorPerPoll(browser, sim) {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(`${sim.base}/api/v1/report`);
  await page.evaluate(async (poll) => {
    const api = { Kustomization: 'kustomize.toolkit.fluxcd.io/v1', HelmRelease: 'helm.toolkit.fluxcd.io/v2',
      ResourceSet: 'fluxcd.controlplane.io/v1', ResourceSetInputProvider: 'fluxcd.controlplane.io/v1',
      FluxInstance: 'fluxcd.controlplane.io/v1', ArtifactGenerator: 'source.extensions.fluxcd.io/v1beta1' };
    const rows = (await (await fetch('/api/v1/resources')).json()).resources || [];
    const batch = JSON.stringify({ objects: rows.slice(0, 100).map((r) => ({ apiVersion: api[r.kind] || 'source.toolkit.fluxcd.io/v1', kind: r.kind, namespace: r.namespace, name: r.name })) });
    const last = {};
    const read = async (key, p) => { const t = await (await p).text(); window.__same = t === last[key]; last[key] = t; };
    setInterval(async () => {
      await read('report', fetch('/api/v1/report'));
      await read('list', fetch('/api/v1/resources'));
      await read('batch', fetch('/api/v1/inventory/objects', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: batch }));
    }, poll * 1000);
  }, POLL);
  await waitPolls(sim, 2);
  const cpu = await mainThreadPerPoll(sim, page, CYCLE);
  await context.close();
  return cpu.median;
}

async function gestureRequests(browser, sim, key) {
  const { context, page } = await open(browser, sim, `/graph?flat=1&poll=600&sel=${encodeURIComponent(key)}`);
  // Quiet first: the load's last reads and the selected object's events (its side panel reads
  // them once) landed in the gestures' count when it began 500 ms after the page (#48: the
  // "0.09 requests per gesture" was that one read, not a gesture's).
  for (let last = -1, quiet = 0; quiet < 3; await page.waitForTimeout(300)) {
    const now = apiCalls(await sim.log()).length;
    quiet = now === last ? quiet + 1 : 0;
    last = now;
  }
  await fetch(`${sim.base}/__sim/log?clear=1`);
  const box = await page.locator('svg').first().boundingBox();
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  for (let i = 0; i < 10; i++) await page.mouse.wheel(0, i % 2 ? 120 : -120);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width / 2 + 150, box.y + box.height / 2 + 80, { steps: 10 });
  await page.mouse.up();
  await page.waitForTimeout(800);
  const n = apiCalls(await sim.log()).length;
  await context.close();
  return n / 11; // ten wheel ticks and one drag
}

async function timeToShow(browser, sim, key) {
  // The overview at full size: the object's kind row moves from Ready to Failed.
  const { context, page } = await open(browser, sim, `/?poll=${POLL}`);
  const row = '[data-table=by-kind] tr[data-kind=Kustomization]';
  await page.locator(row).waitFor({ timeout: 60000 });
  await page.evaluate((sel) => {
    // The app marks each poll's start (fluxlens:poll-started, one entry kept); the reads
    // themselves run in the reader worker, out of this page's resource timeline.
    window.__polls = [];
    new PerformanceObserver((l) => l.getEntries().filter((e) => e.name === 'fluxlens:poll-started').forEach((e) => window.__polls.push(e.startTime)))
      .observe({ type: 'mark' });
    const before = document.querySelector(sel).textContent;
    new MutationObserver(() => {
      const el = document.querySelector(sel);
      if (el && el.textContent !== before && !window.__shownAt) window.__shownAt = performance.now();
    }).observe(document.body, { subtree: true, childList: true, characterData: true });
  }, row);
  const [kind, ns, name] = key.split('/');
  await fetch(`${sim.base}/__sim/set-ready?object=${kind}/${ns}/${name}&ready=0&message=bench`);
  await page.waitForFunction(() => window.__shownAt, null, { timeout: 60000 });
  const ms = await page.evaluate(() => {
    const starts = window.__polls.filter((t) => t < window.__shownAt);
    return window.__shownAt - Math.max(...starts);
  });
  await context.close();
  return ms;
}

const browser = await launch();
const rows = [];
try {
  for (const n of SIZES) {
    const sim = await startSim(['--synthetic-healthy', String(n)]);
    try {
      const ks = (await (await fetch(`${sim.base}/api/v1/resources?kind=Kustomization`)).json()).resources;
      const target = ks.find((k) => k.namespace !== 'flux-system') || ks[0];
      const key = `Kustomization/${target.namespace}/${target.name}`;
      const { context, page } = await open(browser, sim, `/?poll=${POLL}`);
      // Past the first load and one whole re-read cycle (the roots every 10 polls, the rest at
      // most REREAD_MAX = 100 a poll: load::rolling_reread), so what follows is the steady state.
      await waitPolls(sim, Math.max(CYCLE, Math.ceil(n / 100)) + 2);
      const steady = await requestsPerPoll(sim, CYCLE);
      const cpu = await mainThreadPerPoll(sim, page, CYCLE);
      const churn = { overview: await churnPerPoll(sim, page, 3) };
      for (const [view, path] of [['graph', '/graph'], ['signatures', '/signatures']]) {
        await page.goto(`${sim.base}${path}?poll=${POLL}`);
        await page.waitForFunction(() => performance.getEntriesByName('fluxlens:view-rendered').length > 0, null, { timeout: 120000 });
        churn[view] = await churnPerPoll(sim, page, 3);
      }
      await sim.faults('fail-list=Kustomization');
      const fault = await requestsPerPoll(sim, CYCLE);
      await sim.faults('fail-list=');
      await waitPolls(sim, 1);
      const after = await requestsPerPoll(sim, CYCLE);
      await context.close();
      const floor = await floorPerPoll(browser, sim);
      const gesture = await gestureRequests(browser, sim, key);
      const show = await timeToShow(browser, sim, key);
      rows.push({ n, steady, fault, after, cpu, floor, churn, gesture, show });
      console.error(`measured live ${n}`);
    } finally { sim.stop(); }
  }
} finally { await browser.close(); }

const date = new Date().toISOString().slice(0, 10);
const f1 = (x) => x.toFixed(1);
const hour = (x) => Math.round(x * 120);
let md = `<!-- live:start (generated by \`make bench\`, ${date}; synthetic healthy clusters, headless Chromium, poll every ${POLL} s — the same work per poll as the default 30 s; per hour = per poll × 120) -->\n`;
md += `| objects | requests / poll, steady (per hour) | while a kind's List fails (per hour) | after it recovers (per hour) | main-thread ms / unchanged poll: median (slowest: the renewal poll) | the same reads on a bare page's main thread, no worker (ms) | DOM nodes added + removed / unchanged poll: overview, graph, signatures | API requests / pan or zoom gesture | one changed object on screen (ms from its poll's start) |\n|---|---|---|---|---|---|---|---|---|\n`;
for (const r of rows) {
  md += `| ${r.n} | ${f1(r.steady)} (${hour(r.steady)}) | ${f1(r.fault)} (${hour(r.fault)}) | ${f1(r.after)} (${hour(r.after)}) | ${f1(r.cpu.median)} (${f1(r.cpu.max)}) | ${f1(r.floor)} | ${r.churn.overview}, ${r.churn.graph}, ${r.churn.signatures} | ${r.gesture} | ${Math.round(r.show)} |\n`;
}
md += `\nTargets (#23): 0 DOM nodes added or removed per unchanged poll, < 16 ms main thread per unchanged poll at 5,000, 0 requests per gesture.\n<!-- live:end -->`;
const file = `${ROOT}BENCHMARKS.md`;
const cur = readFileSync(file, 'utf8');
writeFileSync(file, cur.includes('<!-- live:start') ? cur.replace(/<!-- live:start[\s\S]*<!-- live:end -->/, md) : `${cur}\n## Live session\n\n${md}\n`);
console.log(md);
