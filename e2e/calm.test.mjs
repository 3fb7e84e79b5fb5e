// Live without churn (#23): a poll that changes nothing changes nothing on screen, and a
// snapshot opened from a file is a snapshot — the live loader stops.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSim, launch, newPage, cleanup, openMenu, pollsRun, frames } from './helpers.mjs';

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

const ready = {
  '/': '[data-count=objects]',
  '/signatures': '[data-table=sources]',
  '/graph': 'g[data-node-id]',
  '/migrations': '[data-migration]',
  '/compliance': '[data-rule]',
};

test('unchanged polls add or remove no element on any view; an open details element survives', async () => {
  const sim = await startSim(['--scenario', 'homelab']);
  try {
    const page = await newPage(browser);
    for (const [route, sel] of Object.entries(ready)) {
      await page.goto(sim.base + route + (route.includes('?') ? '&' : '?') + 'poll=1');
      await page.locator(sel).first().waitFor();
      await page.locator('[data-freshness=fresh]').waitFor();
      // The first load settles first: its CRD read, sent a frame after the view (loader.rs
      // `painted`), may still change a stage; only the polls after it are unchanged ones.
      await page.waitForFunction(() => performance.getEntriesByName('fluxlens:load-settled').length > 0, null, { timeout: 10000 });
      const details = page.locator('details').first();
      const hasDetails = (await details.count()) === 1;
      if (hasDetails) await details.evaluate((d) => { d.open = true; });
      await page.evaluate(() => {
        window.__churn = { added: 0, removed: 0 };
        new MutationObserver((ms) => {
          for (const m of ms) { window.__churn.added += m.addedNodes.length; window.__churn.removed += m.removedNodes.length; }
        }).observe(document.body, { childList: true, subtree: true });
      });
      const stamp = await page.locator('[data-freshness]').textContent();
      // Three polls land (the header's "Updated" moves), the data does not change.
      await pollsRun(page, 3);
      await frames(page);
      assert.notEqual(await page.locator('[data-freshness]').textContent(), stamp, `${route}: the polls landed`);
      const churn = await page.evaluate(() => window.__churn);
      assert.deepEqual(churn, { added: 0, removed: 0 }, `${route}: ${JSON.stringify(churn)}`);
      if (hasDetails) assert.equal(await details.evaluate((d) => d.open), true, `${route}: details closed by a poll`);
    }
    assert.deepEqual(page.errors, []);
  } finally { await cleanup(browser, sim); }
});

test('a snapshot opened from a file stops the live loader and is not overwritten', async () => {
  const sim = await startSim(['--scenario', 'broken']);
  try {
    const page = await newPage(browser);
    await page.goto(sim.base + '/graph?poll=1');
    await page.locator('g[data-node-id]').first().waitFor();
    await openMenu(page, 'share');
    await page.getByRole('button', { name: 'Share snapshot' }).click();
    const link = await page.locator('[data-share-link]').inputValue();
    const dir = mkdtempSync(join(tmpdir(), 'fluxlens-'));
    const file = join(dir, 'cluster.fluxlens');
    writeFileSync(file, link.slice(link.indexOf('#snap=') + 6));
    await page.locator('input[type=file]').setInputFiles(file);
    await page.locator('[data-snapshot]').waitFor();
    // The live loader has seen the snapshot and ended (a poll in flight then finishes first).
    await page.waitForFunction(() => performance.getEntriesByName('fluxlens:live-stopped').length > 0, null, { timeout: 10000 });
    await fetch(sim.base + '/__sim/log?clear=1');
    await frames(page);
    const log = await (await fetch(sim.base + '/__sim/log')).json();
    assert.deepEqual(log.filter((e) => String(e.path ?? e).includes('/api/')), [], 'no API call in snapshot mode');
    assert.equal(await page.locator('[data-snapshot]').count(), 1, 'still the snapshot');
    assert.deepEqual(page.errors, []);
  } finally { await cleanup(browser, sim); }
});

