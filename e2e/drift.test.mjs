// /drift (#70): does the cluster run what the repository says? The simulator serves its
// scenario's render at /__sim/render.yaml, fixed at start; the page judges it against the live
// cluster as it polls, each drift planted through the controls shows as a row beside the
// object's live status, an absence only once the server answered NotFound for that key, and a
// render from another origin or the API is refused with the reason.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startSim, launch, newPage, cleanup, openMenu } from './helpers.mjs';

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

const control = (sim, q) => fetch(`${sim.base}/__sim/${q}`).then((r) => assert.equal(r.status, 200, q));
const summary = (page) => page.locator('[data-summary="drift"]').textContent();
const RENDER = '/drift?poll=2&render=%2F__sim%2Frender.yaml';

test('a render of the cluster has no drift; a hand edit, a stripped verify and a deletion each show as they happen', async () => {
  const sim = await startSim(['--scenario', 'demo']);
  try {
    const page = await newPage(browser);
    await page.goto(sim.base + RENDER);
    await page.locator('[data-summary="drift"]').waitFor();
    assert.match(await summary(page), /^No drift: 190 objects compared, all in sync\./);
    await control(sim, 'set-spec?object=Kustomization/flux-system/tenants&field=suspend&value=true');
    const suspended = page.locator('tr[data-node-id="Kustomization/flux-system/tenants"][data-rule="DRIFT-03"]');
    await suspended.waitFor({ timeout: 15000 });
    assert.equal(await suspended.getAttribute('data-severity'), 'high');
    assert.match(await suspended.textContent(), /is suspended in the cluster and the render does not suspend it/);
    await control(sim, 'unset-spec?object=OCIRepository/team-web/web-chart&field=verify');
    // An edit no status shows is read again with the rolling share: within ten polls.
    const open = page.locator('tr[data-node-id="OCIRepository/team-web/web-chart"][data-rule="DRIFT-04"]');
    await open.waitFor({ timeout: 30000 });
    assert.match(await open.textContent(), /verifies nothing live/);
    // A deletion: absent only on the server's NotFound for that key, read before it is said.
    await control(sim, 'delete?object=Kustomization/flux-system/infra-controllers');
    const gone = page.locator('tr[data-node-id="Kustomization/flux-system/infra-controllers"][data-rule="DRIFT-01"]');
    await gone.waitFor({ timeout: 20000 });
    assert.equal(await gone.getAttribute('data-status'), 'absent');
    assert.equal(await page.locator('[data-notice="drift-confirming"]').count(), 0);
    // Each row links to itself; the link opens on that row.
    const href = await gone.locator('a[href^="/drift"]').getAttribute('href');
    assert.equal(href, '/drift?render=/__sim/render.yaml&object=Kustomization/flux-system/infra-controllers');
    await page.goto(sim.base + href);
    await page.locator('tr[aria-current="true"][data-node-id="Kustomization/flux-system/infra-controllers"]').waitFor();
    // Read-only: only allowed reads reached the server.
    const log = await (await fetch(`${sim.base}/__sim/log`)).json();
    assert.deepEqual(log.filter((e) => e.mutating), []);
    assert.deepEqual(page.errors, []);
  } finally { await cleanup(browser, sim); }
});

test('a render picked from a file is judged in the browser, and a broken one says why', async () => {
  const sim = await startSim(['--scenario', 'demo']);
  try {
    const render = await (await fetch(`${sim.base}/__sim/render.yaml`)).text();
    const page = await newPage(browser);
    await page.goto(sim.base + '/drift');
    await page.locator('[data-drift="none"]').waitFor();
    // One object more than the cluster holds: declared and absent, once the server says so.
    const extra = 'apiVersion: kustomize.toolkit.fluxcd.io/v1\nkind: Kustomization\nmetadata:\n  name: never-applied\n  namespace: flux-system\nspec:\n  path: ./x\n  prune: true\n  sourceRef:\n    kind: GitRepository\n    name: flux-system\n';
    await page.locator('[data-input="render-files"]').setInputFiles([
      { name: 'cluster.yaml', mimeType: 'application/yaml', buffer: Buffer.from(render) },
      { name: 'extra.yaml', mimeType: 'application/yaml', buffer: Buffer.from(extra) },
    ]);
    const row = page.locator('tr[data-node-id="Kustomization/flux-system/never-applied"][data-rule="DRIFT-01"]');
    await row.waitFor({ timeout: 15000 });
    assert.equal(await row.locator('a[href^="/drift"]').count(), 0, 'a file has no link of its own');
    assert.match(await summary(page), /Render: cluster\.yaml, extra\.yaml/);
    await page.locator('[data-input="render-files"]').setInputFiles([
      { name: 'bad.yaml', mimeType: 'application/yaml', buffer: Buffer.from('kind: A\n  bad: [\n') },
    ]);
    const bad = page.locator('[data-notice="render-unreadable"]');
    await bad.waitFor();
    assert.match(await bad.textContent(), /bad\.yaml, document 0: malformed YAML at line/);
    assert.deepEqual(page.errors, []);
  } finally { await cleanup(browser, sim); }
});

