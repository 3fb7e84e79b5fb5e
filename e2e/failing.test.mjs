// What is failing now, first (#68, rule OPS-01): the on-call engineer's first question. On a
// healthy cluster a HelmRelease and a Kustomization fail under a watched page; the overview's
// verdict leads with them, each is a finding with its message and the command to look closer,
// and when they recover the page is calm again.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startSim, launch, newPage, cleanup } from './helpers.mjs';

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

const set = (sim, q) => fetch(`${sim.base}/__sim/set-ready?${q}`).then((r) => assert.equal(r.status, 200, q));

test('failures lead the overview with their message and command, and calm comes back when they recover', async () => {
  const sim = await startSim(['--scenario', 'homelab']);
  try {
    const page = await newPage(browser);
    await page.goto(sim.base + '/?poll=2');
    const verdict = page.locator('.fl-hero__text').first();
    await verdict.waitFor();
    assert.equal(await verdict.textContent(), 'No critical or high findings');
    await set(sim, 'object=HelmRelease/default/homepage&ready=0&message=Helm%20upgrade%20failed:%20context%20deadline%20exceeded');
    await set(sim, 'object=Kustomization/default/it-tools&ready=0&message=kustomize%20build%20failed');
    await page.waitForFunction(() => document.querySelector('.fl-hero__text')?.textContent === '2 objects failing now', null, { timeout: 15000 });
    assert.equal(await page.locator('[data-verdict]').first().getAttribute('data-verdict'), 'bad');
    const ops = page.locator('[data-rule="OPS-01"]');
    assert.equal(await ops.count(), 2);
    const texts = (await ops.allTextContents()).join('\n');
    assert.match(texts, /HelmRelease\/default\/homepage is failing since [^:]+:\d\d:\d\dZ: Helm upgrade failed/);
    assert.match(texts, /flux events --for HelmRelease\/homepage -n default/);
    for (const s of await ops.evaluateAll((els) => els.map((e) => e.getAttribute('data-severity')))) {
      assert.ok(s === 'high' || s === 'critical', s);
    }
    // Recovered: calm again, nothing left of them.
    await set(sim, 'object=HelmRelease/default/homepage&ready=1&message=Helm%20upgrade%20succeeded');
    await set(sim, 'object=Kustomization/default/it-tools&ready=1&message=Applied%20revision');
    await page.waitForFunction(() => document.querySelector('.fl-hero__text')?.textContent === 'No critical or high findings', null, { timeout: 15000 });
    assert.equal(await page.locator('[data-rule="OPS-01"]').count(), 0);
    assert.deepEqual(page.errors, []);
  } finally { await cleanup(browser, sim); }
});
