// End to end: the migrations view.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startSim, launch, newPage, cleanup } from './helpers.mjs';

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

test('demo: mid consumer flip, progress counts, receiver path, commands; overview cards', async () => {
  const sim = await startSim(['--scenario', 'demo']);
  try {
    const page = await newPage(browser);
    await page.goto(sim.base + '/migrations');
    const gitOci = page.locator('[data-migration=git-oci]');
    await gitOci.waitFor();
    assert.equal(await gitOci.locator('[data-stage=M2]').getAttribute('data-state'), 'done');
    assert.equal(await gitOci.locator('[data-stage=M3]').getAttribute('data-state'), 'in progress');
    assert.match(await gitOci.locator('[data-stage=M3] [data-progress-text]').textContent(), /^\d+ of \d+ consumers on OCIRepository\/flux-system\/flux-system$/);
    assert.match(await gitOci.textContent(), /\/hook\/ef1ac25eeff8057bf82070418a3eabb755c4821b29ff32377c75863bc1692ab5/);
    assert.ok((await gitOci.locator('[data-commands]').count()) === 1);
    // Checks link to the graph.
    await gitOci.locator('[data-stage=M3] a[href^="/graph?sel="]').first().click();
    await page.locator('[data-panel]').waitFor();
    // Storage: CRDs readable, HelmRelease still stored at v2beta2.
    await page.goto(sim.base + '/migrations');
    const storage = page.locator('[data-migration=storage]');
    // Once the CRDs' read, which follows the first view (#51), has answered.
    await storage.locator('[data-stage=S2][data-state="in progress"]').waitFor();
    await page.locator('[data-rule="MIG-API-01"]').first().waitFor();
    assert.equal(await page.locator('[data-rule="MIG-API-01"]').count(), 1);
    await page.goto(sim.base + '/');
    await page.locator('[data-card=migration-git-oci] [data-current-stage]').waitFor();
    assert.match(await page.locator('[data-card=migration-git-oci] [data-current-stage]').textContent(), /^M3/);
    assert.deepEqual(page.errors, []);
  } finally { await cleanup(browser, sim); }
});

test('the first view does not wait for the CRDs: "reading the Flux CRDs…" until they come, then the storage stages (#51)', async () => {
  const sim = await startSim(['--scenario', 'demo']);
  try {
    const page = await newPage(browser);
    // Hold the CRDs' read (a batch of CustomResourceDefinitions) until the view is on screen.
    let release;
    const held = new Promise((r) => { release = r; });
    const crdReads = [];
    let asked;
    const crdAsked = new Promise((r) => { asked = r; });
    await page.context().route('**/api/v1/inventory/objects', async (route) => {
      if ((route.request().postData() || '').includes('"CustomResourceDefinition"')) {
        crdReads.push(route.request().url());
        asked();
        await held;
      }
      await route.continue();
    });
    await page.goto(sim.base + '/migrations');
    await page.waitForFunction(() => performance.getEntriesByName('fluxlens:view-rendered').length > 0, null, { timeout: 30000 });
    const storage = page.locator('[data-migration=storage]');
    await storage.waitFor();
    // The read goes out a frame after the first load's data (src/api/loader.rs `painted`).
    await crdAsked;
    // Meanwhile: said in place, neither pass nor fail, no storage finding; no notice above the
    // view (it would push the page down, then back up when the read answers).
    assert.equal(crdReads.length, 1, 'the CRDs are asked once, after the objects');
    assert.equal(await storage.locator('[data-stage=S1] [data-check]').getAttribute('data-check'), 'unknown');
    assert.match(await storage.locator('[data-stage=S1]').textContent(), /reading the Flux CRDs…/);
    assert.equal(await page.locator('[data-rule="MIG-API-01"]').count(), 0);
    assert.equal(await page.locator('[data-progress]').count(), 0);
    release();
    // Then what the CRDs say: HelmRelease still stored at v2beta2.
    await storage.locator('[data-stage=S2][data-state="in progress"]').waitFor();
    await page.locator('[data-rule="MIG-API-01"]').first().waitFor();
    assert.equal(await storage.locator('[data-stage=S1] [data-check]').getAttribute('data-check'), 'pass');
    assert.equal(await page.locator('[data-progress]').count(), 0);
    assert.deepEqual(page.errors, []);
  } finally { await cleanup(browser, sim); }
});

