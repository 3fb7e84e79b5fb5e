// A live session on the real server's ordinary faults (#22): poll through a fault and back and
// check what a person sees — nothing invented, nothing lost, the staleness said.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startSim, launch, newPage, cleanup, pollsRun, frames } from './helpers.mjs';

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

const text = async (page, sel) => (await page.locator(sel).first().textContent()).trim();
const freshness = (page, state) => page.locator(`[data-freshness=${state}]`).waitFor({ timeout: 20000 });

test('a confirming read that fails is "not confirmed", never Missing; it becomes Missing once the server answers', async () => {
  const sim = await startSim(['--scenario', 'broken', '--confirm-fail']);
  try {
    const page = await newPage(browser);
    await page.goto(sim.base + '/?poll=2');
    await page.locator('[data-count=objects]').waitFor();
    // Nothing unconfirmed is called missing, and no absence finding is raised above info:
    // while the confirming read is under way ("Confirming…"), and once it has failed.
    assert.equal(await text(page, '[data-count=missing]'), '0');
    assert.equal(await page.locator('[data-rule="MIG-GO-02"]:not([data-severity=info])').count(), 0);
    await page.waitForFunction(() => /could not be confirmed[^]*confirming read failed/.test(
      [...document.querySelectorAll('.fl-notice')].map((n) => n.textContent).join(' ')), null, { timeout: 20000 });
    assert.equal(await text(page, '[data-count=missing]'), '0');
    assert.equal(await page.locator('[data-rule="MIG-GO-02"]:not([data-severity=info])').count(), 0);
    // The server recovers: the next poll asks again and the dangling references are confirmed.
    await sim.faults('confirm-fail=0');
    await page.waitForFunction(() => Number(document.querySelector('[data-count=missing]')?.textContent) >= 3, null, { timeout: 20000 });
    assert.ok(await page.locator('[data-rule="MIG-GO-02"][data-severity=high], [data-rule="MIG-GO-02"][data-severity=critical]').count() >= 1);
    assert.deepEqual(page.errors, []);
  } finally { await cleanup(browser, sim); }
});

test('the server degrades after a good load (namespace listing fails): the last objects stay, stale; fresh again after', async () => {
  const sim = await startSim(['--scenario', 'homelab']);
  try {
    const page = await newPage(browser);
    await page.goto(sim.base + '/?poll=2');
    await page.locator('[data-count=objects]').waitFor();
    await freshness(page, 'fresh');
    const before = await text(page, '[data-count=objects]');
    assert.ok(Number(before) > 200, before);
    await sim.faults('namespaces-fail=1');
    await freshness(page, 'stale');
    assert.equal(await text(page, '[data-count=objects]'), before, 'nothing lost');
    assert.equal(await page.locator('[data-error]').getAttribute('data-error'), 'Degraded');
    assert.match(await text(page, '[data-error]'), /stale since/i);
    // #46: scrolled to the bottom, as on a wall screen, the staleness is still in view.
    await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
    await frames(page);
    const box = await page.locator('[data-freshness=stale]').boundingBox();
    assert.ok(box && box.y >= 0 && box.y + box.height <= page.viewportSize().height, JSON.stringify(box));
    // Still stale two polls later: never an empty, healthy-looking page.
    await pollsRun(page, 2);
    assert.equal(await text(page, '[data-count=objects]'), before);
    await sim.faults('namespaces-fail=0');
    await freshness(page, 'fresh');
    assert.equal(await text(page, '[data-count=objects]'), before);
    assert.equal(await page.locator('[data-error]').count(), 0);
    // On /graph the notice floats over the canvas: the canvas does not move down (#46).
    await page.goto(sim.base + '/graph?poll=2');
    await page.locator('.fl-canvas').waitFor();
    await freshness(page, 'fresh');
    const top = (await page.locator('.fl-canvas').boundingBox()).y;
    await sim.faults('namespaces-fail=1');
    await page.locator('[data-error]').waitFor({ timeout: 20000 });
    assert.equal((await page.locator('.fl-canvas').boundingBox()).y, top, 'the stale notice pushed the canvas');
    const note = await page.locator('[data-error]').boundingBox();
    assert.ok(note.y >= 0 && note.y + note.height <= page.viewportSize().height, 'the notice is in view');
    await sim.faults('namespaces-fail=0');
    await freshness(page, 'fresh');
    assert.deepEqual(page.errors, []);
  } finally { await cleanup(browser, sim); }
});

