// What changed since T (#49): a visit, changes on the simulator, the next visit — the overview's
// line and the /changes timeline; and a page watched while a change lands, through a fault and
// back. Times are the simulator's replay of the scenario (a minute ago at its newest).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startSim, launch, openMenu } from './helpers.mjs';

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

const marked = (name) => performance.getEntriesByName(name).length > 0;
const control = async (sim, q) => {
  const r = await fetch(`${sim.base}/__sim/${q}`);
  assert.ok(r.ok, `${q}: ${r.status}`);
};
const row = (kind, subject) => `[data-change][data-change-kind="${kind}"][data-subject="${subject}"]`;

test('a visit, changes on the cluster, the next visit: the overview says what changed since, /changes lists each once', async () => {
  const sim = await startSim(['--scenario', 'demo']);
  const context = await browser.newContext();
  try {
    const first = await context.newPage();
    await first.goto(sim.base + '/?poll=600');
    await first.waitForFunction(marked, 'fluxlens:last-visit-kept', { timeout: 30000 });
    // The first visit keeps nothing to compare with: no line.
    assert.equal(await first.locator('[data-since-last-visit]').count(), 0);
    await first.close();

    await control(sim, 'apply?object=HelmRelease/team-payments/svc-0&revision=1.5.0');
    await control(sim, 'set-ready?object=Kustomization/team-payments/team-payments-app-0&ready=0&message=health%20check%20failed');
    await control(sim, 'delete?object=HelmRepository/team-ledger/charts');

    const page = await context.newPage();
    const errors = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    await page.goto(sim.base + '/?poll=600');
    const line = page.locator('[data-since-last-visit]');
    await line.waitFor({ timeout: 30000 });
    const said = await line.textContent();
    assert.match(said, /Since your last visit \(\d\d:\d\d:\d\d UTC\)/, said);
    assert.match(said, /1 revision applied/, said);
    assert.match(said, /1 Kustomization failed/, said);
    assert.match(said, /1 object removed/, said);
    assert.ok(Date.parse(await line.getAttribute('data-since-last-visit')) > Date.now() - 10 * 60 * 1000);

    await line.getByRole('link', { name: 'What changed' }).click();
    await page.waitForURL(/\/changes\?since=last-visit/);
    await page.locator('[data-change]').first().waitFor({ timeout: 15000 });
    // Each change once, from the comparison and from the cluster's own records.
    const once = async (selector) => {
      await page.locator(selector).first().waitFor({ timeout: 15000 }).catch(async (e) => {
        const rows = await page.locator('[data-change]').evaluateAll((rs) => rs.map((r) => `${r.dataset.at} ${r.textContent}`));
        const limits = await page.locator('[data-limit]').allTextContents();
        throw new Error(`${e.message}\nrows:\n${rows.slice(0, 15).join('\n')}\nlimits:\n${limits.join('\n')}`);
      });
      assert.equal(await page.locator(selector).count(), 1, selector);
    };
    await once(row('removed', 'HelmRepository/team-ledger/charts'));
    await once(row('revision', 'HelmRelease/team-payments/svc-0') + ':has-text("released svc-0 1.5.0: deployed")');
    await once(row('status', 'Kustomization/team-payments/team-payments-app-0') + ':has-text("Ready → False")');
    assert.ok(await page.locator('[data-change][data-change-kind="finding-added"]').count() >= 1, 'the dangling chart source raises a finding');
    for (const at of await page.locator('[data-change]').evaluateAll((rows) => rows.map((r) => r.dataset.at))) {
      assert.match(at, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    }
    // Newest first.
    const times = await page.locator('[data-change]').evaluateAll((rows) => rows.map((r) => Date.parse(r.dataset.at)));
    assert.deepEqual(times, [...times].sort((a, b) => b - a));
    // A filter by kind keeps the URL and the rows of that kind only.
    await page.getByLabel('Kind').selectOption('HelmRelease');
    await page.waitForURL(/kind=HelmRelease/);
    const subjects = await page.locator('[data-change]').evaluateAll((rows) => rows.map((r) => r.dataset.subject));
    assert.ok(subjects.length > 0 && subjects.every((s) => s.startsWith('HelmRelease/')), subjects.join(' '));
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
    sim.stop();
  }
});

test('a watched window: a change lands while the page is open, through a fault and back; the limits are said', async () => {
  const sim = await startSim(['--scenario', 'demo']);
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    const errors = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    await page.goto(sim.base + '/changes?since=1h&poll=2');
    await page.locator('[data-verdict]').waitFor({ timeout: 30000 });
    // No visit kept in a fresh browser: said, never "nothing changed".
    const limits = (await page.locator('[data-limit]').allTextContents()).join('\n');
    assert.match(limits, /No earlier read is kept to compare with/);
    assert.doesNotMatch(await page.locator('[data-verdict]').textContent(), /nothing changed/i);
    const before = await page.locator('[data-change]').count();

    await sim.faults('down=1');
    await page.locator('[data-freshness=stale]').waitFor({ timeout: 20000 });
    assert.equal(await page.locator('[data-change]').count(), before, 'a fault loses no row');
    await control(sim, 'apply?object=Kustomization/flux-system/infra-configs&revision=refs/heads/main@sha1:5555555555555555555555555555555555555555');
    await sim.faults('reset=1');
    const applied = page.locator(row('revision', 'Kustomization/flux-system/infra-configs') + ':has-text("applied refs/heads/main@sha1:555555555555")');
    await applied.waitFor({ timeout: 20000 });
    assert.equal(await applied.count(), 1);
    assert.equal(await page.locator('[data-change]').first().getAttribute('data-subject'), 'Kustomization/flux-system/infra-configs', 'the newest first');
    // The window's events were read (one request of Warning events), not per object.
    const log = await sim.log();
    const reads = log.filter((e) => (e.path ?? e.url ?? '').includes('/api/v1/events'));
    assert.ok(reads.length >= 1 && reads.length <= 3, JSON.stringify(reads));
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
    sim.stop();
  }
});

