// A first visit's rehearsal (#51, src/api/loader.rs `rehearse`, src/pages/overview.rs
// `rehearse_overview`): while the objects' answer is on the wire the app runs its first load and
// builds the overview once, detached, on core's built-in sample, so that the browser compiles
// that code then, not between the answer and the view. None of it may show, mark the view or
// fetch code; the view that follows is the cluster's own, and a second visit does not rehearse.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startSim, launch, holdRequests } from './helpers.mjs';

const OBJECTS = /\/api\/v1\/inventory\/objects$/;
const marked = (name) => performance.getEntriesByName(name).length;

let browser;
let sim;
before(async () => { browser = await launch(); sim = await startSim(['--scenario', 'demo']); });
after(async () => { sim?.stop(); await browser?.close(); });

/** A page whose object batches are held until `release()`; other requests go through. */
async function heldPage(context) {
  const page = await context.newPage();
  return { page, release: await holdRequests(page, OBJECTS) };
}

/** What the page shows and has marked, read in one go. */
function seen(page) {
  return page.evaluate(() => ({
    dataReady: performance.getEntriesByName('fluxlens:data-ready').length,
    viewRendered: performance.getEntriesByName('fluxlens:view-rendered').length,
    cards: document.querySelectorAll('[data-card]').length,
    findings: document.querySelectorAll('.fl-finding').length,
    heroes: document.querySelectorAll('.fl-hero').length,
    cold: performance.getEntriesByType('resource').filter((r) => r.name.includes('/cold-')).length,
    text: document.body.innerText,
  }));
}

test('a first visit rehearses its load and its overview while the objects are on the wire, and shows none of it', async () => {
  const context = await browser.newContext();
  const { page, release } = await heldPage(context);
  await page.goto(`${sim.base}/?poll=600`);
  await page.waitForFunction(marked, 'fluxlens:rehearsed-view', { timeout: 30000 });
  const waiting = await seen(page);
  assert.equal(await page.evaluate(marked, 'fluxlens:rehearsed'), 1, 'the load was rehearsed first');
  assert.deepEqual(
    { dataReady: waiting.dataReady, viewRendered: waiting.viewRendered, cards: waiting.cards, findings: waiting.findings, heroes: waiting.heroes },
    { dataReady: 0, viewRendered: 0, cards: 0, findings: 0, heroes: 0 },
    'nothing of the sample is in the page or marked',
  );
  assert.equal(waiting.cold, 0, 'the rehearsal fetched no code (scripts/cold-functions.txt covers it: make first-view)');
  assert.match(waiting.text, /Waiting for cluster data|objects/i, 'the page still says it is reading');

  release();
  await page.waitForFunction(marked, 'fluxlens:view-rendered', { timeout: 30000 });
  const shown = await seen(page);
  assert.equal(shown.viewRendered, 1);
  assert.equal(shown.dataReady, 1);
  assert.equal(shown.heroes, 1, 'one verdict: the cluster’s');
  // The cluster's own count (the report's reconcilers), not the sample's fifteen objects.
  const total = await page.evaluate(async () => {
    const report = await (await fetch('/api/v1/report')).json();
    return report.spec.reconcilers.reduce((n, r) => n + r.stats.running + r.stats.failing + r.stats.suspended, 0);
  });
  assert.ok(total > 15, `the demo holds ${total} objects`);
  assert.equal(await page.locator('[data-count=objects]').innerText(), String(total));
  await context.close();
});

test('another first view rehearses the load only: its code is not in the main module', async () => {
  const context = await browser.newContext();
  const { page, release } = await heldPage(context);
  await page.goto(`${sim.base}/signatures?poll=600`);
  await page.waitForFunction(marked, 'fluxlens:rehearsed', { timeout: 30000 });
  // The overview's rehearsal would follow in the same turn of the loader (one task).
  await page.waitForTimeout(300);
  assert.equal(await page.evaluate(marked, 'fluxlens:rehearsed-view'), 0);
  release();
  await page.waitForFunction(marked, 'fluxlens:view-rendered', { timeout: 30000 });
  await context.close();
});

test('a second visit does not rehearse: the last visit’s reads are replayed and its copy shown', async () => {
  const context = await browser.newContext();
  const first = await context.newPage();
  await first.goto(`${sim.base}/?poll=600`);
  await first.waitForFunction(marked, 'fluxlens:view-rendered', { timeout: 30000 });
  await first.waitForFunction(marked, 'fluxlens:load-settled', { timeout: 30000 });
  await first.close();
  const { page, release } = await heldPage(context);
  await page.goto(`${sim.base}/?poll=600`);
  await page.waitForFunction(marked, 'fluxlens:poll-started', { timeout: 30000 });
  await page.waitForTimeout(500);
  assert.equal(await page.evaluate(marked, 'fluxlens:rehearsed'), 0);
  assert.equal(await page.evaluate(marked, 'fluxlens:rehearsed-view'), 0);
  release();
  await page.waitForFunction(marked, 'fluxlens:view-rendered', { timeout: 30000 });
  await context.close();
});

test('the first load’s CRD read goes out once the overview is on screen, not in the task that builds it', async () => {
  const context = await browser.newContext();
  const page = await context.newPage();
  const crdReads = [];
  await page.route(OBJECTS, async (route) => {
    if ((route.request().postData() || '').includes('"CustomResourceDefinition"')) {
      // Read after the fact: a read sent before the mark may still see it (this can miss a
      // regression, never fail the right order); sent in the view's own task, it comes a frame
      // before the mark and does not.
      crdReads.push(await page.evaluate(marked, 'fluxlens:view-rendered'));
    }
    await route.continue();
  });
  await page.goto(`${sim.base}/?poll=600`);
  await page.waitForFunction(marked, 'fluxlens:load-settled', { timeout: 30000 });
  assert.deepEqual(crdReads, [1], 'one CRD read, after the view marked itself on screen');
  await context.close();
});