test('a render from another origin, the API or a web page is refused with the reason', async () => {
  const sim = await startSim(['--scenario', 'demo']);
  try {
    const page = await newPage(browser);
    for (const [url, says] of [
      ['https://evil.example.com/r.yaml', /only a render on this page's own origin/],
      ['/api/v1/resources', /the Flux Operator's API or its sign-in, not a render/],
      ['/graph', /answered a web page \(text\/html\), not a render/],
    ]) {
      await page.goto(`${sim.base}/drift?render=${encodeURIComponent(url)}`);
      const bad = page.locator('[data-notice="render-unreadable"]');
      await bad.waitFor();
      assert.match(await bad.textContent(), says, url);
    }
    const log = await (await fetch(`${sim.base}/__sim/log`)).json();
    assert.ok(!log.some((e) => e.path.includes('evil')), 'nothing asked of another origin');
    assert.deepEqual(page.errors, []);
  } finally { await cleanup(browser, sim); }
});

test('a hostile value planted live is shown as text, never run', async () => {
  const sim = await startSim(['--scenario', 'hostile']);
  try {
    const page = await newPage(browser);
    await page.goto(sim.base + RENDER);
    await page.locator('[data-summary="drift"]').waitFor();
    const evil = encodeURIComponent(JSON.stringify('<script>window.pwned=3</script><img src=x onerror="window.pwned=4">'));
    const key = 'Kustomization/flux-system/flux-system';
    await control(sim, `set-spec?object=${encodeURIComponent(key)}&field=path&value=${evil}`);
    const row = page.locator(`tr[data-rule="DRIFT-03"][data-node-id="${key}"]`);
    await row.first().waitFor({ timeout: 30000 });
    await row.first().locator('summary').click();
    assert.match(await row.first().textContent(), /<script>window\.pwned=3<\/script>/);
    assert.equal(await page.evaluate(() => window.pwned), undefined);
    assert.equal(await page.locator('main img, main script').count(), 0);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    assert.ok(overflow <= 1, `the page scrolls sideways by ${overflow}px`);
    assert.deepEqual(page.errors, []);
  } finally { await cleanup(browser, sim); }
});

test('the commit a render was made from (revision=) judges the root\'s commit, and each row\'s link keeps it', async () => {
  const sim = await startSim(['--scenario', 'demo']);
  try {
    const page = await newPage(browser);
    const other = 'main@sha1:ffffffffffffffffffffffffffffffffffffffff';
    await page.goto(`${sim.base}${RENDER}&revision=${encodeURIComponent(other)}`);
    const commit = page.locator('tr[data-rule="DRIFT-05"]');
    await commit.waitFor({ timeout: 15000 });
    assert.match(await commit.textContent(), /ffffffffffff/);
    const href = await commit.locator('a[href^="/drift"]').getAttribute('href');
    assert.ok(href.includes(`revision=${encodeURIComponent(other)}`), href);
    // A revision that names no commit is said, never silently dropped.
    await page.goto(`${sim.base}${RENDER}&revision=main`);
    const notCompared = page.locator('[data-drift="not-compared"]');
    await notCompared.waitFor();
    assert.match(await notCompared.textContent(), /revision=main: names no Git commit/);
    assert.equal(await page.locator('tr[data-rule="DRIFT-05"]').count(), 0);
    assert.deepEqual(page.errors, []);
  } finally { await cleanup(browser, sim); }
});

test('a snapshot taken from /drift carries its judgement: it opens with the API down, without the render', async () => {
  const sim = await startSim(['--scenario', 'demo']);
  let link, said;
  try {
    const page = await newPage(browser);
    await page.goto(sim.base + RENDER);
    await page.locator('[data-summary="drift"]').waitFor();
    await control(sim, 'set-spec?object=Kustomization/flux-system/tenants&field=suspend&value=true');
    await page.locator('tr[data-node-id="Kustomization/flux-system/tenants"][data-rule="DRIFT-03"]').waitFor({ timeout: 15000 });
    said = await summary(page);
    await openMenu(page, 'share');
    await page.getByRole('button', { name: 'Share snapshot' }).click();
    link = await page.locator('[data-share-link]').inputValue();
    assert.match(link, /\/drift\?.*#snap=fl1\./);
  } finally { await cleanup(browser, sim); }
  const down = await startSim(['--scenario', 'demo', '--down']);
  try {
    const page = await newPage(browser);
    const asked = [];
    page.on('request', (r) => asked.push(new URL(r.url()).pathname));
    await page.goto(link.replace(/^http:\/\/127\.0\.0\.1:\d+/, down.base));
    await page.locator('[data-notice="drift-carried"]').waitFor();
    assert.equal(await summary(page), said, 'the judgement as the sender saw it');
    const row = page.locator('tr[data-node-id="Kustomization/flux-system/tenants"][data-rule="DRIFT-03"]');
    assert.equal(await row.getAttribute('data-severity'), 'high');
    assert.equal(await row.locator('a[href^="/drift"]').count(), 0, 'no link out of the snapshot');
    assert.ok(asked.includes('/drift'), asked.join(' '));
    assert.deepEqual(asked.filter((p) => p.startsWith('/api/') || p.includes('render.yaml')), [], 'neither the API nor the render is asked');
    assert.deepEqual(page.errors, []);
  } finally { await cleanup(browser, down); }
});
