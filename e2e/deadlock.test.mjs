// Revision 4: a deadlock before it freezes the cluster, as a person on call sees it — on the
// overview, on the migration card (which step is unsafe), and as a chain of waits in the graph;
// never claimed from a read the server did not confirm.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startSim, launch, newPage, cleanup, holdRequests } from './helpers.mjs';

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

const DEADLOCK = '[data-rule="MIG-GO-15"][data-severity=critical]';

/// Holds the confirming read (the status-only batch asking about references that look
/// missing) until the returned function is called.
function holdConfirmingRead(page) {
  return holdRequests(page, '**/api/v1/inventory/objects', (request) => {
    const body = request.postData() ?? '';
    return body.includes('"statusOnly":true') && !body.includes('CustomResourceDefinition');
  });
}

test('frozen: the delivery chain held behind a dependency on a missing root, named whole; the graph focuses the chain', async () => {
  const sim = await startSim(['--scenario', 'frozen']);
  try {
    const page = await newPage(browser);
    await page.goto(sim.base + '/');
    const finding = page.locator(DEADLOCK).first();
    await finding.waitFor();
    assert.match(await finding.textContent(), /Kustomization\/flux-system\/cluster-apps waits for Kustomization\/flux-system\/cluster-vap \(dependsOn\), which waits for OCIRepository\/flux-system\/flux-system, which nothing creates/);
    assert.match(await finding.textContent(), /Remediation: .*drop Kustomization\/flux-system\/cluster-apps's dependsOn on Kustomization\/flux-system\/cluster-vap/);
    // The migration card says which step is unsafe — once the server has said the source is
    // missing. The first view comes before that answer (#51): meanwhile M3 ticks nothing that
    // rests on it (CI once saw the card before the blocker; it had ticked both checks).
    const release = await holdConfirmingRead(page);
    await page.goto(sim.base + '/migrations');
    const gitOci = page.locator('[data-migration=git-oci]');
    await gitOci.waitFor();
    const m3 = gitOci.locator('[data-stage=M3] [data-check]', { hasText: 'MIG-GO-15' });
    const dangling = gitOci.locator('[data-stage=M3] [data-check]', { hasText: 'no dangling references' });
    for (const check of [m3, dangling]) {
      assert.equal(await check.getAttribute('data-check'), 'unknown');
      assert.match(await check.textContent(), /confirming 1 reference that looks missing with the server…/);
    }
    assert.equal(await page.locator('[data-rule="MIG-GO-15"]').count(), 0);
    release();
    await gitOci.locator(`.fl-blockers ${DEADLOCK}`).waitFor();
    assert.equal(await gitOci.locator(`.fl-blockers ${DEADLOCK}`).count(), 1);
    assert.equal(await m3.getAttribute('data-check'), 'fail');
    assert.match(await m3.textContent(), /2 objects never reconcile: this step is unsafe before OCIRepository\/flux-system\/flux-system exists/);
    assert.equal(await dangling.getAttribute('data-check'), 'fail');
    // The chain of waits, focused in the graph.
    await page.goto(sim.base + '/');
    await page.locator(`${DEADLOCK} a[data-chain-focus]`).click();
    await page.locator('[data-focus="Kustomization/flux-system/cluster-apps"]').waitFor();
    for (const id of ['Kustomization/flux-system/cluster-vap', 'OCIRepository/flux-system/flux-system']) {
      await page.locator(`[data-node-id="${id}"]`).first().waitFor();
    }
    assert.equal(await page.locator('[data-node-id="OCIRepository/flux-system/flux-system"]').first().getAttribute('data-status'), 'Missing');
    assert.deepEqual(page.errors, []);
  } finally { await cleanup(browser, sim); }
});

test('frozen through a failed confirming read: no deadlock claimed until the server confirms the source is missing', async () => {
  const sim = await startSim(['--scenario', 'frozen', '--confirm-fail']);
  try {
    const page = await newPage(browser);
    await page.goto(sim.base + '/?poll=2');
    await page.locator('[data-count=objects]').waitFor();
    await page.locator('.fl-notice', { hasText: 'could not be confirmed' }).waitFor();
    assert.equal(await page.locator('[data-rule="MIG-GO-15"]').count(), 0);
    // What fails now is the object's own condition, not an absence: the overview leads with it
    // (OPS-01, #68), and claims no deadlock and nothing missing until the server confirms.
    const hero = page.locator('[data-verdict]').first();
    assert.equal(await hero.getAttribute('data-verdict'), 'bad');
    assert.match(await hero.textContent(), /1 object failing now.*Kustomization\/flux-system\/cluster-vap is failing/);
    assert.doesNotMatch(await hero.textContent(), /deadlock|freez|never reconcile/i);
    assert.equal(await page.locator('[data-card=missing] [data-unsettled]').textContent(), '1 more could not be confirmed');
    await sim.faults('confirm-fail=0');
    await page.locator(DEADLOCK).first().waitFor({ timeout: 20000 });
    assert.equal(await hero.getAttribute('data-verdict'), 'bad');
    assert.equal(await page.locator('[data-card=missing] [data-unsettled]').count(), 0);
    assert.deepEqual(page.errors, []);
  } finally { await cleanup(browser, sim); }
});
