// End to end: the signatures view and its rules on the scenarios.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startSim, launch, newPage, cleanup } from './helpers.mjs';

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

const rulesOn = async (page) => [...new Set(await page.locator('[data-rule]').evaluateAll((els) => els.map((e) => `${e.dataset.rule}:${e.dataset.severity}`)))].sort();

test('broken: each signature rule fires where the scenario breaks it', async () => {
  const sim = await startSim(['--scenario', 'broken']);
  try {
    const page = await newPage(browser);
    await page.goto(sim.base + '/signatures');
    await page.locator('[data-table=sources]').waitFor();
    const rules = await rulesOn(page);
    for (const want of ['SIG-02:high', 'SIG-03:high', 'SIG-10:critical', 'SIG-04:medium', 'SIG-05:high', 'SIG-06:high', 'SIG-07:medium', 'SIG-08:low', 'SIG-11:low', 'SIG-12:high', 'SIG-13:medium']) {
      assert.ok(rules.includes(want), `${want} missing in ${rules.join(' ')}`);
    }
    // Revision 3, one cause one finding: the verify patch missed, so SIG-10 on the root
    // carries SIG-09 (the patch), SIG-01 and SIG-11 (the root) as its evidence.
    const sig10 = await page.locator('[data-rule="SIG-10"]').first().textContent();
    for (const carried of ['also SIG-01', 'also SIG-09', 'also SIG-11']) assert.match(sig10, new RegExp(carried));
    for (const absorbed of ['SIG-01:critical', 'SIG-09:high', 'SIG-11:critical']) assert.ok(!rules.includes(absorbed), absorbed);
    // The root is pinned first and is not verified.
    const first = page.locator('[data-table=sources] tbody tr').first();
    assert.equal(await first.getAttribute('data-node-id'), 'OCIRepository/flux-system/flux-system');
    assert.equal(await first.getAttribute('data-root'), 'true');
    assert.equal(await page.locator('[data-summary=signatures] [data-root-verified]').getAttribute('data-root-verified'), 'no');
    // Several identity matchers: both shown verbatim; only the unpinned one is reported.
    const multi = page.locator('tr[data-node-id="OCIRepository/apps/multi-identity"]');
    assert.equal(await page.locator('tr[data-more-for="OCIRepository/apps/multi-identity"] .fl-identities li').count(), 2);
    assert.equal(await multi.locator('[data-identity-rules]').getAttribute('data-identity-rules'), '2');
    const sig07 = page.locator('[data-rule=SIG-07]');
    assert.match(await sig07.first().textContent(), /matchOIDCIdentity\[1\]/);
    // A Bucket cannot verify.
    assert.match(await page.locator('tr[data-node-id="Bucket/apps/assets"] [data-verifiable]').textContent(), /^no/);
    // Filters live in the URL.
    await page.getByLabel('Severity').selectOption('critical');
    await page.waitForURL(/sev=critical/);
    const shown = await rulesOn(page);
    assert.ok(shown.length > 0, 'critical findings shown');
    assert.deepEqual(shown.filter((r) => !r.endsWith(':critical')), []);
    assert.deepEqual(page.errors, []);
  } finally { await cleanup(browser, sim); }
});

test('enterprise-fips: verified root, no instance-patch or root findings; demo: Disabled prune is valid', async () => {
  let sim = await startSim(['--scenario', 'enterprise-fips']);
  try {
    const page = await newPage(browser);
    await page.goto(sim.base + '/');
    await page.locator('[data-card=signatures]').waitFor();
    assert.equal(await page.locator('[data-card=signatures] [data-root-verified]').textContent(), 'yes');
    await page.goto(sim.base + '/signatures');
    await page.locator('[data-table=sources]').waitFor();
    const rules = await rulesOn(page);
    for (const absent of ['SIG-01', 'SIG-03', 'SIG-09', 'SIG-10', 'SIG-05', 'SIG-06']) {
      assert.ok(!rules.some((r) => r.startsWith(absent + ':')), `${absent} must not fire: ${rules.join(' ')}`);
    }
  } finally { await cleanup(browser, sim); }
  sim = await startSim(['--scenario', 'demo']);
  try {
    const page = await newPage(browser);
    await page.goto(sim.base + '/');
    await page.locator('[data-card=signatures]').waitFor();
    // The parallel OCI source carries prune: Disabled (capital D) — valid, so MIG-GO-05 is silent.
    assert.equal(await page.locator('[data-rule="MIG-GO-05"]').count(), 0);
    // The Git root has no verify: SIG-01, medium for a Git root (revision 2), saying why.
    const sig01 = page.locator('[data-rule="SIG-01"][data-severity=medium]');
    assert.equal(await sig01.count(), 1);
    assert.match(await sig01.locator('[data-reason]').textContent(), /root source · posture gap/);
  } finally { await cleanup(browser, sim); }
});
