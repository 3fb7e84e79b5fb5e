// The first load's reads made by the page's script before the wasm (#28, src/api/prefetch.js):
// they move reads earlier, never add one, and what a last visit remembered never shows.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startSim, launch, cleanup, prefetchScript } from './helpers.mjs';

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

// The view shown, the live data landed (a second visit shows the last visit's data first) and the
// first load done: its last read, the CRDs', follows the view (#51).
const rendered = () => ['fluxlens:view-rendered', 'fluxlens:data-ready', 'fluxlens:load-settled']
  .every((m) => performance.getEntriesByName(m).length > 0);
const STORE = 'fluxlens:reads:/';

/** One visit of `/` in `context` until the overview is complete: the API requests the server saw
 * (method, path, query: a sorted multiset), the page script's own, and the objects shown. */
async function visit(sim, context, { noPrefetch = false, seed = null } = {}) {
  const before = (await sim.log()).length;
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  // The app alone: the page without its prefetch script (the product reads no switch, #48).
  if (noPrefetch) {
    await page.route((url) => url.pathname === '/', async (route) => {
      const response = await route.fetch();
      const body = await response.text();
      const { start, end } = prefetchScript(body);
      const alone = body.slice(0, start) + body.slice(end);
      await route.fulfill({ response, body: alone });
    });
  }
  await page.addInitScript(([seed, store]) => {
    if (seed) localStorage.setItem(store, seed);
  }, [seed, STORE]);
  await page.goto(sim.base + '/?poll=600');
  await page.waitForFunction(rendered, null, { timeout: 30000 });
  const server = (await sim.log()).slice(before).filter((e) => e.path.startsWith('/api/'));
  const fromPage = await page.evaluate(() => performance.getEntriesByType('resource')
    .filter((r) => new URL(r.name).pathname.startsWith('/api/v1/'))
    .map((r) => ({ path: new URL(r.name).pathname, start: r.startTime, end: r.responseEnd })));
  const objects = await page.locator('[data-count=objects]').textContent();
  const remembered = await page.evaluate((store) => localStorage.getItem(store), STORE);
  await page.close();
  return { reads: server.map((e) => `${e.method} ${e.path}?${e.query}`).sort(), server, fromPage, objects, errors, remembered };
}

for (const scenario of ['demo', 'homelab']) {
  test(`${scenario}: each read of the first load is asked once, cold and on a second visit, most by the page before the wasm`, async () => {
    const sim = await startSim(['--scenario', scenario]);
    try {
      const context = await browser.newContext();
      // The app alone (the script off), then cold with the script, then a second visit.
      const alone = await visit(sim, context, { noPrefetch: true });
      assert.equal(alone.fromPage.length, 0);
      assert.equal(alone.remembered, null, 'the script off remembers nothing');
      const cold = await visit(sim, context);
      // Every answer takes 150 ms more, so "before the report has answered" is not a race.
      await sim.faults('latency-ms=150');
      const warm = await visit(sim, context);
      await sim.faults('reset=1');
      const gets = (v) => v.reads.filter((r) => r.startsWith('GET'));
      const posts = (v) => v.reads.filter((r) => r.startsWith('POST'));
      // The script sends the objects; the CRDs follow the view, read by the app (#51): the same
      // GETs, never more batches.
      assert.deepEqual(gets(cold), gets(alone), 'cold: the same GETs, each once, whoever sends them');
      assert.ok(posts(cold).length <= posts(alone).length, `cold: ${posts(cold).length} batches, the app alone ${posts(alone).length}`);
      // A second visit sends the last visit's objects at once: never more batches.
      assert.deepEqual(gets(warm), gets(alone), 'warm: the same GETs, each once');
      assert.ok(posts(warm).length <= posts(alone).length, `${posts(warm).length} batches, the app alone ${posts(alone).length}`);
      for (const v of [cold, warm]) {
        assert.equal(v.objects, alone.objects);
        assert.deepEqual(v.errors, []);
        // Every object batch was sent by the page, not by the app; the CRDs' read, by the app once
        // the view was shown (through its reader, not the page's own requests).
        const byPage = v.fromPage.filter((r) => r.path === '/api/v1/inventory/objects');
        assert.equal(byPage.length, posts(v).length - 1, 'every object batch came from the page script');
        assert.ok(v.server.every((e) => !e.mutating));
      }
      // The second visit sends what the last one read at once: every object batch leaves before
      // the report has answered (one round trip, not three).
      const report = warm.fromPage.find((r) => r.path === '/api/v1/report');
      const sent = warm.fromPage.filter((r) => r.path === '/api/v1/inventory/objects');
      assert.ok(sent.every((p) => p.start <= report.end), JSON.stringify({ report, sent }));
      const cold_report = cold.fromPage.find((r) => r.path === '/api/v1/report');
      assert.ok(cold.fromPage.filter((r) => r.path === '/api/v1/inventory/objects').every((p) => p.start >= cold_report.end), 'cold, the batches follow the answers');
      await context.close();
    } finally { await cleanup(browser, sim); }
  });
}

