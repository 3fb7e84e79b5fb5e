// The wasm cut in two (#28, src/pages/split.rs, scripts/split.py): the overview runs on the main
// module alone, every other page brings its chunk when it is opened (or after the first view,
// while the browser is idle), and a chunk that does not arrive is said so, page by page, with
// the rest of the app still working. What the first view does not run lives in chunks too
// (#51, src/chunks.rs): the snapshot codec (the last visit's copy, the kept visits, snapshot
// links and files) and the fleet's reads; a cold overview fetches neither before it is complete.
// Then the main module's functions the first view does not call (scripts/cold.py): fetched once
// the view is painted, or synchronously by the placeholder of one called before.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startSim, launch, openMenu } from './helpers.mjs';

let browser;
let sim;
before(async () => { browser = await launch(); sim = await startSim(['--scenario', 'demo']); });
after(async () => { sim?.stop(); await browser?.close(); });

const CHUNK = /\/(split_|chunk_)[\w]+-[0-9a-f]{1,16}\.wasm$/;
const COLD_MODULE = /\/cold-[0-9a-f]{1,16}\.wasm$/;
const rendered = () => performance.getEntriesByName('fluxlens:view-rendered').length > 0;

async function open(path, { block = null } = {}) {
  const page = await (await browser.newContext()).newPage();
  const errors = [];
  const chunks = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('request', (r) => { if (CHUNK.test(new URL(r.url()).pathname)) chunks.push(new URL(r.url()).pathname.split('/').pop()); });
  if (block) await page.route(block, (route) => route.abort('connectionfailed'));
  await page.goto(sim.base + path);
  return { page, errors, chunks };
}

const nav = (page, name) => page.locator(`nav.fl-nav a[href="/${name}"]`).click();

/** Waits until the cold module has been asked for (its resource entry, fetched or failed). */
const coldRequested = (page) => page.waitForFunction((cold) => performance.getEntriesByType('resource')
  .some((r) => new RegExp(cold).test(r.name)), COLD_MODULE.source, { timeout: 15000 });

/** The wasm files the page asked for before its view was on screen (what came after it, e.g. the
 * cold module fetched once the view is painted, may already be listed by the time this runs). */
const wasmBeforeView = (page) => page.evaluate(() => {
  const shown = performance.getEntriesByName('fluxlens:view-rendered')[0].startTime;
  return performance.getEntriesByType('resource').filter((r) => r.name.endsWith('.wasm') && r.startTime < shown).map((r) => r.name.split('/').pop());
});

test('the overview is complete on the main module alone, then the linked pages\' chunks follow while idle', async () => {
  const { page, errors, chunks } = await open('/?poll=600');
  await page.waitForFunction(rendered, null, { timeout: 30000 });
  // The page carries the main module (scripts/inline_wasm.py): no wasm file before the overview.
  const atView = await wasmBeforeView(page);
  assert.deepEqual(atView, [], `only the main module, carried by the page, before the overview: ${atView.join(' ')}`);
  assert.ok(await page.locator('[data-rule]').count() > 0, 'the overview shows its findings');
  // This visit's read is kept after the first view (the snapshot codec's chunk comes then).
  await page.waitForFunction(() => performance.getEntriesByType('resource').some((r) => r.name.includes('/split_fluxlens_snapshot-')), null, { timeout: 15000 });
  // So does the main module's code the first view did not run (#51, scripts/cold.py).
  await coldRequested(page);
  // After the first view, the five linked pages' own modules are fetched (the fleet's is not).
  await page.waitForFunction(() => ['graph', 'signatures', 'migrations', 'compliance', 'changes']
    .every((p) => performance.getEntriesByType('resource').some((r) => r.name.includes(`/split_fluxlens_${p}-`))), null, { timeout: 15000 });
  assert.ok(!chunks.some((c) => c.startsWith('split_fluxlens_fleet-')), chunks.join(' '));
  const fetched = chunks.length;
  // Then every page opens without another request and without a loading line.
  for (const [name, shows] of [['graph', '[data-node-id]'], ['signatures', '[data-rule]'], ['migrations', '.fl-main h1'], ['compliance', '.fl-main h1'], ['changes', '.fl-main h1']]) {
    await nav(page, name);
    await page.locator(shows).first().waitFor();
    assert.equal(await page.getByText('Loading this page…').count(), 0, name);
  }
  assert.equal(chunks.length, fetched, 'no chunk fetched twice');
  assert.deepEqual(errors, []);
});

test('the first view needs none of the cold code on a cluster shaped like the operator\'s own; the rest of the app does', async () => {
  // A list that moves a function this first view runs fails here (make first-view:
  // scripts/cold-functions.txt): the overview would wait for a synchronous fetch of the cold module.
  const mock = await startSim(['--scenario', 'operator-mock']);
  try {
    const page = await (await browser.newContext()).newPage();
    const errors = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    await page.goto(mock.base + '/?poll=600');
    await page.waitForFunction(rendered, null, { timeout: 30000 });
    const atView = await wasmBeforeView(page);
    assert.deepEqual(atView, []);
    await coldRequested(page);
    await nav(page, 'graph');
    await page.locator('[data-node-id]').first().waitFor();
    assert.deepEqual(errors, []);
  } finally { mock.stop(); }
});