test('a kind whose List fails mid-session keeps its objects, read by name; nothing of it is called missing', async () => {
  const sim = await startSim(['--scenario', 'homelab']);
  try {
    const page = await newPage(browser);
    await page.goto(sim.base + '/?poll=2');
    await page.locator('[data-count=objects]').waitFor();
    const before = await text(page, '[data-count=objects]');
    await sim.faults('fail-list=HelmRelease');
    const notice = page.locator('[data-incomplete-kind=HelmRelease]');
    await notice.waitFor({ timeout: 20000 });
    // Their rows left the list, so each was read by name in the same poll (#67: only the
    // server's NotFound deletes): kept and current, the list said incomplete.
    assert.match(await notice.textContent(), /none of the \d+ the report counts were listed/);
    assert.doesNotMatch(await notice.textContent(), /stale since/);
    assert.equal(await text(page, '[data-count=objects]'), before, 'the HelmReleases were not deleted');
    assert.equal(await text(page, '[data-count=missing]'), '0');
    await sim.faults('fail-list=');
    await notice.waitFor({ state: 'detached', timeout: 20000 });
    assert.equal(await text(page, '[data-count=objects]'), before);
    assert.deepEqual(page.errors, []);
  } finally { await cleanup(browser, sim); }
});

test('Flux ≤ 2.7: at the default poll, the owners read from Helm storage come a moment after the first load, not a poll later', async () => {
  // #47: the first load leaves them out (its budget is the dashboard's speed); the next poll,
  // 30 s later, brought them.
  const sim = await startSim(['--scenario', 'helm-storage']);
  try {
    const page = await newPage(browser);
    await page.goto(sim.base + '/graph?sel=FluxInstance/flux-system/flux');
    await page.waitForFunction(() => performance.getEntriesByName('fluxlens:data-ready').length > 0, null, { timeout: 30000 });
    const ready = Date.now();
    await page.waitForFunction(() => document.querySelector('[data-owner]')?.textContent === 'HelmRelease/flux-system/flux-instance', null, { timeout: 10000 });
    assert.ok(Date.now() - ready < 8000, `${Date.now() - ready} ms after the first load`);
    assert.deepEqual(page.errors, []);
  } finally { await cleanup(browser, sim); }
});

test('Flux ≤ 2.7: a FluxInstance installed by the flux-instance chart has its owner, read from Helm storage on the next poll', async () => {
  const sim = await startSim(['--scenario', 'helm-storage']);
  try {
    const page = await newPage(browser);
    await page.goto(sim.base + '/graph?poll=2&sel=FluxInstance/flux-system/flux');
    const owner = page.locator('[data-owner]');
    await page.waitForFunction(() => document.querySelector('[data-owner]')?.textContent === 'HelmRelease/flux-system/flux-instance', null, { timeout: 20000 });
    assert.equal(await owner.textContent(), 'HelmRelease/flux-system/flux-instance');
    // One single-object GET per release that keeps its inventory in storage; none for the
    // remote-cluster release (the server skips it) and none on the first load.
    const gets = (await sim.log()).filter((e) => e.path === '/api/v1/resource');
    const names = new Set(gets.map((e) => new URLSearchParams(e.query).get('name')));
    assert.deepEqual([...names].sort(), ['flux-instance', 'flux-operator']);
    assert.deepEqual(page.errors, []);
  } finally { await cleanup(browser, sim); }
});

