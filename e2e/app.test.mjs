// End to end: the built app on the simulator, per scenario, through faults.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startSim, launch, newPage, marks, cleanup } from './helpers.mjs';

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

test('demo: header shows the report, counts match, marks recorded, every route renders', async () => {
  const sim = await startSim(['--scenario', 'demo']);
  try {
    const page = await newPage(browser);
    await page.goto(sim.base + '/');
    await page.locator('[data-count=objects]').waitFor();
    assert.equal(await page.locator('[data-identity=Flux]').textContent(), 'v2.7.3');
    assert.equal(await page.locator('[data-identity=Kubernetes]').textContent(), 'v1.34.2');
    assert.equal(await page.locator('[data-identity=Operator]').textContent(), 'v0.58.1');
    assert.equal(await page.locator('[data-count=objects]').textContent(), '190');
    assert.equal(await page.locator('[data-count=missing]').textContent(), '0');
    const m = await marks(page);
    assert.ok(m.includes('fluxlens:data-ready'), m.join());
    for (const [link, heading] of [['Graph', 'Source graph'], ['Signatures', 'Artifact signatures'], ['Migrations', 'Migrations'], ['Compliance', 'Flux Enterprise compliance']]) {
      await page.getByRole('link', { name: link, exact: true }).click();
      await page.getByRole('heading', { level: 1, name: heading }).waitFor();
    }
    // The router: history back/forward re-render the page; the nav marks the current view.
    await page.goBack();
    await page.getByRole('heading', { level: 1, name: 'Migrations' }).waitFor();
    assert.equal(await page.locator('.fl-nav a[aria-current=page]').textContent(), 'Migrations');
    await page.goForward();
    await page.getByRole('heading', { level: 1, name: 'Flux Enterprise compliance' }).waitFor();
    await page.getByRole('link', { name: 'Signatures', exact: true }).click();
    await page.locator('[data-root=true]').waitFor();
    assert.equal(await page.locator('.fl-nav a[aria-current=page]').textContent(), 'Signatures');
    assert.match(await page.locator('[data-root=true] th').textContent(), /GitRepository\/flux-system\/flux-system root/);
    await page.goto(sim.base + '/no/such/page');
    await page.getByRole('heading', { name: 'Page not found' }).waitFor();
    assert.deepEqual(page.errors, []);
    // Keyboard: the skip link is the first focus stop and leads to main.
    await page.goto(sim.base + '/');
    await page.locator('[data-count=objects]').waitFor();
    await page.keyboard.press('Tab');
    assert.equal(await page.evaluate(() => document.activeElement.textContent), 'Skip to content');
  } finally { await cleanup(browser, sim); }
});

test('initial load needs at most 3 + ceil(N/500) API requests, +1 to confirm missing references, +1 for the instance\'s events', async () => {
  const sim = await startSim(['--synthetic', '4500']);
  try {
    const page = await newPage(browser);
    await page.goto(sim.base + '/?poll=600');
    await page.locator('[data-count=objects]').waitFor({ timeout: 30000 });
    assert.equal(await page.locator('[data-count=objects]').textContent(), '4500');
    const api = (await sim.log()).filter((e) => e.path.startsWith('/api/'));
    // report, summaries, ⌈4500/500⌉ batches, CRDs, one read confirming the dangling references,
    // and the FluxInstance's events (ENT-14).
    assert.ok(api.length <= 3 + Math.ceil(4500 / 500) + 2, `requests: ${api.map((e) => e.path).join(', ')}`);
  } finally { await cleanup(browser, sim); }
});

test("today's server (v0.58.1) lists every kind by default: nothing is asked by kind, nothing counted twice", async () => {
  // #47: since v0.53 (internal/web/resources.go GetLiveResources) the default list holds every
  // kind of the index; listing Alerts, Providers, Receivers and image kinds again cost a List
  // of each kind per poll and counted their rows twice.
  const sim = await startSim(['--scenario', 'demo']);
  try {
    const page = await newPage(browser);
    await page.goto(sim.base + '/?poll=1');
    await page.locator('[data-count=objects]').waitFor({ timeout: 30000 });
    await page.waitForFunction(() => document.querySelector('.fl-freshness')?.textContent.startsWith('Updated'));
    const first = await page.locator('.fl-freshness').textContent();
    await page.waitForFunction((t) => document.querySelector('.fl-freshness')?.textContent !== t, first, { timeout: 10000 });
    const log = await sim.log();
    const byKind = log.filter((e) => e.path === '/api/v1/resources' && e.query.startsWith('kind='));
    assert.deepEqual(byKind.map((e) => e.query), [], 'no list by kind');
    const expected = JSON.parse(await (await fetch(sim.base + '/api/v1/resources')).text()).resources.length;
    assert.equal(await page.locator('[data-count=objects]').textContent(), String(expected), 'each object once');
    assert.deepEqual(page.errors, []);
  } finally { await cleanup(browser, sim); }
});