test('panning and zooming with a node selected sends no API request', async () => {
  const sim = await startSim(['--scenario', 'demo']);
  try {
    const page = await newPage(browser);
    await page.goto(sim.base + '/graph?sel=OCIRepository/flux-system/flux-system');
    await page.locator('[data-panel]').waitFor();
    // The selection's one events request, answered (the panel no longer waits on it), and the
    // first load's last read done.
    await page.waitForFunction(() => performance.getEntriesByName('fluxlens:load-settled').length > 0, null, { timeout: 10000 });
    await page.locator('[data-panel]').getByText('Loading events…').waitFor({ state: 'detached', timeout: 10000 });
    await fetch(sim.base + '/__sim/log?clear=1');
    const canvas = page.locator('svg').first();
    const box = await canvas.boundingBox();
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    for (let i = 0; i < 8; i++) { await page.mouse.wheel(0, i % 2 ? 120 : -120); await frames(page); }
    await page.mouse.down(); await page.mouse.move(box.x + box.width / 2 + 80, box.y + box.height / 2 + 40, { steps: 5 }); await page.mouse.up();
    await frames(page);
    const log = await (await fetch(sim.base + '/__sim/log')).json();
    assert.deepEqual(log.filter((e) => e.path.includes('/api/v1/events')), [], 'no events request per gesture');
    assert.deepEqual(page.errors, []);
  } finally { await cleanup(browser, sim); }
});

test('one object changes: only what shows it is rebuilt; an open details, a half-typed search and a focused node survive', async () => {
  const sim = await startSim(['--scenario', 'homelab']);
  try {
    const page = await newPage(browser);
    const rows = (await (await fetch(sim.base + '/api/v1/resources?kind=Kustomization')).json()).resources;
    const [target, other] = rows.filter((r) => r.status === 'Ready').slice(0, 2);
    const targetId = `Kustomization/${target.namespace}/${target.name}`;
    const otherId = `Kustomization/${other.namespace}/${other.name}`;
    // Overview: an opened member list survives a change elsewhere, and few elements move.
    await page.goto(sim.base + '/?poll=1');
    await page.locator('[data-count=objects]').waitFor();
    const row = '[data-table=by-kind] tr[data-kind=Kustomization]';
    const rowBefore = await page.locator(row).textContent();
    await page.evaluate(() => {
      window.__churn = 0;
      new MutationObserver((ms) => { for (const m of ms) window.__churn += m.addedNodes.length + m.removedNodes.length; })
        .observe(document.body, { childList: true, subtree: true });
    });
    const total = await page.evaluate(() => document.getElementsByTagName('*').length);
    await fetch(`${sim.base}/__sim/set-ready?object=${targetId}&ready=0&message=boom`);
    await page.waitForFunction(([sel, b]) => document.querySelector(sel).textContent !== b, [row, rowBefore], { timeout: 15000 });
    await frames(page);
    const churn = await page.evaluate(() => window.__churn);
    // Before #23 the whole view was rebuilt (~400 elements); now its row and its numbers.
    assert.ok(churn <= 40, `one changed object moved ${churn} of ${total} elements`);
    // Graph: a focused node and a half-typed search survive a change to another object.
    await page.goto(sim.base + `/graph?flat=1&poll=1&q=${encodeURIComponent(target.namespace)}`);
    const node = page.locator(`g[data-node-id="${targetId}"]`);
    await node.waitFor();
    await node.focus();
    const search = page.locator('input[type=search]');
    await search.evaluate((el) => { el.value = 'half-typ'; });
    await fetch(`${sim.base}/__sim/set-ready?object=${otherId}&ready=0&message=elsewhere`);
    await fetch(`${sim.base}/__sim/set-ready?object=${targetId}&ready=1&message=fixed`);
    await page.waitForFunction((id) => document.querySelector(`g[data-node-id="${id}"]`)?.getAttribute('data-status') === 'Ready', targetId, { timeout: 15000 });
    // The changed node itself is rebuilt; a node that did not change keeps focus.
    const keep = page.locator('g[data-node-id]').filter({ hasNot: page.locator(`[data-node-id="${targetId}"]`) }).first();
    const keepId = await keep.getAttribute('data-node-id');
    await keep.focus();
    await fetch(`${sim.base}/__sim/set-ready?object=${targetId}&ready=0&message=again`);
    await page.waitForFunction((id) => document.querySelector(`g[data-node-id="${id}"]`)?.getAttribute('data-status') === 'Failed', targetId, { timeout: 15000 });
    assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('data-node-id')), keepId, 'focus survived');
    assert.equal(await search.inputValue(), 'half-typ', 'the half-typed search survived');
    assert.deepEqual(page.errors, []);
  } finally { await cleanup(browser, sim); }
});
