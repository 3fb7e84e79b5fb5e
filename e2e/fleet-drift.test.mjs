// The fleet's drift counts (#70): a hub given renders (`render` in /clusters.json, a path on its
// own origin) counts each cluster's drift against its render by the same rules as that
// cluster's own /drift, polls it in as the cluster changes, links to that view, and says so
// when a render cannot be read; a cluster given no render says that, never "in sync".
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSim, launch, newPage, cleanup } from './helpers.mjs';

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

const CLUSTERS = [
  { name: 'prod-eu', scenario: 'demo', render: true, labels: { env: 'prod', wave: '1' } },
  { name: 'broken', scenario: 'demo', render: '/renders/missing.yaml', labels: { env: 'prod', wave: '1' } },
  { name: 'lab', scenario: 'enterprise-fips', labels: { env: 'dev', wave: '2' } },
];

const control = (sim, cluster, q) =>
  fetch(`${sim.base}/clusters/${cluster}/__sim/${q}`).then((r) => assert.equal(r.status, 200, q));
const row = (page, name) => page.locator(`tr[data-cluster="${name}"]`);
const drift = (page, name) => row(page, name).getAttribute('data-drift');

test('each row counts drift against its render as it happens, and links to the same judgement', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'fluxlens-fleet-drift-'));
  writeFileSync(join(dir, 'fleet.json'), JSON.stringify({ clusters: CLUSTERS }));
  const sim = await startSim(['--scenario', dir]);
  try {
    const page = await newPage(browser);
    await page.goto(`${sim.base}/fleet?poll=2&waves=wave`);
    await page.locator('tr[data-cluster="prod-eu"][data-drift="0"]').waitFor({ timeout: 30000 });
    const cell = row(page, 'prod-eu').locator('td[data-count="drift"]');
    assert.match(await cell.textContent(), /in sync: 190 objects compared/);
    assert.equal(await row(page, 'prod-eu').getAttribute('data-drift-worst'), 'none');
    assert.equal(await cell.locator('a').getAttribute('href'), '/clusters/prod-eu/drift?render=/renders/prod-eu.yaml');
    // No render named: said, never counted as in sync.
    assert.equal(await drift(page, 'lab'), '');
    assert.match(await row(page, 'lab').locator('td[data-count="drift"]').textContent(), /no render named/);
    // A render nothing serves: the row says why (the hub answered a web page in its place).
    await page.locator('tr[data-cluster="broken"][data-drift="unreadable"]').waitFor({ timeout: 30000 });
    assert.match(await row(page, 'broken').locator('td[data-count="drift"]').textContent(), /render unreadable: \/renders\/missing\.yaml answered/);

    // A hand edit in the cluster: counted at a later round.
    await control(sim, 'prod-eu', 'set-spec?object=Kustomization/flux-system/tenants&field=suspend&value=true');
    await page.locator('tr[data-cluster="prod-eu"][data-drift="1"]').waitFor({ timeout: 30000 });
    assert.equal(await row(page, 'prod-eu').getAttribute('data-drift-worst'), 'high');
    // A wave goes on only once the one before runs its renders.
    const held = await page.locator('li[data-wave="2"]').textContent();
    assert.match(held, /prod-eu \(.*?drifts from its render: 1 finding at high or critical/);
    assert.match(held, /broken \(.*?its render \/renders\/missing\.yaml cannot be read/);
    // A deletion: absent only once the cluster's server answered NotFound for that key.
    await control(sim, 'prod-eu', 'delete?object=Kustomization/flux-system/infra-controllers');
    await page.waitForFunction(() => Number(document.querySelector('tr[data-cluster="prod-eu"]')?.dataset.drift) >= 2, null, { timeout: 30000 });
    const counted = Number(await drift(page, 'prod-eu'));
    // The link opens the cluster's own drift view on the same render: the same findings.
    const href = await row(page, 'prod-eu').locator('td[data-count="drift"] a').getAttribute('href');
    const own = await newPage(browser);
    await own.goto(sim.base + href);
    const summary = own.locator('[data-summary="drift"]');
    await own.locator('tr[data-node-id="Kustomization/flux-system/infra-controllers"][data-rule="DRIFT-01"]').waitFor({ timeout: 20000 });
    assert.equal(Number(await summary.getAttribute('data-findings')), counted);
    assert.equal(await own.locator('tr[data-node-id="Kustomization/flux-system/tenants"][data-rule="DRIFT-03"]').count(), 1);
    // Read-only: nothing mutating reached the cluster.
    const log = await (await fetch(`${sim.base}/clusters/prod-eu/__sim/log`)).json();
    assert.ok(log.some((e) => e.path.endsWith('/inventory/objects')), 'the absence was read by key');
    assert.deepEqual(log.filter((e) => e.mutating), []);
    assert.deepEqual(page.errors, []);
    assert.deepEqual(own.errors, []);
  } finally { await cleanup(browser, sim); }
});
