// Truth on the real server's shapes: batch objects carry no server-injected fields, owners
// are derived from inventories, what the user cannot see is "not visible", never missing.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startSim, launch, newPage, cleanup } from './helpers.mjs';

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

async function open(sim, path) {
  const page = await newPage(browser);
  await page.goto(sim.base + path);
  await page.locator('[data-count=objects], g[data-node-id], [data-migration]').first().waitFor({ timeout: 30000 });
  return page;
}

test('the simulator never sends server-injected fields in the batch read', async () => {
  const sim = await startSim(['--scenario', 'demo']);
  try {
    const r = await fetch(sim.base + '/api/v1/inventory/objects', {
      method: 'POST', headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ objects: [{ apiVersion: 'kustomize.toolkit.fluxcd.io/v1', kind: 'Kustomization', namespace: 'flux-system', name: 'tenants' }] }),
    });
    const o = (await r.json()).objects[0].object;
    assert.equal(o.status.reconcilerRef, undefined);
    assert.equal(o.status.sourceRef, undefined);
    assert.ok(Array.isArray(o.status.inventory.entries), 'native inventory');
    const one = await (await fetch(sim.base + '/api/v1/resource?kind=Kustomization&namespace=flux-system&name=tenants')).json();
    assert.equal(one.status.reconcilerRef.managedBy, 'Kustomization/flux-system/flux-system');
  } finally { sim.stop(); }
});

test('ownership layer is drawn from derived owners; the side panel names the owner', async () => {
  const sim = await startSim(['--scenario', 'demo']);
  try {
    const page = await open(sim, '/graph?owners=1&q=flux-system');
    await page.locator('.fl-edge--managedBy').first().waitFor();
    assert.ok(await page.locator('.fl-edge--managedBy').count() > 0);
    await page.goto(sim.base + '/graph?sel=OCIRepository/flux-system/flux-system');
    await page.locator('[data-owner]').waitFor();
    assert.equal(await page.locator('[data-owner]').textContent(), 'Kustomization/flux-system/flux-system');
  } finally { await cleanup(browser, sim); }
});

test('a finished Git → signed-OCI migration reaches M5 with M4 done', async () => {
  const sim = await startSim(['--scenario', 'enterprise-fips']);
  try {
    const page = await open(sim, '/migrations');
    const card = page.locator('[data-migration=git-oci]');
    await card.waitFor();
    assert.equal(await card.locator('[data-stage=M4]').getAttribute('data-state'), 'done');
    assert.equal(await card.locator('[data-stage=M5]').getAttribute('data-state'), 'done');
  } finally { await cleanup(browser, sim); }
});

test('the prune hazard fires on a parallel source without opt-out', async () => {
  const sim = await startSim(['--scenario', 'staged']);
  try {
    const page = await open(sim, '/');
    await page.locator('[data-rule="MIG-GO-05"]').first().waitFor();
  } finally { await cleanup(browser, sim); }
});

test('ResourceSets depending on a CRD and a cluster-scoped ProxyGroup: external nodes, nothing missing', async () => {
  const sim = await startSim(['--scenario', 'operator-mock']);
  try {
    const page = await open(sim, '/');
    assert.equal(await page.locator('[data-count=missing]').textContent(), '0');
    assert.equal(await page.locator('[data-rule="MIG-GO-02"]').count(), 0);
    await page.goto(sim.base + '/graph');
    const proxy = page.locator('g[data-node-id="ProxyGroup//ingress"]');
    await proxy.waitFor();
    // Drawn from the first load's model while its confirming read is under way (#51: not
    // visible, "confirming…"), then Ready once the server has answered: wait for the answer.
    assert.ok(['Ready', 'NotVisible'].includes(await proxy.getAttribute('data-status')));
    await page.locator('g[data-node-id="ProxyGroup//ingress"][data-status=Ready]').waitFor();
    assert.equal(await page.locator('g[data-status=Missing]').count(), 0);
    await page.goto(sim.base + '/migrations');
    const card = page.locator('[data-migration=git-oci]');
    await card.waitFor();
    assert.equal(await card.locator('[data-state=blocked]').count(), 0);
  } finally { await cleanup(browser, sim); }
});

test('a tenant sees "not visible" instead of missing', async () => {
  const sim = await startSim(['--scenario', 'demo', '--namespaces', 'team-payments,team-ledger']);
  try {
    const page = await open(sim, '/');
    assert.equal(await page.locator('[data-count=missing]').textContent(), '0');
    assert.equal(await page.locator('[data-rule="MIG-GO-02"]:not([data-severity=info])').count(), 0);
    await page.goto(sim.base + '/graph');
    const root = page.locator('g[data-node-id="OCIRepository/flux-system/flux-system"]');
    await root.waitFor();
    assert.equal(await root.getAttribute('data-status'), 'NotVisible');
    assert.equal(await page.locator('g[data-status=Missing]').count(), 0);
    const log = await sim.log();
    assert.ok(!log.some((e) => e.status === 403), 'a tenant load provokes no 403');
  } finally { await cleanup(browser, sim); }
});

test('a failed List names the incomplete kind and draws nothing missing', async () => {
  const sim = await startSim(['--scenario', 'demo', '--fail-list', 'OCIRepository,HelmRepository']);
  try {
    const page = await open(sim, '/');
    await page.locator('[data-incomplete-kind=OCIRepository]').waitFor();
    assert.match(await page.locator('[data-incomplete-kind=OCIRepository]').textContent(), /left out without an error/);
    assert.equal(await page.locator('[data-count=missing]').textContent(), '0');
    assert.equal(await page.locator('[data-rule="MIG-GO-02"]:not([data-severity=info])').count(), 0);
    await page.goto(sim.base + '/graph');
    await page.locator('g[data-node-id]').first().waitFor();
    assert.equal(await page.locator('g[data-status=Missing]').count(), 0);
  } finally { await cleanup(browser, sim); }
});