test('a server that is starting (503) is said as such; once up the page loads, and a restart later keeps the data, stale', async () => {
  const sim = await startSim(['--scenario', 'demo', '--down']);
  try {
    const page = await newPage(browser);
    await page.goto(sim.base + '/?poll=2');
    const error = page.locator('[data-error]');
    await error.waitFor();
    assert.match(await error.textContent(), /is starting \(503 server not initialized\)/);
    await sim.faults('down=0');
    await page.locator('[data-count=objects]').waitFor({ timeout: 20000 });
    const before = await text(page, '[data-count=objects]');
    await freshness(page, 'fresh');
    await sim.faults('down=1');
    await freshness(page, 'stale');
    assert.equal(await text(page, '[data-count=objects]'), before, 'nothing lost while the server restarts');
    await sim.faults('down=0');
    await freshness(page, 'fresh');
    assert.equal(await text(page, '[data-count=objects]'), before);
    assert.deepEqual(page.errors, []);
  } finally { await cleanup(browser, sim); }
});

test('a kind forbidden in one of the user\'s namespaces: the rest of the kind is still listed, the kind said incomplete, nothing missing', async () => {
  const ns = 'flux-system,tenant-data,tenant-edge,tenant-web';
  const sim = await startSim(['--scenario', 'multitenant', '--namespaces', ns, '--forbid-kind', 'HelmRelease@tenant-edge']);
  try {
    const page = await newPage(browser);
    await page.goto(sim.base + '/?poll=2');
    await page.locator('[data-count=objects]').waitFor();
    // The default list drops HelmRelease whole; fluxlens lists it namespace by namespace.
    const notice = page.locator('[data-incomplete-kind=HelmRelease]');
    await notice.waitFor({ timeout: 20000 });
    assert.match(await notice.textContent(), /listed 6 of 9/);
    assert.equal(await text(page, '[data-count=objects]'), '29');
    assert.equal(await text(page, '[data-count=missing]'), '0');
    await sim.faults('forbid-kind=');
    await notice.waitFor({ state: 'detached', timeout: 20000 });
    assert.equal(await text(page, '[data-count=objects]'), '32');
    assert.deepEqual(page.errors, []);
  } finally { await cleanup(browser, sim); }
});

test('a verify removed through Git (the applier applies a new revision, the source keeps its row) shows within a poll', async () => {
  // The handover failure mode: spec.verify dropped from a source while its status still says
  // verified. Its own list row does not move; its applier's does (a new revision applied), and
  // the objects that applier applies are read again with it (load::applied_by) — not only
  // within the rolling cycle (10 polls here, 20 s).
  const sim = await startSim(['--scenario', 'demo']);
  try {
    const page = await newPage(browser);
    await page.goto(sim.base + '/signatures?poll=2');
    const cell = '[data-node-id="OCIRepository/team-web/web-chart"] [data-verification]';
    await page.locator(cell).waitFor();
    const before = await page.locator(cell).getAttribute('data-verification');
    assert.equal(before, 'verified');
    for (const q of ['unset-spec?object=OCIRepository/team-web/web-chart&field=verify',
      'set-ready?object=Kustomization/flux-system/tenants&ready=1&message=Applied%20revision:%20main@sha1:0a1b2c3d']) {
      assert.equal((await fetch(`${sim.base}/__sim/${q}`)).status, 200, q);
    }
    const t0 = Date.now();
    await page.waitForFunction((sel) => document.querySelector(sel)?.getAttribute('data-verification') !== 'verified', cell, { timeout: 7000 });
    assert.ok(Date.now() - t0 < 7000);
    assert.notEqual(await page.locator(cell).getAttribute('data-verification'), 'verified');
    assert.deepEqual(page.errors, []);
  } finally { await cleanup(browser, sim); }
});

