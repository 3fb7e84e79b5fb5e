// The page on the server's clocks (#67): the simulator refreshes the report's counts, the search
// index and the user's namespaces every 20 s, as the operator does, while the lists are live.
// Here the report's ticker is held, so its counts lag for the whole test: what the page shows
// must follow the cluster all the same, within a poll or two, and never keep what is gone.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startSim, launch, newPage, cleanup } from './helpers.mjs';

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

const count = (page) => page.locator('[data-count=objects]').first().textContent().then((t) => Number(t.trim()));
const countIs = (page, n) => page.waitForFunction(
  (want) => Number(document.querySelector('[data-count=objects]')?.textContent?.trim()) === want, n, { timeout: 15000 });
const reportPolls = async (sim) => (await sim.log()).filter((e) => e.path === '/api/v1/report').length;
const polls = async (sim, n) => {
  const p0 = await reportPolls(sim);
  while ((await reportPolls(sim)) < p0 + n) await new Promise((r) => setTimeout(r, 200));
};
const sim_ = (sim, q) => fetch(`${sim.base}/__sim/${q}`).then((r) => { assert.equal(r.status, 200, q); return r.json(); });

test('deleted, created and failed objects show within a poll while the report\'s counts lag, and a deletion stays', async () => {
  const sim = await startSim(['--scenario', 'homelab']);
  try {
    const page = await newPage(browser);
    await page.goto(sim.base + '/?poll=2');
    await page.locator('[data-count=objects]').waitFor();
    const n = await count(page);
    // The counts stop moving: from now on the report says what it said at the last tick.
    const clock = await sim_(sim, 'clock?hold=1');
    assert.equal(clock.held, true);
    const counted = async () => {
      const r = await (await fetch(`${sim.base}/api/v1/report`)).json();
      return r.spec.reconcilers.find((k) => k.kind === 'Kustomization').stats.running;
    };
    const ksBefore = await counted();
    await sim_(sim, 'delete?object=Kustomization/default/atuin');
    await countIs(page, n - 1);
    assert.equal(await counted(), ksBefore, 'the report still counts it');
    await polls(sim, 3);
    assert.equal(await count(page), n - 1, 'and it stays gone');
    // A new object is in the live list at once; its count comes with the next tick.
    await sim_(sim, 'create?object=Kustomization/default/atuin-2&like=Kustomization/default/echo');
    await countIs(page, n);
    // A failure shows though the report's failing count lags.
    await page.goto(sim.base + '/graph?flat=1&poll=2');
    const echo = '[data-node-id="HelmRelease/default/echo"]';
    await page.locator(echo).waitFor();
    await sim_(sim, 'set-ready?object=HelmRelease/default/echo&ready=0&message=Helm%20upgrade%20failed');
    await page.waitForFunction((sel) => document.querySelector(sel)?.getAttribute('data-status') === 'Failed', echo, { timeout: 15000 });
    // The ticker runs again and the counts catch up: the page holds what the cluster holds,
    // one gone and one new.
    await sim_(sim, 'clock?hold=0&refresh=1');
    await page.goto(sim.base + '/?poll=2');
    await countIs(page, n);
    await polls(sim, 2);
    assert.equal(await count(page), n);
    // A lagging count costs no relist: the default list is the only list asked.
    const lists = (await sim.log()).filter((e) => e.path === '/api/v1/resources' && e.query !== '');
    assert.deepEqual(lists, []);
    assert.deepEqual(page.errors, []);
  } finally { await cleanup(browser, sim); }
});