test('what a last visit remembered is only a head start: gone objects, old API versions and foreign paths never show or get asked', async () => {
  const sim = await startSim(['--scenario', 'demo']);
  try {
    const fresh = await visit(sim, await browser.newContext());
    const seed = JSON.stringify({
      v: 1,
      gets: ['/api/v1/events?kind=FluxInstance&name=gone&namespace=nowhere', '/api/v1/evil?x=1', 'https://elsewhere.example/api/v1/resources?kind=Alert', 7],
      posts: [
        [
          { apiVersion: 'source.toolkit.fluxcd.io/v0gone', kind: 'GitRepository', namespace: 'flux-system', name: 'flux-system' },
          { apiVersion: 'source.toolkit.fluxcd.io/v1', kind: 'GitRepository', namespace: 'gone', name: 'gone' },
          { kind: 1 }, null,
        ],
        'not a batch',
      ],
    });
    const context = await browser.newContext();
    const stale = await visit(sim, context, { seed });
    assert.deepEqual(stale.errors, []);
    assert.equal(stale.objects, fresh.objects, 'the objects shown are the lists\', not the memory\'s');
    assert.ok(!stale.server.some((e) => e.path === '/api/v1/evil'), 'only the read endpoints are replayed');
    assert.ok(stale.server.every((e) => !e.mutating));
    // The memory is rewritten from this visit's reads: nothing of the seed is left.
    const left = ['"gone"', 'v0gone', 'evil'].filter((s) => stale.remembered.includes(s));
    assert.deepEqual(left, [], stale.remembered.slice(0, 300));
    const page = await context.newPage();
    await page.goto(sim.base + '/graph?poll=600&ns=flux-system&group=0');
    await page.locator('g[data-node-id="GitRepository/flux-system/flux-system"]').waitFor();
    await page.goto(sim.base + '/graph?poll=600&ns=gone&group=0');
    await page.waitForFunction(() => performance.getEntriesByName('fluxlens:view-rendered').length > 0);
    assert.equal(await page.locator('g[data-node-id]').count(), 0);
    await context.close();
  } finally { await cleanup(browser, sim); }
});

test('an operator before v0.53, cold: the default list\'s objects are asked as soon as the report and that list have answered, not after the lists by kind', async () => {
  const sim = await startSim(['--scenario', 'demo', '--operator-version', 'v0.52.0']);
  try {
    // Every answer 150 ms later: the lists by kind, asked once the report has answered, are
    // still on their way when the default list has answered.
    await sim.faults('latency-ms=150');
    const page = await (await browser.newContext()).newPage();
    await page.goto(sim.base + '/?poll=600');
    await page.waitForFunction(rendered, null, { timeout: 30000 });
    const reads = await page.evaluate(() => performance.getEntriesByType('resource')
      .map((r) => ({ url: new URL(r.name), start: r.startTime, end: r.responseEnd }))
      .filter((r) => r.url.pathname.startsWith('/api/v1/'))
      .map((r) => ({ path: r.url.pathname, kind: r.url.searchParams.get('kind'), start: r.start, end: r.end })));
    const byKind = reads.filter((r) => r.path === '/api/v1/resources' && r.kind);
    const batches = reads.filter((r) => r.path === '/api/v1/inventory/objects').sort((a, b) => a.start - b.start);
    assert.ok(byKind.length > 0 && batches.length === 2, JSON.stringify(reads));
    const listsAnswered = Math.max(...byKind.map((r) => r.end));
    assert.ok(batches[0].start < listsAnswered, `the first batch left at ${batches[0].start}, the lists by kind answered at ${listsAnswered}`);
    // The lists' own objects follow them.
    assert.ok(batches[1].start >= listsAnswered - 1, JSON.stringify(batches));
  } finally { await cleanup(browser, sim); }
});

test('a second visit replays the last one\'s objects as the app sends them: 500 a batch, at most two in flight', async () => {
  // #47: the script replayed batches of 2,000, all at once, with no deadline.
  const sim = await startSim(['--synthetic', '2400']);
  try {
    const context = await browser.newContext();
    await visit(sim, context);
    await sim.faults('latency-ms=150');
    const before = (await sim.log()).length;
    const warm = await visit(sim, context);
    const batches = (await sim.log()).slice(before).filter((e) => e.path === '/api/v1/inventory/objects');
    assert.ok(batches.length >= 5, `${batches.length} batches`);
    for (const b of batches) assert.ok(b.objects.length <= 500, `a batch of ${b.objects.length}`);
    const sent = warm.fromPage.filter((r) => r.path === '/api/v1/inventory/objects');
    // The most in flight at any moment: at each start, those started and not yet answered.
    const most = Math.max(...sent.map((a) => sent.filter((b) => b.start <= a.start && b.end > a.start).length));
    assert.ok(most <= 2, `${most} batches in flight at once`);
    assert.deepEqual(warm.errors, []);
    await context.close();
  } finally { await cleanup(browser, sim); }
});