test('an operator before v0.53: the lists by kind the report names are prefetched by the page and adopted, each asked once', async () => {
  // #28: index.html lists the kinds the default list leaves out as soon as the report names
  // them; the app must take those answers, not ask again.
  const sim = await startSim(['--scenario', 'demo', '--operator-version', 'v0.52.0']);
  try {
    const page = await newPage(browser);
    await page.goto(sim.base + '/?poll=600');
    await page.waitForFunction(() => performance.getEntriesByName('fluxlens:data-ready').length > 0, null, { timeout: 30000 });
    const byKind = (await sim.log()).filter((e) => e.path === '/api/v1/resources' && e.query.startsWith('kind='));
    assert.ok(byKind.length >= 3, `lists by kind: ${byKind.map((e) => e.query).join(' ')}`);
    const seen = byKind.map((e) => e.query);
    assert.deepEqual(seen, [...new Set(seen)], 'no list asked twice');
    // The page's own script asked (the app reads through its worker, whose requests are not
    // in the page's resource timing).
    const fromPage = await page.evaluate(() => performance.getEntriesByType('resource').filter((r) => r.name.includes('/api/v1/resources?kind=')).length);
    assert.equal(fromPage, byKind.length, 'every list by kind came from the page script');
    assert.deepEqual(page.errors, []);
  } finally { await cleanup(browser, sim); }
});

test('broken: the bootstrap deadlock is a critical MIG-GO-02 finding', async () => {
  const sim = await startSim(['--scenario', 'broken']);
  try {
    const page = await newPage(browser);
    await page.goto(sim.base + '/');
    const f = page.locator('[data-rule="MIG-GO-02"][data-severity=critical]');
    await f.first().waitFor();
    assert.match(await f.first().textContent(), /Kustomization\/flux-system\/cluster-apps references OCIRepository\/flux-system\/cluster-apps/);
    assert.ok(Number(await page.locator('[data-count=missing]').textContent()) >= 3);
    await page.goto(sim.base + '/graph');
    await page.locator('g[data-node-id="OCIRepository/flux-system/cluster-apps"][data-status=Missing]').waitFor();
  } finally { await cleanup(browser, sim); }
});

test('API down at start: clear message, then recovery without a reload', async () => {
  const sim = await startSim(['--scenario', 'demo', '--down']);
  try {
    const page = await newPage(browser);
    await page.goto(sim.base + '/?poll=1');
    await page.getByRole('alert').waitFor();
    assert.match(await page.getByRole('alert').textContent(), /is starting \(503 server not initialized\)/);
    await sim.faults('reset=1');
    await page.locator('[data-count=objects]').waitFor();
    assert.equal(await page.getByRole('alert').count(), 0);
    assert.deepEqual(page.errors, []);
  } finally { await cleanup(browser, sim); }
});

test('API fails after load: last good data stays with "stale since"', async () => {
  const sim = await startSim(['--scenario', 'demo']);
  try {
    const page = await newPage(browser);
    await page.goto(sim.base + '/?poll=1');
    await page.locator('[data-count=objects]').waitFor();
    await sim.faults('html=1');
    await page.getByRole('alert').waitFor();
    assert.match(await page.getByRole('alert').textContent(), /instead of JSON/);
    assert.match(await page.getByRole('alert').textContent(), /stale since/);
    assert.equal(await page.locator('[data-count=objects]').textContent(), '190');
    await sim.faults('reset=1&malformed=1');
    await page.getByText(/could not be read/).waitFor();
    assert.equal(await page.locator('[data-count=objects]').textContent(), '190');
    await sim.faults('reset=1');
    await page.getByRole('alert').waitFor({ state: 'detached' });
  } finally { await cleanup(browser, sim); }
});

test('401 in OIDC mode offers sign-in at the provider URL; 403 is explained', async () => {
  const sim = await startSim(['--scenario', 'demo', '--oidc']);
  try {
    const page = await newPage(browser);
    await page.goto(sim.base + '/graph?q=apps#top');
    const signIn = page.getByRole('link', { name: 'Sign in' });
    await signIn.waitFor();
    // The server writes the absolute <baseURL>/oauth2/authorize; same origin, so offered. The
    // link comes back to the view itself: path, query and fragment (#67; oauth2.go originalURL
    // redirects to originalPath verbatim).
    const back = new URL(await signIn.getAttribute('href')).searchParams.get('originalPath');
    assert.equal(back, '/graph?q=apps#top');
    // The login is the operator's page, not a route of the app: the browser loads it.
    const other = await newPage(browser);
    await other.goto(sim.base + '/graph');
    await other.getByRole('link', { name: 'Sign in' }).waitFor();
    await other.evaluate(() => { window.flMarker = 1; });
    await Promise.all([other.waitForURL(/\/oauth2\/authorize/), other.getByRole('link', { name: 'Sign in' }).click()]);
    await other.waitForLoadState('load');
    assert.equal(await other.evaluate(() => window.flMarker), undefined, 'a full page load, not an in-app route');
    await sim.faults('reset=1&forbidden=1');
    await page.getByText(/Access denied \(403\)/).waitFor({ timeout: 15000 });
  } finally { await cleanup(browser, sim); }
});