test('a snapshot compared with the live cluster, then two snapshots with each other: the same rows, read-only', async () => {
  const sim = await startSim(['--scenario', 'demo']);
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    const errors = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    const snapshotLink = async () => {
      await openMenu(page, 'share');
      await page.getByRole('button', { name: 'Share snapshot' }).click();
      const link = await page.locator('[data-share-link]').inputValue();
      redaction = await page.locator('[data-redacted]').textContent();
      await page.keyboard.press('Escape');
      return link;
    };
    let redaction = '';
    await page.goto(sim.base + '/?poll=2');
    await page.locator('[data-count=objects]').waitFor({ timeout: 30000 });
    const before = await snapshotLink();
    // #68: the dialog says why the generic-oidc webhook path the snapshot shows is no secret.
    assert.match(redaction, /webhook paths it shows are computed from each Receiver's name and namespace, not from a token/);
    await control(sim, 'apply?object=HelmRelease/team-payments/svc-1&revision=1.6.0');
    await page.locator('nav.fl-nav a[href="/changes"]').click();
    await page.locator('[data-verdict]').waitFor({ timeout: 15000 });
    const released = page.locator(row('revision', 'HelmRelease/team-payments/svc-1') + ':has-text("1.6.0")');
    await released.first().waitFor({ timeout: 20000 });
    // Compared with the earlier snapshot: only what comparing finds, dated between the reads.
    await page.locator('[data-compare-link]').fill(before);
    await page.locator('[data-compare-link]').press('Enter');
    await page.locator('[data-compared-with]').waitFor();
    const compared = page.locator(row('revision', 'HelmRelease/team-payments/svc-1'));
    await compared.waitFor();
    // #68: each row and the verdict name what they were compared with.
    assert.match(await compared.textContent(), /between .* now at 1\.6\.0 .*compared with the snapshot read /);
    assert.match(await page.locator('[data-verdict]').textContent(), /between the snapshot read .* and this read/);
    // The comparison is in the link, in the fragment no server receives: opened elsewhere, it
    // shows the same comparison.
    const comparing = page.url();
    assert.match(comparing, /\/changes(\?[^#]*)?#compare=fl1\./);
    const shared = await context.newPage();
    shared.on('pageerror', (e) => errors.push(String(e)));
    await shared.goto(comparing);
    await shared.locator('[data-compared-with]').waitFor({ timeout: 30000 });
    await shared.locator(row('revision', 'HelmRelease/team-payments/svc-1')).first().waitFor();
    await shared.close();
    const after = await snapshotLink();
    await page.getByRole('button', { name: 'Stop comparing' }).click();
    await page.locator('[data-compared-with]').waitFor({ state: 'detached' });
    assert.doesNotMatch(page.url(), /compare=/, 'stopping drops the comparison from the link');
    await page.locator('[data-compare-link]').fill('https://example.org/not-a-snapshot');
    await page.locator('[data-compare-link]').press('Enter');
    assert.match(await page.getByRole('alert').filter({ hasText: 'Not a snapshot' }).textContent(), /no snapshot in it/);

    // Two snapshots: the later one opened, the earlier one compared — the same change. The
    // live page stops polling first, so the API log counts only what the snapshots ask.
    await page.close();
    const second = await context.newPage();
    second.on('pageerror', (e) => errors.push(String(e)));
    await second.goto(after);
    await second.locator('[data-verdict]').waitFor({ timeout: 30000 });
    // #68: a snapshot has no history: its page never claims to have searched the last 24 hours.
    assert.doesNotMatch(await second.locator('[data-verdict]').textContent(), /No change found in the last 24 hours/);
    const asked = (await sim.log()).length;
    await second.locator('[data-compare-link]').fill(before);
    await second.locator('[data-compare-link]').press('Enter');
    await second.locator(row('revision', 'HelmRelease/team-payments/svc-1')).waitFor();
    assert.match(second.url(), /#snap=fl1\.[^&]+&compare=fl1\./, 'two snapshots compared: both in the link');
    const third = await context.newPage();
    third.on('pageerror', (e) => errors.push(String(e)));
    await third.goto(second.url());
    await third.locator(row('revision', 'HelmRelease/team-payments/svc-1')).first().waitFor({ timeout: 30000 });
    const extra = (await sim.log()).slice(asked).map((e) => e.path ?? e.url).filter((p) => p.includes('/api/'));
    assert.deepEqual(extra, [], 'comparing snapshots asks the API nothing');
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
    sim.stop();
  }
});