test('search.cached with more than 2,500 objects: the loader completes the kinds, nothing missing', async () => {
  const sim = await startSim(['--synthetic-healthy', '3000', '--search-cached']);
  try {
    const page = await open(sim, '/?poll=600');
    await page.locator('[data-count=objects]').waitFor({ timeout: 30000 });
    assert.equal(await page.locator('[data-count=objects]').textContent(), '3000');
    assert.equal(await page.locator('[data-count=missing]').textContent(), '0');
    assert.equal(await page.locator('[data-rule="MIG-GO-02"]').count(), 0);
  } finally { await cleanup(browser, sim); }
});

test('the report placeholder while the server starts: nothing is called missing', async () => {
  const sim = await startSim(['--scenario', 'broken', '--report-placeholder']);
  try {
    const page = await open(sim, '/');
    await page.getByText(/the report is not initialised yet/).first().waitFor();
    assert.equal(await page.locator('[data-count=missing]').textContent(), '0');
  } finally { await cleanup(browser, sim); }
});

test('healthy clusters modelled on public GitOps repositories stay calm', async () => {
  for (const scenario of ['homelab', 'multitenant']) {
    const sim = await startSim(['--scenario', scenario]);
    try {
      const page = await open(sim, '/');
      await page.locator('[data-count=findings]').waitFor();
      assert.equal(await page.locator('[data-count=critical]').textContent(), '0', scenario);
      assert.equal(await page.locator('[data-count=high]').textContent(), '0', scenario);
      assert.ok(Number(await page.locator('[data-count=findings]').textContent()) <= 20, scenario);
      assert.equal(await page.locator('[data-rule][data-severity=critical], [data-rule][data-severity=high]').count(), 0, scenario);
      // Every finding says why it has its severity; many alike are one, with the list.
      assert.equal(await page.locator('.fl-finding').count(), await page.locator('.fl-finding [data-reason]').count());
      if (scenario === 'homelab') {
        const agg = page.locator('[data-rule="SIG-11"][data-severity=low] [data-members]');
        await agg.waitFor();
        assert.ok(Number(await agg.getAttribute('data-members')) > 50);
        await agg.locator('summary').click();
        await agg.getByRole('searchbox').fill('plex');
        assert.equal(await agg.locator('li').count(), 1);
      }
      // Intent before progress: no sign of a Git → OCI migration, so "not started".
      assert.equal(await page.locator('[data-card=migration-git-oci]').getAttribute('data-badge'), 'not started');
    } finally { await cleanup(browser, sim); }
  }
});

test('broken still fires the field-report failure modes at their severities', async () => {
  const sim = await startSim(['--scenario', 'broken']);
  try {
    const page = await open(sim, '/');
    await page.locator('[data-rule="MIG-GO-02"][data-severity=critical]').first().waitFor();
    for (const [rule, sev] of [['MIG-GO-10', 'critical'], ['SIG-10', 'critical'], ['SIG-03', 'high'], ['SIG-06', 'high']]) {
      assert.ok(await page.locator(`[data-rule="${rule}"][data-severity=${sev}]`).count() >= 1, `${rule} ${sev}`);
    }
  } finally { await cleanup(browser, sim); }
});

test('ENT-14 reads the FluxInstance events: one request, the outdated notice shown', async () => {
  const sim = await startSim(['--scenario', 'demo']);
  try {
    const page = await newPage(browser);
    await page.goto(sim.base + '/compliance');
    await page.locator('[data-rule="ENT-14"]').first().waitFor();
    assert.match(await page.locator('[data-rule="ENT-14"]').first().textContent(), /newer Flux version/);
    const asks = (await sim.log()).filter((e) => e.path === '/api/v1/events');
    assert.equal(asks.length, 1);
  } finally { await cleanup(browser, sim); }
});

test('a finding links to its rule reference entry, shipped beside the app', async () => {
  const sim = await startSim(['--scenario', 'broken']);
  try {
    const page = await newPage(browser);
    await page.goto(sim.base + '/signatures');
    // Times say their zone (the cluster's events and the exports are UTC).
    await page.locator('.fl-freshness[data-freshness=fresh]').waitFor();
    assert.match(await page.locator('.fl-freshness').textContent(), /^Updated \d\d:\d\d:\d\d UTC$/);
    const link = page.locator('[data-rule] a.fl-rule').first();
    await link.waitFor();
    const rule = await link.locator('..').locator('..').getAttribute('data-rule');
    assert.equal(await link.getAttribute('href'), `/rules.html#${rule}`);
    const [ref] = await Promise.all([page.context().waitForEvent('page'), link.click()]);
    await ref.waitForLoadState();
    assert.equal(await ref.locator('section:target').getAttribute('id'), rule);
    const text = await ref.locator('section:target').innerText();
    assert.match(text, /Severity/);
    assert.match(text, /Remediation/);
    assert.match(text, /https:\/\/github\.com\/|Sources/);
    // The compliance scorecard links its controls the same way.
    await page.goto(sim.base + '/compliance');
    assert.equal(await page.locator('[data-control="ENT-04"] a').getAttribute('href'), '/rules.html#ENT-04');
  } finally { await cleanup(browser, sim); }
});
