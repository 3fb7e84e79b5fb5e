// End to end: the compliance view.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { startSim, launch, newPage, cleanup, openMenu } from './helpers.mjs';

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

test('enterprise-fips: FIPS profile by default, controls pass, exports carry identity', async () => {
  const sim = await startSim(['--scenario', 'enterprise-fips']);
  try {
    const page = await newPage(browser);
    await page.goto(sim.base + '/compliance');
    await page.locator('[data-table=scorecard]').waitFor();
    assert.equal(await page.locator('select[name=profile]').inputValue(), 'fips');
    assert.equal(await page.locator('[data-summary=compliance] [data-variant]').getAttribute('data-variant'), 'enterprise-distroless-fips');
    for (const rule of ['ENT-01', 'ENT-02', 'ENT-03', 'ENT-04', 'ENT-11']) {
      assert.equal(await page.locator(`[data-control="${rule}"]`).getAttribute('data-result'), 'pass', rule);
    }
    assert.equal(await page.locator('[data-component=source-controller]').getAttribute('data-variant'), 'enterprise-distroless-fips');
    const dl = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Export JSON' }).click();
    const file = await dl;
    const json = JSON.parse(readFileSync(await file.path(), 'utf8'));
    assert.equal(json.cluster.flux_version, 'v2.7.3');
    assert.match(json.cluster.captured_at, /^\d{4}-\d\d-\d\dT/);
    assert.equal(json.profile.name, 'fips');
    const csv = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Export CSV' }).click();
    assert.match((await csv).suggestedFilename(), /^fluxlens-compliance-.*\.csv$/);
  } finally { await cleanup(browser, sim); }
});

test('upstream-bootstrap: requiring enterprise fails ENT-02; profile lives in the URL', async () => {
  const sim = await startSim(['--scenario', 'upstream-bootstrap']);
  try {
    const page = await newPage(browser);
    await page.goto(sim.base + '/compliance');
    await page.locator('[data-table=scorecard]').waitFor();
    assert.equal(await page.locator('select[name=profile]').inputValue(), 'upstream');
    assert.equal(await page.locator('[data-control="ENT-04"]').getAttribute('data-result'), 'fail', 'bootstrap images are tag-only');
    await page.locator('select[name=profile]').selectOption('enterprise');
    await page.waitForURL(/profile=enterprise/);
    await page.locator('[data-control="ENT-02"][data-result=fail]').waitFor();
    assert.ok(await page.locator('[data-rule="ENT-02"][data-severity=high]').count() >= 1);
    assert.ok(await page.locator('[data-rule="ENT-07"][data-severity=high]').count() === 1, 'Flux 2.6 is out of support');
  } finally { await cleanup(browser, sim); }
});

test('one voice: the verdict, the summary line and the overview card say the same count (#27)', async () => {
  for (const scenario of ['homelab', 'enterprise-fips', 'upstream-bootstrap']) {
    const sim = await startSim(['--scenario', scenario]);
    try {
      const page = await newPage(browser);
      await page.goto(`${sim.base}/compliance`);
      await page.locator('[data-summary=compliance]').waitFor();
      const count = /\d+ of \d+ controls pass(, \d+ fail)?(, \d+ unknown)?/;
      const hero = (await page.locator('.fl-hero__text').textContent()).match(count)[0];
      const line = (await page.locator('[data-summary=compliance]').textContent()).match(count)[0];
      assert.equal(line, hero, `${scenario}: summary line`);
      await page.click('nav a:has-text("Overview")');
      const card = (await page.locator('[data-card=compliance] [data-count=controls]').textContent()).match(count)[0];
      assert.equal(card, hero, `${scenario}: overview card (the default profile, as the view opened)`);
      assert.deepEqual(page.errors, []);
    } finally { await cleanup(browser, sim); }
  }
});

test('a required operator the cluster does not meet fails ENT-14, and the summary adds up to the table (#46)', async () => {
  const sim = await startSim(['--scenario', 'homelab']);
  try {
    const page = await newPage(browser);
    await page.goto(`${sim.base}/compliance?minop=v99.0.0`);
    await page.locator('[data-control="ENT-14"]').waitFor();
    assert.equal(await page.locator('[data-control="ENT-14"]').getAttribute('data-result'), 'fail');
    const rows = await page.locator('[data-table=scorecard] [data-control]').count();
    const results = await page.locator('[data-table=scorecard] [data-control]').evaluateAll((els) => els.map((e) => e.dataset.result));
    const n = (r) => results.filter((x) => x === r).length;
    const line = await page.locator('[data-summary=compliance]').textContent();
    const [, pass, total] = line.match(/(\d+) of (\d+) controls pass/);
    assert.equal(Number(total), rows, line);
    assert.equal(Number(pass), n('pass'), line);
    assert.match(line, new RegExp(`, ${n('fail')} fail`));
    if (n('unknown')) assert.match(line, new RegExp(`, ${n('unknown')} unknown`));
    assert.deepEqual(page.errors, []);
  } finally { await cleanup(browser, sim); }
});

test('evidence exported from a snapshot says it is one (#46)', async () => {
  const sim = await startSim(['--scenario', 'enterprise-fips']);
  try {
    const page = await newPage(browser);
    await page.goto(sim.base + '/compliance');
    await page.locator('[data-table=scorecard]').waitFor();
    const live = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Export JSON' }).click();
    const liveJson = JSON.parse(readFileSync(await (await live).path(), 'utf8'));
    assert.equal(liveJson.cluster.data_source, 'live API');
    await openMenu(page, 'share');
    await page.getByRole('button', { name: 'Share snapshot' }).click();
    const link = await page.locator('[data-share-link]').inputValue();
    const viewer = await newPage(browser);
    await viewer.goto(link);
    await viewer.locator('[data-table=scorecard]').waitFor();
    const dl = viewer.waitForEvent('download');
    await viewer.getByRole('button', { name: 'Export JSON' }).click();
    const json = JSON.parse(readFileSync(await (await dl).path(), 'utf8'));
    assert.match(json.cluster.data_source, /^snapshot/);
    assert.equal(json.cluster.captured_at, liveJson.cluster.captured_at);
  } finally { await cleanup(browser, sim); }
});