test('broken: invariants block the stepper; CRDs forbidden show unknown', async () => {
  const sim = await startSim(['--scenario', 'broken']);
  try {
    const page = await newPage(browser);
    await page.goto(sim.base + '/migrations');
    const gitOci = page.locator('[data-migration=git-oci]');
    await gitOci.waitFor();
    // MIG-GO-02 blocks once the confirming read has said the references are missing (#51: the
    // first view does not wait for it, and calls nothing missing before it answers). The stage
    // may already be blocked before that by MIG-GO-10, read from the root's own status: wait
    // for the confirmed blocker itself, not for the blocked state (a race CI lost once).
    await gitOci.locator('.fl-blockers [data-rule="MIG-GO-02"]').first().waitFor();
    assert.equal(await gitOci.locator('[data-state=blocked]').count(), 1);
    assert.ok(await gitOci.locator('.fl-blockers [data-rule="MIG-GO-10"][data-severity=critical]').count() === 1);
  } finally { await cleanup(browser, sim); }
  const sim2 = await startSim(['--scenario', 'upstream-bootstrap', '--crds-forbidden']);
  try {
    const page = await newPage(browser);
    await page.goto(sim2.base + '/migrations');
    const storage = page.locator('[data-migration=storage]');
    await storage.waitFor();
    // The first view comes before the CRDs' read (#51): "reading the Flux CRDs…" until it
    // answers, then what it answered. Never pass or fail meanwhile.
    assert.equal(await storage.locator('[data-stage=S1] [data-check]').getAttribute('data-check'), 'unknown');
    await storage.getByText(/unknown \(no access\)/).first().waitFor();
    assert.equal(await storage.locator('[data-stage=S1] [data-check]').getAttribute('data-check'), 'unknown');
    assert.doesNotMatch(await storage.textContent(), /reading the Flux CRDs/);
    assert.equal(await page.locator('[data-rule="MIG-API-07"]').count(), 1);
    assert.equal(await page.locator('[data-rule="MIG-DIST-01"]').count(), 1);
    // Intent before progress: bootstrap with no FluxInstance shows no second origin yet.
    assert.equal(await page.locator('[data-migration=distribution]').getAttribute('data-badge'), 'not started');
    assert.match(await page.locator('[data-migration=distribution] [data-current-stage]').textContent(), /^not started/);
  } finally { await cleanup(browser, sim2); }
});

test('flux-aio → Flux Operator: every controller the FluxInstance asks for is accounted for', async () => {
  const at = async (scenario) => {
    const sim = await startSim(['--scenario', scenario]);
    const page = await newPage(browser);
    await page.goto(sim.base + '/migrations');
    const card = page.locator('[data-migration=distribution]');
    await card.waitFor();
    return { sim, page, card };
  };
  let { sim, page, card } = await at('flux-aio');
  try {
    assert.equal(await card.getAttribute('data-badge'), 'not started');
    assert.equal(await page.locator('[data-rule^="MIG-DIST"]:not([data-severity=info])').count(), 0, 'calm before the switch');
  } finally { await cleanup(browser, sim); }
  ({ sim, page, card } = await at('flux-aio-switching'));
  try {
    // #46: the takeover is applying — one verdict, wait: in progress, nothing high beside it.
    assert.equal(await card.locator('[data-stage=D2]').getAttribute('data-state'), 'in progress');
    assert.equal(await page.locator('[data-rule="MIG-DIST-02"][data-severity=high]').count(), 0);
    assert.match(await card.locator('[data-stage=D3] [data-progress-text]').textContent(), /^0 of 4 controllers from the operator/);
    const inside = page.locator('[data-rule="MIG-DIST-04"][data-severity=info]');
    assert.equal(await inside.count(), 1);
    assert.match(await inside.textContent(), /inside flux-aio/);
  } finally { await cleanup(browser, sim); }
  ({ sim, page, card } = await at('flux-aio-taken-over'));
  try {
    assert.match(await card.locator('[data-stage=D3] [data-progress-text]').textContent(), /^3 of 4 controllers from the operator/);
    const stuck = page.locator('[data-rule="MIG-DIST-04"][data-severity=high]');
    assert.equal(await stuck.count(), 1);
    assert.match(await stuck.textContent(), /helm-controller not ready.*ImagePullBackOff/);
  } finally { await cleanup(browser, sim); }
});