test('read-only: visiting every route sends no mutating request', async () => {
  const sim = await startSim(['--scenario', 'broken']);
  try {
    const page = await newPage(browser);
    for (const r of ['/', '/graph', '/signatures', '/migrations', '/compliance', '/embed/graph', '/embed/overview']) {
      await page.goto(sim.base + r);
      await page.waitForFunction(() => performance.getEntriesByName('fluxlens:view-rendered').length > 0, null, { timeout: 30000 });
      // Every real button (the file picker is an <input>, not a request), those folded into
      // menus too: each button's own menu is opened, and only it, before its click.
      const buttons = await page.locator('button').all();
      // The check has buttons to press (the embedded overview has none: no chrome, links only).
      if (r !== '/embed/overview') assert.ok(buttons.length > 3, `${r}: ${buttons.length} buttons`);
      for (const b of buttons) {
        // A menu can close between its opening and the click (an earlier button's answer, e.g.
        // a copied link, closes it when it lands): opened again and clicked, a few times.
        for (let attempt = 1; ; attempt++) {
          await b.evaluate((el) => {
            const mine = el.closest('details.fl-menu');
            document.querySelectorAll('details.fl-menu').forEach((d) => { d.open = d === mine; });
          });
          try {
            await b.click({ timeout: 3000 });
            break;
          } catch (e) {
            if (attempt === 3) throw e;
          }
        }
      }
    }
    const log = await sim.log();
    assert.ok(log.some((e) => e.path === '/api/v1/inventory/objects'));
    assert.deepEqual(log.filter((e) => e.mutating), []);
    const api = log.filter((e) => e.path.startsWith('/api/'));
    const posts = log.filter((e) => e.method === 'POST');
    assert.ok(api.length > 0 && posts.length > 0, 'the pages asked the API (reads and batch reads)');
    assert.deepEqual(api.filter((e) => !['GET', 'POST'].includes(e.method)), []);
    assert.deepEqual(posts.filter((e) => e.path !== '/api/v1/inventory/objects'), []);
  } finally { await cleanup(browser, sim); }
});

test('embed: no chrome, theme parameter honoured', async () => {
  const sim = await startSim(['--scenario', 'demo']);
  try {
    const page = await newPage(browser);
    await page.goto(sim.base + '/embed/overview?theme=dark');
    await page.locator('[data-count=objects]').waitFor();
    assert.equal(await page.locator('header').count(), 0);
    assert.equal(await page.evaluate(() => document.documentElement.dataset.theme), 'dark');
  } finally { await cleanup(browser, sim); }
});

test('every scenario loads and shows the simulator\'s object count', async () => {
  for (const scenario of ['demo', 'broken', 'enterprise-fips', 'upstream-bootstrap', 'operator-mock', 'staged']) {
    const sim = await startSim(['--scenario', scenario]);
    try {
      // The default list leaves notification and image kinds out (resources.go): those by kind.
      const list = async (q) => (await (await fetch(sim.base + '/api/v1/resources' + q)).json()).resources || [];
      const report = await (await fetch(sim.base + '/api/v1/report')).json();
      const rows = await list('');
      for (const r of report.spec.reconcilers) {
        if (!rows.some((x) => x.kind === r.kind)) rows.push(...await list(`?kind=${r.kind}`));
      }
      const page = await newPage(browser);
      await page.goto(sim.base + '/');
      await page.locator('[data-count=objects]').waitFor();
      assert.equal(await page.locator('[data-count=objects]').textContent(), String(rows.length), scenario);
      assert.deepEqual(page.errors, [], scenario);
    } finally { await cleanup(browser, sim); }
  }
});

test('faults after load: dropped connections and 500s keep the last good data', async () => {
  const sim = await startSim(['--scenario', 'demo']);
  try {
    const page = await newPage(browser);
    await page.goto(sim.base + '/?poll=1');
    await page.locator('[data-count=objects]').waitFor();
    for (const [fault, text] of [['drop=1', /Cannot reach the Flux Operator API/], ['error-rate=1', /server failed \(500\): Failed to list resources: injected error/]]) {
      await sim.faults('reset=1&' + fault);
      await page.getByText(text).waitFor({ timeout: 15000 });
      assert.equal(await page.locator('[data-count=objects]').textContent(), '190', fault);
      assert.match(await page.getByRole('alert').textContent(), /stale since/);
    }
    await sim.faults('reset=1');
    await page.getByRole('alert').waitFor({ state: 'detached' });
    assert.deepEqual(page.errors, []);
  } finally { await cleanup(browser, sim); }
});

test('2.5 s latency on every request and 10 MB answers still load, with a progress indicator meanwhile', async () => {
  const sim = await startSim(['--scenario', 'demo', '--latency-ms', '2500', '--big']);
  try {
    const page = await newPage(browser);
    await page.goto(sim.base + '/');
    await page.locator('[data-progress]').waitFor();
    assert.match(await page.locator('[data-progress]').textContent(), /Loading (report|resource summaries|objects)/);
    await page.locator('[data-count=objects]').waitFor({ timeout: 30000 });
    assert.equal(await page.locator('[data-count=objects]').textContent(), '190');
  } finally { await cleanup(browser, sim); }
});
