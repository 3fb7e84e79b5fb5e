// The fleet through the deploy kit for real (#25): Debian's nginx with the config
// deploy/render.py --fleet renders, in front of five simulated clusters — one healthy homelab,
// one enterprise FIPS canary, one mid Git → OCI migration, one down (nothing listens), one that
// answers 401. Rows fill progressively, none blocks or blanks another, a poll through a fault
// keeps the last good row, exports and the fleet link carry the rows and nothing upstream.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSim, launch, newPage, freePort, startNginx, pollsRun } from './helpers.mjs';

const ROOT = new URL('..', import.meta.url).pathname;
const CLUSTERS = [
  { name: 'canary', scenario: 'enterprise-fips', labels: { env: 'staging', wave: '1' } },
  { name: 'prod-eu', scenario: 'homelab', labels: { env: 'prod', wave: '2' } },
  { name: 'prod-us', scenario: 'staged', labels: { env: 'prod', wave: '2' } },
  { name: 'edge-1', scenario: 'demo', labels: { env: 'prod', wave: '3' } },
  { name: 'partner', scenario: 'multitenant', labels: { env: 'prod', wave: '3' }, faults: { oidc: '1' }, ui: 'https://flux.partner.example' },
];
let browser, sim, nginx, base, deadPort, renders;

before(async () => {
  browser = await launch();
  const dir = mkdtempSync(join(tmpdir(), 'fluxlens-fleet-'));
  writeFileSync(join(dir, 'fleet.json'), JSON.stringify({ clusters: CLUSTERS.map(({ ui, ...c }) => c) }));
  sim = await startSim(['--scenario', dir]);
  deadPort = await freePort();
  // The kit's fleet file: each cluster's web server, reachable from the hub only; edge-1's
  // server is down (nothing listens on its port).
  // The renders folder a CI job would fill: prod-eu's render as its repository holds it;
  // prod-us names one that is not there.
  renders = mkdtempSync(join(tmpdir(), 'fluxlens-renders-'));
  writeFileSync(join(renders, 'prod-eu.yaml'), await (await fetch(`${sim.base}/clusters/prod-eu/__sim/render.yaml`)).text());
  const rendered = { 'prod-eu': '/renders/prod-eu.yaml', 'prod-us': '/renders/prod-us.yaml' };
  const fleet = CLUSTERS.map((c) => ({
    name: c.name,
    url: c.name === 'edge-1' ? `http://127.0.0.1:${deadPort}` : `${sim.base}/clusters/${c.name}`,
    labels: c.labels,
    timeout: 10,
    ...(c.ui ? { ui: c.ui } : {}),
    ...(rendered[c.name] ? { render: rendered[c.name] } : {}),
  }));
  const file = join(dir, 'kit-fleet.yaml');
  writeFileSync(file, `# YAML, as a platform team writes it\n${JSON.stringify({ clusters: fleet })}\n`);
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  const site = execFileSync('python3', [`${ROOT}deploy/render.py`, '--dist', `${ROOT}dist`, '--fleet', file, '--listen', `127.0.0.1:${port}`, '--brotli', '--renders', renders]).toString();
  nginx = await startNginx(site, port);
});

after(async () => {
  nginx?.kill();
  sim?.stop();
  await browser?.close();
});

async function rows(page) {
  return page.$$eval('tr[data-cluster]', (rs) => Object.fromEntries(rs.map((r) => [r.dataset.cluster, { ...r.dataset }])));
}

async function complete(page) {
  await page.waitForFunction(() => performance.getEntriesByName('fluxlens:view-rendered').length > 0, null, { timeout: 60000 });
}

test('/clusters.json names the clusters and their labels, never an upstream', async () => {
  const r = await fetch(`${base}/clusters.json`);
  assert.equal(r.headers.get('content-type'), 'application/json');
  const text = await r.text();
  const list = JSON.parse(text);
  assert.deepEqual(list.clusters.map((c) => c.name).sort(), CLUSTERS.map((c) => c.name).sort());
  for (const leak of [sim.base, String(deadPort), 'url', 'timeout', '127.0.0.1']) assert.ok(!text.includes(leak), `${leak} in ${text}`);
  // Only the reads are forwarded, each with its one method.
  assert.equal((await fetch(`${base}/clusters/prod-eu/api/v1/resource/action`, { method: 'POST' })).status, 403);
  assert.equal((await fetch(`${base}/clusters/prod-eu/api/v1/report`, { method: 'DELETE' })).status, 403);
  assert.equal((await fetch(`${base}/clusters/nope/api/v1/report`)).status, 404);
  assert.equal((await fetch(`${base}/api/v1/report`)).status, 404);
});