for (const workers of [true, false]) {
  test(`reads ${workers ? 'run in the reader worker' : 'fall back to the page\'s thread where no worker can start'}; a change still shows within a poll`, async () => {
    // #23: the reader worker (src/api/reader.js) sends the polls' requests and answers an
    // unchanged one with "same"; without it the client reads on the page's own thread.
    const sim = await startSim(['--scenario', 'demo']);
    try {
      const page = await newPage(browser);
      if (!workers) await page.addInitScript(() => { delete window.Worker; });
      await page.goto(sim.base + '/graph?flat=1&poll=2');
      const node = '[data-node-id="Kustomization/flux-system/tenants"]';
      await page.locator(node).waitFor();
      assert.equal(await page.locator(node).getAttribute('data-status'), 'Ready');
      // Two unchanged polls through the chosen path, then a change. (The first load's reads are
      // the page script's, #28: the worker starts with the first poll.)
      const polls = async () => (await sim.log()).filter((e) => e.path === '/api/v1/report').length;
      const p0 = await polls();
      for (;;) { if ((await polls()) >= p0 + 2) break; await new Promise((r) => setTimeout(r, 200)); }
      const readers = page.workers().filter((w) => w.url().endsWith('/reader.js'));
      assert.equal(readers.length, workers ? 1 : 0);
      assert.equal(await page.locator(node).getAttribute('data-status'), 'Ready');
      assert.equal((await fetch(`${sim.base}/__sim/set-ready?object=Kustomization/flux-system/tenants&ready=0&message=boom`)).status, 200);
      await page.waitForFunction((sel) => document.querySelector(sel)?.getAttribute('data-status') === 'Failed', node, { timeout: 7000 });
      assert.deepEqual(page.errors, []);
    } finally { await cleanup(browser, sim); }
  });
}

test('a half-computed report (namespaces, no counts) keeps the last objects, stale — in live and in search.cached mode', async () => {
  // #47: report.go caches the result of a computation that failed part-way; every row looked
  // deleted, and in search.cached mode the index emptied too.
  for (const extra of [[], ['--search-cached']]) {
    const sim = await startSim(['--scenario', 'homelab', ...extra]);
    try {
      const page = await newPage(browser);
      await page.goto(sim.base + '/?poll=2');
      await page.locator('[data-count=objects]').waitFor();
      await freshness(page, 'fresh');
      const before = await text(page, '[data-count=objects]');
      await sim.faults('half-report=1');
      await freshness(page, 'stale');
      assert.match(await text(page, '[data-error]'), /half-computed/);
      await pollsRun(page, 2);
      assert.equal(await text(page, '[data-count=objects]'), before, `nothing deleted ${extra}`);
      assert.equal(await text(page, '[data-count=missing]'), '0');
      await sim.faults('half-report=0');
      await freshness(page, 'fresh');
      assert.equal(await text(page, '[data-count=objects]'), before);
      assert.deepEqual(page.errors, []);
    } finally { await cleanup(browser, sim); }
  }
});

test('search.cached, a restricted user: an object the server answers Forbidden is not asked again every poll', async () => {
  // #47: the index lists what the user's RBAC then refuses to return; each poll asked again.
  const sim = await startSim(['--scenario', 'multitenant', '--search-cached', '--namespaces', 'flux-system,tenant-data,tenant-edge,tenant-web', '--forbid-kind', 'HelmRelease@tenant-edge']);
  try {
    const page = await newPage(browser);
    await page.goto(sim.base + '/?poll=1');
    await page.locator('[data-count=objects]').waitFor();
    await pollsRun(page, 4);
    const log = await sim.log();
    const polls = log.filter((e) => e.path === '/api/v1/report').length;
    assert.ok(polls >= 4, `${polls} polls`);
    const asked = log.flatMap((e) => e.objects || []).filter((o) => o.startsWith('HelmRelease/tenant-edge/'));
    const each = {};
    for (const o of asked) each[o] = (each[o] || 0) + 1;
    assert.ok(Object.keys(each).length > 0, 'the forbidden objects were asked once');
    for (const [o, n] of Object.entries(each)) assert.ok(n <= 2, `${o} asked ${n} times in ${polls} polls`);
    assert.deepEqual(page.errors, []);
  } finally { await cleanup(browser, sim); }
});