test('handover (#29, revision 5): verify delivered from Git, nine instance patches and none for verify — said as what the switch would drop, the patch named before the switch', async () => {
  const sim = await startSim(['--scenario', 'handover']);
  try {
    const page = await newPage(browser);
    await page.goto(sim.base + '/migrations');
    const gitOci = page.locator('[data-migration=git-oci]');
    await gitOci.waitFor();
    // Revision 5 (#69): a prediction waits for the step that acts. The careful path stages the
    // verified source while the sync stays Git: M4 is in progress, not blocked; SIG-09 says what
    // the switch would drop (info), and the next commands add the patch before the switch.
    await gitOci.locator('[data-stage=M4][data-state="in progress"]').waitFor();
    assert.equal(await gitOci.locator('[data-state=blocked]').count(), 0);
    assert.equal(await gitOci.locator('.fl-blockers [data-rule="SIG-09"]').count(), 0);
    assert.match(await gitOci.locator('[data-commands]').textContent(), /# before switching spec\.sync\.kind: add .*\/spec\/verify/);
    // M4's verify checks fail until a patch reaches the generated OCIRepository.
    const m4 = gitOci.locator('[data-stage=M4]');
    for (const check of await m4.locator('[data-check]').all()) {
      if (/verify/.test(await check.textContent())) assert.equal(await check.getAttribute('data-check'), 'fail');
    }
    // #46: the next command carries the URL the cluster already names.
    const commands = await gitOci.locator('[data-commands]').textContent();
    assert.match(commands, /oci:\/\/ghcr\.io\//);
    assert.doesNotMatch(commands, /<registry>/);
    // The signatures view does not call the future root verified before it is the root, and
    // says what the switch would drop as context, with the patch.
    await page.goto(sim.base + '/signatures');
    await page.locator('[data-verdict]').waitFor();
    const predicted = page.locator('[data-rule="SIG-09"][data-severity=info]');
    await predicted.first().waitFor({ state: 'attached' });
    assert.equal(await predicted.count(), 1);
    assert.match(await predicted.textContent(), /would be dropped at the handover/);
    assert.match(await predicted.textContent(), /\/spec\/verify/);
    assert.doesNotMatch(await page.locator('[data-verdict]').textContent(), /^.*Root source verified/);
    assert.deepEqual(page.errors, []);
  } finally { await cleanup(browser, sim); }
});

/// What the engineer reads on /migrations, as contradictions (empty when every card reads true):
/// a stage done beside a failing check without saying so, a stage "not started" above work done
/// in a started migration, a failing check that reads "clean".
async function contradictions(page) {
  return page.evaluate(() => {
    const out = [];
    for (const card of document.querySelectorAll('[data-migration]')) {
      const started = !['not started', 'unknown'].includes(card.getAttribute('data-badge'));
      for (const stage of card.querySelectorAll('[data-stage]')) {
        const id = `${card.dataset.migration} ${stage.dataset.stage}`;
        const state = stage.dataset.state;
        const failing = stage.querySelectorAll('[data-check=fail]').length;
        if (state === 'done' && failing > 0 && !stage.querySelector('[data-failing-now]')) out.push(`${id}: done beside ${failing} failing checks`);
        const progress = stage.querySelector('[data-progress-text]')?.textContent ?? '';
        const done = Number((progress.match(/^(\d+) of/) ?? [0, 0])[1]);
        if (started && state === 'not started' && done > 0) out.push(`${id}: not started above "${progress}"`);
        for (const c of stage.querySelectorAll('[data-check=fail]')) {
          if (/\bclean\b/.test(c.textContent)) out.push(`${id}: a failing check reads clean: ${c.textContent}`);
        }
      }
    }
    return out;
  });
}

test('#68: the demo with its future OCI root refused and its verify removed — where it stands, what blocks it, credentials to run', async () => {
  const sim = await startSim(['--scenario', 'demo']);
  try {
    const page = await newPage(browser);
    await page.goto(sim.base + '/migrations?poll=2');
    const gitOci = page.locator('[data-migration=git-oci]');
    await gitOci.locator('[data-stage=M3][data-state="in progress"]').waitFor({ timeout: 30000 });
    assert.deepEqual(await contradictions(page), []);
    const object = 'object=OCIRepository/flux-system/flux-system';
    const message = encodeURIComponent('failed to pull: GET https://ghcr.io/token: UNAUTHORIZED: authentication required');
    for (const q of [`set-ready?${object}&ready=0&message=${message}`, `unset-spec?${object}&field=verify`]) {
      const r = await fetch(`${sim.base}/__sim/${q}`);
      assert.equal(r.status, 200, q);
    }
    // The next poll: M2 blocked by its own source, M3 still in progress with its work counted.
    await gitOci.locator('[data-stage=M2][data-state=blocked]').waitFor({ timeout: 30000 });
    await gitOci.locator('[data-commands]:has-text("flux create secret oci")').waitFor({ timeout: 10000 });
    assert.equal(await gitOci.locator('[data-stage=M3]').getAttribute('data-state'), 'in progress');
    assert.match(await gitOci.locator('[data-stage=M3] [data-progress-text]').textContent(), /^[1-9]\d* of \d+ consumers/);
    // Blockers lie in the migration's own chain: here the OCI root it is moving to.
    const blockers = await gitOci.locator('.fl-blockers [data-rule] .fl-finding__msg').allTextContents();
    assert.ok(blockers.length > 0);
    for (const b of blockers) assert.match(b, /OCIRepository\/flux-system\/flux-system/, `a blocker outside the migration's chain: ${b}`);
    const commands = await gitOci.locator('[data-commands]').textContent();
    assert.doesNotMatch(commands, /flux push artifact|cosign sign/, 'no artifact push for a pull refused on credentials');
    assert.match(commands, /flux events --for OCIRepository\/flux-system -n flux-system/);
    assert.match(await gitOci.locator('[data-stage=M2]').textContent(), /not verified \(stale condition\)/);
    assert.deepEqual(await contradictions(page), []);
    assert.deepEqual(page.errors, []);
  } finally { await cleanup(browser, sim); }
  // The scenarios the issue read, and the CRDs refused: every card reads true.
  for (const scenario of ['broken', 'frozen', 'flux-aio-switching', 'upstream-bootstrap']) {
    const other = await startSim(['--scenario', scenario]);
    try {
      const page = await newPage(browser);
      await page.goto(other.base + '/migrations');
      await page.locator('[data-migration]').first().waitFor({ timeout: 30000 });
      await page.waitForFunction(() => performance.getEntriesByName('fluxlens:data-ready').length > 0, null, { timeout: 30000 });
      assert.deepEqual(await contradictions(page), [], scenario);
      if (scenario === 'flux-aio-switching') {
        // The switch under way leads; the unstarted Git → OCI migration is folded, not a red list.
        assert.equal(await page.locator('[data-migration]').first().getAttribute('data-migration'), 'distribution');
        assert.equal(await page.locator('[data-migration=git-oci] details.fl-stages-ahead:not([open])').count(), 1);
      }
      if (scenario === 'frozen') {
        await page.locator('[data-migration=git-oci] [data-commands]:has-text("patch kustomization cluster-vap")').waitFor({ timeout: 30000 });
        assert.doesNotMatch(await page.locator('[data-migration=git-oci] [data-commands]').textContent(), /flux push artifact/);
      }
    } finally { await cleanup(browser, other); }
  }
});
