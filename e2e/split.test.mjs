// The wasm cut at its source-level split points (src/pages/split.rs, src/chunks.rs, scripts/split.py):
// the overview runs on the main module alone; every other page brings its chunk when it is opened
// or its link is pointed at (never unasked), and a chunk that does not arrive is said so, page by
// page, with the rest of the app still working. The snapshot codec (the last visit's copy, the
// kept visits, snapshot links and files) and the fleet's reads live in chunks too.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startSim, launch, openMenu } from './helpers.mjs';

let browser;
let sim;
before(async () => { browser = await launch(); sim = await startSim(['--scenario', 'demo']); });
after(async () => { sim?.stop(); await browser?.close(); });

const CHUNK = /\/fluxlens-[0-9a-f]{16}\/(split_|chunk_)\w+\.wasm$/;
const rendered = () => performance.getEntriesByName('fluxlens:view-rendered').length > 0;
// The first load has read all it reads, and this visit's read is kept for the next.
const settled = () => ['fluxlens:load-settled', 'fluxlens:last-visit-kept'].every((m) => performance.getEntriesByName(m).length > 0);

async function open(path, { block = null } = {}) {
  const page = await (await browser.newContext()).newPage();
  const errors = [];
  const chunks = [];
  const asked = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('request', (r) => {
    const path = new URL(r.url()).pathname;
    asked.push(path);
    if (CHUNK.test(path)) chunks.push(path.split('/').pop());
  });
  if (block) await page.route(block, (route) => route.abort('connectionfailed'));
  await page.goto(sim.base + path);
  return { page, errors, chunks, asked };
}

const nav = (page, name) => page.locator(`nav.fl-nav a[href="/${name}"]`).click();

/** The paths of the app's files that came over the network (not from the browser's cache). */
const moved = (page) => page.evaluate(() => performance.getEntriesByType('resource')
  .filter((r) => r.transferSize > 0 && !new URL(r.name).pathname.startsWith('/api/'))
  .map((r) => new URL(r.name).pathname));

/** The wasm files the page asked for before its view was on screen. */
const wasmBeforeView = (page) => page.evaluate(() => {
  const shown = performance.getEntriesByName('fluxlens:view-rendered')[0].startTime;
  return performance.getEntriesByType('resource').filter((r) => r.name.endsWith('.wasm') && r.startTime < shown).map((r) => r.name.split('/').pop());
});

test('the overview is complete on the main module alone; a page\'s code comes when its link is pointed at, never unasked', async () => {
  const { page, errors, chunks } = await open('/?poll=600');
  await page.waitForFunction(rendered, null, { timeout: 30000 });
  assert.deepEqual(await wasmBeforeView(page), ['fluxlens_bg.wasm'], 'the main module, as a file, before the overview');
  assert.ok(await page.locator('[data-rule]').count() > 0, 'the overview shows its findings');
  await page.waitForFunction(settled, null, { timeout: 30000 });
  // The visit's whole load done: no page's own module came unasked (the codec, which keeps the
  // read, and the code it shares may).
  assert.deepEqual(chunks.filter((c) => c.startsWith('split_') && c !== 'split_fluxlens_snapshot.wasm'), []);
  // Pointing at a link fetches its page's code; the click then opens it without a loading line.
  for (const [name, shows] of [['graph', '[data-node-id]'], ['signatures', '[data-rule]'], ['migrations', '.fl-main h1'], ['compliance', '.fl-main h1'], ['changes', '.fl-main h1']]) {
    const link = page.locator(`nav.fl-nav a[href="/${name}"]`);
    const fetched = page.waitForResponse((r) => r.url().endsWith(`/split_fluxlens_${name}.wasm`));
    await link.hover();
    await fetched;
    await nav(page, name);
    await page.locator(shows).first().waitFor();
  }
  // Every file the visit moved, once (a second use of a file is the browser's cache's).
  const files = await moved(page);
  assert.deepEqual(files.filter((p, i) => files.indexOf(p) !== i), [], 'no file moved twice');
  assert.ok(!chunks.includes('split_fluxlens_fleet.wasm'), chunks.join(' '));
  assert.deepEqual(errors, []);
});

test('the page carries its scripts and style, not the module: a cold visit moves each byte once', async () => {
  const { page } = await open('/?poll=600');
  await page.waitForFunction(settled, null, { timeout: 30000 });
  const html = await (await page.request.get(sim.base + '/')).text();
  assert.ok(html.length < 40000, `index.html is ${html.length} characters`);
  assert.doesNotMatch(html, /application\/x-fluxlens-wasm|Set-Cookie|document\.cookie/);
  const files = await moved(page);
  assert.deepEqual(files.filter((p, i) => files.indexOf(p) !== i), [], 'a file moved twice');
  assert.ok(files.some((p) => p.endsWith('/fluxlens_bg.wasm')), files.join(' '));
  await page.context().close();
});

test('a page opened first brings its chunk at once', async () => {
  const { page, errors, chunks } = await open('/graph?poll=600');
  await page.locator('[data-node-id]').first().waitFor({ timeout: 30000 });
  assert.ok(chunks.includes('split_fluxlens_graph.wasm'), chunks.join(' '));
  assert.deepEqual(errors, []);
});

test('a chunk that does not arrive is said so on its page; the rest works, and the page loads once it can', async () => {
  let blocked = true;
  const { page, errors } = await open('/?poll=600');
  await page.route(/split_fluxlens_graph\.wasm$/, (route) => (blocked ? route.abort('connectionfailed') : route.continue()));
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

test('the embedded panel fetches only the chunk of the page it shows (and the codec that keeps its read)', async () => {
  const { page, errors, chunks } = await open('/embed/overview?poll=600');
  await page.waitForFunction(settled, null, { timeout: 30000 });
  // The codec brings the code it shares with pages (chunk_N); no page's own module comes.
  assert.deepEqual(chunks.filter((c) => c.startsWith('split_') && c !== 'split_fluxlens_snapshot.wasm'), []);
  const graph = await open('/embed/graph?poll=600');
  await graph.page.locator('[data-node-id]').first().waitFor({ timeout: 30000 });
  await graph.page.waitForFunction(settled, null, { timeout: 30000 });
  assert.ok(graph.chunks.every((c) => !/split_fluxlens_(signatures|migrations|compliance|fleet)\./.test(c)), graph.chunks.join(' '));
  assert.deepEqual([...errors, ...graph.errors], []);
});

test('without the snapshot codec\'s chunk: a snapshot link says why and contacts no API; a second visit shows the live read, no head start', async () => {
  const blockCodec = /split_fluxlens_snapshot\.wasm$/;
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