test('every row fills; one down and one unauthorized never block or blank the others', async () => {
  const page = await newPage(browser);
  await page.goto(`${base}/fleet`);
  await complete(page);
  const r = await rows(page);
  assert.equal(r.canary.state, 'ok');
  assert.equal(r.canary.variant, 'enterprise-distroless-fips');
  assert.equal(r.canary.rootVerified, 'true');
  assert.equal(r.canary.root, 'OCIRepository/flux-system/flux-system');
  assert.equal(r['prod-eu'].state, 'ok');
  assert.equal(r['prod-eu'].fluxVersion, 'v2.7.3');
  assert.equal(r['prod-eu'].rootVerified, 'false');
  assert.match(r['prod-us'].gitOciStage, /^M[1-4]$/, 'mid Git → OCI');
  assert.equal(r['edge-1'].state, 'unreachable');
  assert.equal(r['edge-1'].fluxVersion, '', 'no facts invented for a cluster never read');
  assert.equal(r.partner.state, 'unauthorized');
  const signIn = page.locator('tr[data-cluster=partner] [data-sign-in]');
  assert.equal(await signIn.getAttribute('href'), 'https://flux.partner.example');
  assert.match(await page.locator('tr[data-cluster=partner] [data-problem]').textContent(), /401/);
  // #46: the fleet's own words — a dead cluster is unreachable through the hub, not "starting,
  // retrying"; every read says how long it took; a zero is not printed as an alarm.
  const edge = await page.locator('tr[data-cluster=edge-1] [data-problem]').textContent();
  assert.match(edge, /cannot reach|does not answer/, edge);
  assert.doesNotMatch(edge, /retrying/);
  assert.match(await page.locator('tr[data-cluster=canary] [data-latency]').textContent(), /read in (under )?\d/);
  const zero = page.locator('tr[data-cluster=canary] [data-count=critical]');
  if ((await zero.textContent()).startsWith('0 ')) assert.equal(await zero.getAttribute('data-zero'), 'true');
  // Through the hub, each cluster's reads went under its own path, none mutating.
  const log = await sim.log();
  const stray = log.filter((e) => !e.path.startsWith('/clusters/') || e.mutating);
  assert.ok(log.length > 0, 'the clusters were read');
  assert.deepEqual(stray, []);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('sort, filter, group and waves live in the URL; a wave says which cluster holds it back', async () => {
  const page = await newPage(browser);
  await page.goto(`${base}/fleet?label.env=prod&sort=name&dir=desc&waves=wave`);
  await complete(page);
  const names = await page.$$eval('tr[data-cluster]', (rs) => rs.map((r) => r.dataset.cluster));
  assert.deepEqual(names, ['prod-us', 'prod-eu', 'partner', 'edge-1']);
  const wave = (v) => page.locator(`[data-wave="${v}"]`);
  assert.equal(await wave('1').getAttribute('data-wave-status'), 'first');
  // Wave 1 (canary) is Ready, verified and on the newest version: wave 2 may go.
  assert.equal(await wave('2').getAttribute('data-wave-status'), 'ready');
  assert.equal(await wave('3').getAttribute('data-wave-status'), 'held');
  assert.match(await wave('3').textContent(), /prod-eu \(.*root source not verified/);
  // Any label sorts too, from the select, into the URL: wave 3 before wave 2 (descending kept),
  // names in order within a wave.
  const order = () => page.$$eval('tr[data-cluster]', (rs) => rs.map((r) => r.dataset.cluster));
  await page.selectOption('[data-filter=sort]', 'label:wave');
  await page.waitForFunction(() => new URLSearchParams(location.search).get('sort') === 'label:wave');
  assert.deepEqual(await order(), ['edge-1', 'partner', 'prod-eu', 'prod-us']);
  // A column header sorts by it, ascending first, then descending.
  await page.click('th[data-sort=name] button');
  await page.waitForFunction(() => new URLSearchParams(location.search).get('sort') === 'name' && !location.search.includes('dir=desc'));
  assert.equal(await page.getAttribute('th[data-sort=name]', 'aria-sort'), 'ascending');
  await page.click('th[data-sort=name] button');
  await page.waitForFunction(() => location.search.includes('dir=desc'));
  assert.deepEqual(await order(), ['prod-us', 'prod-eu', 'partner', 'edge-1']);
  await page.selectOption('[data-filter=group]', 'wave');
  await page.waitForFunction(() => new URLSearchParams(location.search).get('group') === 'wave');
  assert.deepEqual(await page.$$eval('tbody[data-group]', (g) => g.map((x) => x.dataset.group)), ['2', '3']);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('exports carry every shown row through the redaction; the fleet link opens read-only, reaching no cluster', async () => {
  const page = await newPage(browser);
  await page.goto(`${base}/fleet`);
  await complete(page);
  const download = async (fmt) => {
    const dl = page.waitForEvent('download');
    await page.click(`[data-export=${fmt}]`);
    return readFileSync(await (await dl).path(), 'utf8');
  };
  const json = JSON.parse(await download('json'));
  assert.equal(json.clusters.length, 5);
  const byName = Object.fromEntries(json.clusters.map((c) => [c.cluster, c]));
  // #46: typed values, not strings.
  assert.equal(byName.canary.fips, true);
  assert.equal(byName['prod-eu'].syncs_from_git, true);
  assert.equal(typeof byName.canary.critical, 'number');
  assert.equal(typeof byName.canary.read_ms, 'number');
  assert.equal(byName['edge-1'].flux_version, null, 'unknown is null, not a string');
  assert.equal(byName['edge-1'].state, 'unreachable');
  const csv = await download('csv');
  assert.equal(csv.trim().split('\n').length, 6);
  const md = await download('markdown');
  assert.match(md, /\| canary \|/);
  for (const text of [JSON.stringify(json), csv, md]) assert.ok(!text.includes(sim.base) && !text.includes(String(deadPort)));
  await page.click('[data-fleet-link-make]');
  const link = await page.locator('[data-fleet-link]').inputValue();
  assert.match(link, /\/fleet#fleet=flf1\./);
  const before = await rows(page);
  await page.context().close();
  const reader = await newPage(browser);
  const asked = [];
  reader.on('request', (r) => { if (/\/clusters/.test(new URL(r.url()).pathname)) asked.push(r.url()); });
  await reader.goto(link);
  await reader.locator('[data-snapshot]').waitFor();
  await reader.locator('tr[data-cluster=canary]').waitFor();
  assert.deepEqual(await rows(reader), before);
  assert.deepEqual(asked, [], 'no cluster, not even the list, is read');
  const broken = link.slice(0, -12) + 'AAAAAAAAAAAA';
  await reader.goto('about:blank');
  await reader.goto(broken);
  await reader.locator('[data-snapshot-error]').waitFor();
  assert.equal(await reader.locator('tr[data-cluster]').count(), 0);
  assert.deepEqual(reader.errors, []);
  await reader.context().close();
});

test('a poll through a fault keeps the last good row, stale, and comes back; an unchanged poll changes nothing but the age', async () => {
  const page = await newPage(browser);
  await page.goto(`${base}/fleet?poll=2`);
  await complete(page);
  const row = page.locator('tr[data-cluster=prod-eu]');
  const facts = await rows(page);
  // Count what a few unchanged polls change in the table, the "N s ago" text aside.
  await page.evaluate(() => {
    window.__churn = 0;
    new MutationObserver((ms) => {
      for (const m of ms) if (!m.target.parentElement?.closest?.('[data-age]') && !m.target.closest?.('[data-age]')) window.__churn += 1;
    }).observe(document.querySelector('[data-fleet-table]'), { subtree: true, childList: true, attributes: true, characterData: true });
  });
  const logged = (await sim.log()).length;
  await pollsRun(page, 3);
  assert.equal(await page.evaluate(() => window.__churn), 0, 'unchanged polls moved nothing');
  // #47: each round after the first is a poll of what the cluster's reader keeps, not a cold
  // read of all its objects (210 for prod-eu).
  const later = (await sim.log()).slice(logged);
  const rounds = later.filter((e) => e.path === '/clusters/prod-eu/api/v1/report').length;
  const asked = later.filter((e) => e.path === '/clusters/prod-eu/api/v1/inventory/objects').flatMap((e) => e.objects || []).length;
  assert.ok(rounds >= 2, `${rounds} rounds`);
  assert.ok(asked < 210 * rounds / 2, `${asked} objects read again in ${rounds} rounds`);
  await fetch(`${sim.base}/clusters/prod-eu/__sim/faults?down=1`);
  await page.waitForFunction(() => document.querySelector('tr[data-cluster=prod-eu]')?.dataset.state === 'unreachable', null, { timeout: 30000 });
  assert.equal(await row.getAttribute('data-flux-version'), 'v2.7.3', 'the last good facts are kept');
  assert.equal(await row.getAttribute('data-root'), facts['prod-eu'].root);
  assert.match(await row.locator('[data-age]').textContent(), /stale since/);
  assert.equal((await rows(page)).canary.state, 'ok', 'the others go on');
  await fetch(`${sim.base}/clusters/prod-eu/__sim/faults?down=0`);
  await page.waitForFunction(() => document.querySelector('tr[data-cluster=prod-eu]')?.dataset.state === 'ok', null, { timeout: 30000 });
  assert.match(await row.locator('[data-age]').textContent(), /updated/);
  assert.deepEqual(await rows(page), facts);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('every cluster\'s full dashboard is served under its path, reading only its own API', async () => {
  const page = await newPage(browser);
  const paths = [];
  page.on('request', (r) => { const u = new URL(r.url()); if (u.pathname.includes('/api/v1/')) paths.push(u.pathname); });
  await page.goto(`${base}/clusters/prod-eu/graph`);
  await page.waitForFunction(() => performance.getEntriesByName('fluxlens:graph-laid-out').length > 0, null, { timeout: 30000 });
  assert.ok(paths.length > 0 && paths.every((p) => p.startsWith('/clusters/prod-eu/api/')), paths.join(' '));
  assert.equal(await page.locator('[data-fleet-cluster]').textContent(), 'prod-eu');
  await page.click('a.fl-nav >> text=Overview').catch(() => page.click('nav a:has-text("Overview")'));
  await page.waitForFunction(() => location.pathname === '/clusters/prod-eu/');
  await page.locator('[data-count=objects]').waitFor();
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('each cluster row says what changed in the 24 hours before its read, and links to that cluster\'s timeline (#49)', async () => {
  const page = await newPage(browser);
  await page.goto(`${base}/fleet`);
  await complete(page);
  const cell = page.locator('tr[data-cluster="prod-eu"] [data-changed]');
  await page.waitForFunction(() => document.querySelector('tr[data-cluster="prod-eu"] [data-changed]')?.dataset.changed, null, { timeout: 30000 });
  // The homelab scenario's recent applies and transitions, counted (never "nothing changed").
  assert.match(await cell.getAttribute('data-changed'), /revision|status|added/);
  assert.equal(await cell.locator('a').getAttribute('href'), '/clusters/prod-eu/changes?since=24h');
  // The down cluster, never read: no phrase invented.
  assert.equal(await page.locator('tr[data-cluster="edge-1"] [data-changed]').getAttribute('data-changed'), '');
  assert.deepEqual(page.errors, []);
});

test('the hub serves the renders its fleet file names, and each row counts its drift against its own', async () => {
  const served = await fetch(`${base}/renders/prod-eu.yaml`);
  assert.equal(served.status, 200);
  assert.equal(served.headers.get('content-type'), 'application/yaml');
  assert.equal(served.headers.get('cache-control'), 'no-cache');
  // A missing render is a 404, never the app's page in its place.
  assert.equal((await fetch(`${base}/renders/prod-us.yaml`)).status, 404);
  const page = await newPage(browser);
  await page.goto(`${base}/fleet`);
  const counted = page.locator('tr[data-cluster="prod-eu"]:not([data-drift=""])');
  await counted.waitFor({ timeout: 60000 });
  assert.match(await counted.getAttribute('data-drift'), /^\d+$/);
  assert.match(await counted.locator('td[data-count="drift"]').textContent(), /objects compared/);
  await page.locator('tr[data-cluster="prod-us"][data-drift="unreadable"]').waitFor({ timeout: 60000 });
  assert.match(await page.locator('tr[data-cluster="prod-us"] td[data-count="drift"]').textContent(), /\/renders\/prod-us\.yaml answered 404/);
  assert.match(await page.locator('tr[data-cluster="canary"] td[data-count="drift"]').textContent(), /no render named/);
  assert.deepEqual(page.errors, []);
});