test('a second visit (the last visit\'s copy first) needs none of the cold code before its view either', async () => {
  const context = await browser.newContext();
  const first = await context.newPage();
  await first.goto(sim.base + '/?poll=600');
  await first.waitForFunction(() => performance.getEntriesByName('fluxlens:last-visit-kept').length > 0, null, { timeout: 30000 });
  await first.close();
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.goto(sim.base + '/?poll=600');
  await page.waitForFunction(rendered, null, { timeout: 30000 });
  assert.deepEqual((await wasmBeforeView(page)).filter((n) => COLD_MODULE.test('/' + n)), []);
  assert.deepEqual(errors, []);
  await context.close();
});

test('a call into the cold code before it arrived fetches it at once: the share menu works while the cold module\'s own fetch fails', async () => {
  const page = await (await browser.newContext()).newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  const cold = [];
  // Its fetch after the first view fails; the synchronous request a placeholder makes does not.
  await page.route(COLD_MODULE, (route) => {
    cold.push(route.request().resourceType());
    return route.request().resourceType() === 'xhr' ? route.continue() : route.abort('connectionfailed');
  });
  await page.goto(sim.base + '/?poll=600');
  await page.waitForFunction(rendered, null, { timeout: 30000 });
  await coldRequested(page);
  assert.ok(!cold.includes('xhr'), 'nothing called into the cold code yet');
  await openMenu(page, 'share');
  await page.getByRole('button', { name: 'Share snapshot' }).click();
  assert.match(await page.locator('[data-share-link]').inputValue(), /#snap=fl1\./);
  assert.ok(cold.includes('xhr'), `the cold module fetched synchronously: ${cold.join(' ')}`);
  assert.deepEqual(errors, []);
});

test('a page whose carried module arrived cut short or altered starts from the module\'s file instead', async () => {
  // scripts/inline_wasm.py: each block is checked as it is fed to the compiler, and the module
  // script, once the page is parsed, fails the compile when a block never came.
  const BLOCK = /<script type="application\/x-fluxlens-wasm">[^<]*<\/script><script>__fluxlensFeed\(document\.currentScript\)<\/script>/g;
  const edits = {
    'cut short': (html) => { const all = [...html.matchAll(BLOCK)]; const last = all[all.length - 1]; return html.slice(0, last.index) + html.slice(last.index + last[0].length); },
    'a block lost': (html) => html.replace(BLOCK, (m, offset) => (offset === html.search(BLOCK) ? '' : m)),
    'altered': (html) => html.replace(/(<script type="application\/x-fluxlens-wasm">)(.)/, (_, a) => `${a}\uFFFD`),
  };
  for (const [how, edit] of Object.entries(edits)) {
    const page = await (await browser.newContext()).newPage();
    const errors = [];
    const files = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    page.on('request', (r) => { if (/\/fluxlens-[0-9a-f]{1,16}_bg\.wasm$/.test(r.url())) files.push(r.url()); });
    await page.route((url) => url.pathname === '/', async (route) => {
      const response = await route.fetch();
      const html = await response.text();
      const edited = edit(html);
      assert.ok(edited.length < html.length || edited !== html, how);
      await route.fulfill({ status: 200, contentType: 'text/html; charset=utf-8', body: edited });
    });
    await page.goto(sim.base + '/?poll=600');
    await page.waitForFunction(rendered, null, { timeout: 30000 });
    assert.equal(files.length, 1, `${how}: the main module's file, once`);
    assert.ok(await page.locator('[data-rule]').count() > 0, `${how}: the overview shows its findings`);
    assert.equal(await page.locator('script[type="application/x-fluxlens-wasm"]').count(), 0, `${how}: no block left in the page`);
    assert.deepEqual(errors, [], how);
    await page.context().close();
  }
});

test('a page opened first brings its chunk at once', async () => {
  const { page, errors, chunks } = await open('/graph?poll=600');
  await page.locator('[data-node-id]').first().waitFor({ timeout: 30000 });
  assert.ok(chunks.some((c) => c.startsWith('split_fluxlens_graph-')), chunks.join(' '));
  assert.deepEqual(errors, []);
});

test('a chunk that does not arrive is said so on its page; the rest works, and the page loads once it can', async () => {
  let blocked = true;
  const { page, errors } = await open('/?poll=600');
  await page.route(/split_fluxlens_graph-[0-9a-f]+\.wasm$/, (route) => (blocked ? route.abort('connectionfailed') : route.continue()));
  await page.waitForFunction(rendered, null, { timeout: 30000 });
  await nav(page, 'graph');
  const notice = page.locator('[data-notice=chunk-failed]');
  await notice.waitFor({ timeout: 15000 });
  assert.equal(await notice.getAttribute('role'), 'alert');
  assert.match(await notice.textContent(), /did not arrive/);
  assert.equal(await page.locator('[data-node-id]').count(), 0);
  // The app is alive: another page opens.
  await nav(page, 'signatures');
  await page.locator('[data-rule]').first().waitFor();
  // A failed fetch is not remembered: with the network back, the graph opens.
  blocked = false;
  await nav(page, 'graph');
  await page.locator('[data-node-id]').first().waitFor({ timeout: 15000 });
  assert.equal(await notice.count(), 0);
  assert.deepEqual(errors.filter((e) => !/failed to load split module|Failed to fetch/.test(e)), []);
});

test('a second visit\'s page fetches and compiles the snapshot codec\'s chunk itself, and the app takes those compiles', async () => {
  const { page: first } = await open('/?poll=600');
  await first.waitForFunction(() => performance.getEntriesByName('fluxlens:last-visit-kept').length > 0, null, { timeout: 30000 });
  const again = await first.context().newPage();
  const errors = [];
  const asked = [];
  again.on('pageerror', (e) => errors.push(String(e)));
  again.on('request', (r) => { if (CHUNK.test(new URL(r.url()).pathname)) asked.push(new URL(r.url()).pathname.split('/').pop()); });
  await again.goto(sim.base + '/?poll=600');
  await again.waitForFunction(rendered, null, { timeout: 30000 });
  // src/api/prefetch.js started one compile per file of the chunk (scripts/eager_chunks.py
  // lists them), the loader took every one of them, and no file was asked for twice.
  const early = await again.evaluate(() => window.__fluxlensEarlyChunks && Object.keys(window.__fluxlensEarlyChunks));
  assert.deepEqual(early, [], 'every compile the page started was taken by the loader');
  assert.ok(asked.some((c) => c.startsWith('split_fluxlens_snapshot-')), asked.join(' '));
  assert.equal(new Set(asked).size, asked.length, `a chunk file asked for twice: ${asked.join(' ')}`);
  // The last visit's copy was shown with them, then the live read replaced it.
  await again.locator('.fl-freshness[data-freshness=fresh]').waitFor({ timeout: 15000 });
  assert.deepEqual(errors, []);
  // A first visit starts none.
  const { page: cold } = await open('/?poll=600');
  await cold.waitForFunction(rendered, null, { timeout: 30000 });
  assert.equal(await cold.evaluate(() => window.__fluxlensEarlyChunks), undefined);
});

test('the embedded panel fetches only the chunk of the page it shows (and the codec that keeps its read)', async () => {
  const { page, errors, chunks } = await open('/embed/overview?poll=600');
  await page.waitForFunction(rendered, null, { timeout: 30000 });
  await page.waitForTimeout(2500);
  // The codec brings the code it shares with pages (chunk_N); no page's own module comes.
  assert.deepEqual(chunks.filter((c) => c.startsWith('split_') && !c.startsWith('split_fluxlens_snapshot-')), []);
  const graph = await open('/embed/graph?poll=600');
  await graph.page.locator('[data-node-id]').first().waitFor({ timeout: 30000 });
  await graph.page.waitForTimeout(2500);
  assert.ok(graph.chunks.every((c) => !/split_fluxlens_(signatures|migrations|compliance|fleet)-/.test(c)), graph.chunks.join(' '));
  assert.deepEqual([...errors, ...graph.errors], []);
});

test('without the snapshot codec\'s chunk: a snapshot link says why and contacts no API; a second visit shows the live read, no head start', async () => {
  const blockCodec = /split_fluxlens_snapshot-[0-9a-f]+\.wasm$/;
  // A snapshot link made where the chunk arrives.
  const made = await open('/?poll=600');
  await made.page.waitForFunction(rendered, null, { timeout: 30000 });
  await openMenu(made.page, 'share');
  await made.page.getByRole('button', { name: 'Share snapshot' }).click();
  const link = await made.page.locator('[data-share-link]').inputValue();
  assert.match(link, /#snap=fl1\./);
  const before = (await sim.log()).length;
  const { page, errors } = await open(link.replace(/^http:\/\/127\.0\.0\.1:\d+/, ''), { block: blockCodec });
  const error = page.locator('[data-snapshot-error]');
  await error.waitFor({ timeout: 15000 });
  assert.match(await error.textContent(), /did not arrive.*Reload the page/);
  const api = (await sim.log()).slice(before).filter((e) => e.path.startsWith('/api/'));
  assert.deepEqual(api, [], 'a snapshot link never contacts the API, even when it cannot be opened');
  assert.deepEqual(errors.filter((e) => !/failed to load split module|Failed to fetch/.test(e)), []);
  // A second visit in the same browser (its read kept by the first) with the codec blocked.
  const ctx = made.page.context();
  const again = await ctx.newPage();
  await again.route(blockCodec, (route) => route.abort('connectionfailed'));
  await again.goto(sim.base + '/?poll=600');
  await again.waitForFunction(rendered, null, { timeout: 30000 });
  await again.locator('[data-rule]').first().waitFor();
  assert.equal(await again.locator('[data-notice=last-visit]').count(), 0, 'not said to be the last visit\'s: it is live');
  assert.equal(await again.locator('.fl-freshness').getAttribute('data-freshness'), 'fresh');
});
