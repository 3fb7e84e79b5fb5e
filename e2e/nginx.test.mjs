// The deployment kit for real: Debian's nginx with the rendered config in front of the
// simulator; CSP works for wasm; embedding from an allowed origin works, from another is blocked.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, execFileSync } from 'node:child_process';
import { createServer } from 'node:http';
import { startSim, launch, newPage, freePort, startNginx, holdRequests } from './helpers.mjs';

const ROOT = new URL('..', import.meta.url).pathname;
let browser, sim, nginx, nginxSub, hostAllowed, hostOther, base, subBase, allowedPort, otherPort;

function hostPage(port, src) {
  const srv = createServer((req, res) => {
    res.setHeader('content-type', 'text/html');
    if (req.url === '/element') {
      // A host that loads fluxlens' element script and uses both entry points.
      const origin = new URL(src).origin;
      res.end(`<!doctype html><title>host</title><script src="${origin}/fluxlens-element.js"></script><fluxlens-view id="el" view="graph" theme="dark"></fluxlens-view><div id="m"></div><script>fluxlens.mount(document.getElementById('m'), { view: 'signatures', query: 'sev=critical' })</script>`);
      return;
    }
    res.end(`<!doctype html><title>status page</title><iframe id="f" src="${src}" width="900" height="600"></iframe>`);
  });
  return new Promise((r) => srv.listen(port, '127.0.0.1', () => r(srv)));
}

before(async () => {
  browser = await launch();
  sim = await startSim(['--scenario', 'demo', '--ui-stand-in']);
  const nginxPort = await freePort();
  allowedPort = await freePort();
  otherPort = await freePort();
  base = `http://127.0.0.1:${nginxPort}`;
  const site = execFileSync('python3', [`${ROOT}deploy/render.py`, '--dist', `${ROOT}dist`, '--api', sim.base, '--listen', `127.0.0.1:${nginxPort}`, '--frame-ancestors', `'self' http://127.0.0.1:${allowedPort}`, '--brotli']).toString();
  nginx = await startNginx(site, nginxPort);
  const subPort = await freePort();
  subBase = `http://127.0.0.1:${subPort}`;
  const sub = execFileSync('python3', [`${ROOT}deploy/render.py`, '--subpath', '--dist', `${ROOT}dist-fluxlens`, '--api', sim.base, '--ui', sim.base, '--listen', `127.0.0.1:${subPort}`, '--brotli']).toString();
  nginxSub = await startNginx(sub, subPort);
  hostAllowed = await hostPage(allowedPort, `${base}/embed/overview`);
  hostOther = await hostPage(otherPort, `${base}/embed/overview`);
});

after(async () => {
  nginx?.kill();
  nginxSub?.kill();
  sim?.stop();
  hostAllowed?.close();
  hostOther?.close();
  await browser?.close();
});

/** The build's folder and its main module, as the page names them (scripts/split.py). */
const builtFolder = (html) => html.match(/\/(fluxlens-[0-9a-f]{16})\/fluxlens_bg\.wasm/)[1];

test('the deployed wasm is compressed: brotli when accepted, gzip otherwise, for both layouts', async () => {
  const html = await (await fetch(base + '/')).text();
  const wasm = `${builtFolder(html)}/fluxlens_bg.wasm`;
  for (const [b, prefix] of [[base, ''], [subBase, '/fluxlens']]) {
    const br = await fetch(`${b}${prefix}/${wasm}`, { headers: { 'Accept-Encoding': 'gzip, br' } });
    assert.equal(br.headers.get('content-encoding'), 'br', `${b}: brotli`);
    const gz = await fetch(`${b}${prefix}/${wasm}`, { headers: { 'Accept-Encoding': 'gzip' } });
    assert.equal(gz.headers.get('content-encoding'), 'gzip', `${b}: gzip`);
    assert.equal(gz.headers.get('content-type'), 'application/wasm');
    // Precompressed files are served whole, with their length.
    const length = gz.headers.get('content-length');
    assert.match(length ?? '', /^\d+$/, `${b}: content-length`);
    // Compressed, not merely labelled so: well under the raw file (the size budget itself is
    // measured in BENCHMARKS.md, not asserted here).
    const raw = Number((await fetch(`${b}${prefix}/${wasm}`, { headers: { 'Accept-Encoding': 'identity' } })).headers.get('content-length'));
    assert.ok(raw > 0 && Number(length) < raw * 0.5, `${b}: gzip wasm ${length} of ${raw} bytes`);
  }
  // The page's own requests as a browser makes them: the module once, brotli, as preloaded.
  const page = await newPage(browser);
  const encodings = [];
  page.on('response', (r) => { if (r.url().endsWith('/fluxlens_bg.wasm')) encodings.push(r.headers()['content-encoding']); });
  await page.goto(base + '/?poll=600');
  await page.locator('[data-count=objects]').waitFor();
  assert.deepEqual(encodings, ['br']);
  await page.context().close();
});

test('the API\'s answers pass compressed: brotli when accepted, gzip otherwise, the JSON unchanged (#51)', async () => {
  const objects = JSON.stringify({ objects: [{ apiVersion: 'kustomize.toolkit.fluxcd.io/v1', kind: 'Kustomization', name: 'flux-system', namespace: 'flux-system' }] });
  const reads = [['/api/v1/resources', {}], ['/api/v1/inventory/objects', { method: 'POST', body: objects, headers: { 'Content-Type': 'application/json' } }]];
  // Both layouts forward /api/ at the root (the app under /fluxlens/ reads the same origin's API).
  for (const b of [base, subBase]) {
    for (const [path, init] of reads) {
      const url = `${b}${path}`;
      // Rows tied on lastReconciled come in no fixed order, as on the operator (sort.Slice):
      // compare the answers as sets of rows.
      const rows = (json) => (json.resources ? { resources: [...json.resources].sort((a, b) => JSON.stringify(a) < JSON.stringify(b) ? -1 : 1) } : json);
      const plain = rows(await (await fetch(url, { ...init, headers: { ...init.headers, 'Accept-Encoding': 'identity' } })).json());
      for (const [accept, encoding] of [['gzip, br', 'br'], ['gzip', 'gzip']]) {
        // Node's fetch decodes both, as a browser does: what arrives is the operator's JSON.
        const r = await fetch(url, { ...init, headers: { ...init.headers, 'Accept-Encoding': accept } });
        assert.equal(r.status, 200, url);
        assert.equal(r.headers.get('content-encoding'), encoding, `${url}, Accept-Encoding: ${accept}`);
        assert.deepEqual(rows(await r.json()), plain, `${url}: the same answer once decoded`);
      }
    }
  }
});

test('hashed assets are cached for a year, index.html is revalidated, a missing hash is a 404', async () => {
  const html = await (await fetch(base + '/')).text();
  const folder = builtFolder(html);
  // What the page preloads, all in the build's folder (named by the hash of its files).
  const assets = [...html.matchAll(/href="\/(fluxlens-[0-9a-f]{16}\/[^"]+)"/g)].map((m) => m[1]);
  assert.ok(assets.some((a) => a.endsWith('.wasm')) && assets.some((a) => a.endsWith('.js')), assets.join(' '));
  assert.ok(assets.every((a) => a.startsWith(folder + '/')), assets.join(' '));
  // The stylesheet comes with the page: the first round trip holds no connection for it.
  assert.ok(!/rel="stylesheet"/.test(html) && /<style>/.test(html), 'the style is inline');
  for (const [b, prefix] of [[base, ''], [subBase, '/fluxlens']]) {
    for (const a of assets) {
      const r = await fetch(`${b}${prefix}/${a}`, { headers: { 'Accept-Encoding': 'gzip, br' } });
      assert.equal(r.status, 200, `${b}${prefix}/${a}`);
      assert.equal(r.headers.get('cache-control'), 'public, max-age=31536000, immutable', `${b}${prefix}/${a}`);
    }
    const index = await fetch(`${b}${prefix}/`);
    assert.equal(index.headers.get('cache-control'), 'no-cache', `${b}${prefix}/ index.html`);
    // A file without a hash in its path is revalidated (its content changes under one name).
    const element = await fetch(`${b}${prefix}/fluxlens-element.js`);
    assert.equal(element.status, 200);
    assert.equal(element.headers.get('cache-control'), 'no-cache', `${b}${prefix}/fluxlens-element.js`);
    // A build that is not this one is not answered with index.html (cached a year).
    const gone = await fetch(`${b}${prefix}/fluxlens-0000000000000000/fluxlens_bg.wasm`);
    assert.equal(gone.status, 404, `${b}${prefix}: an old build's wasm`);
  }
  // A page's own chunk and the reader worker's script come from the same folder, cached a year.
  const page = await newPage(browser);
  const cached = [];
  page.on('response', (r) => { if (r.headers()['cache-control']?.includes('immutable')) cached.push(new URL(r.url()).pathname); });
  await page.goto(base + '/?poll=600');
  await page.locator('[data-count=objects]').waitFor();
  await page.locator('nav.fl-nav a[href="/graph"]').click();
  await page.locator('[data-node-id]').first().waitFor();
  assert.ok(cached.includes(`/${folder}/split_fluxlens_graph.wasm`), cached.join(' '));
  assert.ok(cached.some((p) => p.startsWith(`/${folder}/snippets/`)), cached.join(' '));
  await page.context().close();
});

test('the report facts are painted before the wasm starts, then replaced by the app', async () => {
  const page = await newPage(browser);
  // Hold the app's script back (it starts the wasm): the header's
  // facts must appear without it.
  const release = await holdRequests(page, /\/fluxlens-[0-9a-f]{16}\/fluxlens\.js$/);
  // Not until `load`: the page's module script, held here, comes before it.
  await page.goto(base + '/', { waitUntil: 'commit' });
  await page.locator('[data-prepaint] [data-identity=Flux]').waitFor();
  assert.equal(await page.locator('[data-identity=Flux]').textContent(), 'v2.7.3');
  release();
  await page.locator('[data-count=objects]').waitFor();
  assert.equal(await page.locator('[data-prepaint]').count(), 0, 'the app replaces the painted facts');
  assert.equal(await page.locator('[data-identity=Flux]').count(), 1);
});

test('the app loads through nginx with a wasm-capable CSP and proxied API', async () => {
  const res = await fetch(base + '/graph');
  const csp = res.headers.get('content-security-policy');
  assert.match(csp, /'wasm-unsafe-eval'/);
  assert.match(csp, /script-src 'self' 'wasm-unsafe-eval' 'sha256-/);
  assert.match(csp, new RegExp(`frame-ancestors 'self' http://127.0.0.1:${allowedPort}`));
  const page = await newPage(browser);
  const violations = [];
  page.on('console', (m) => { if (/Content Security Policy/.test(m.text())) violations.push(m.text()); });
  await page.goto(base + '/');
  await page.locator('[data-count=objects]').waitFor();
  assert.equal(await page.locator('[data-count=objects]').textContent(), '190');
  assert.deepEqual(violations, []);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('embedding: allowed origin works, another origin is blocked', async () => {
  const ok = await newPage(browser);
  await ok.goto(`http://127.0.0.1:${allowedPort}/`);
  await ok.frameLocator('#f').locator('[data-count=objects]').waitFor({ timeout: 20000 });
  await ok.context().close();

  const blocked = await newPage(browser);
  const refused = [];
  blocked.on('console', (m) => { if (/frame-ancestors|Refused to frame/.test(m.text())) refused.push(m.text()); });
  const refusal = blocked.waitForEvent('console', { predicate: (m) => /frame-ancestors|Refused to frame/.test(m.text()), timeout: 15000 });
  await blocked.goto(`http://127.0.0.1:${otherPort}/`);
  await refusal;
  assert.equal(await blocked.frameLocator('#f').locator('[data-count=objects]').count(), 0);
  assert.ok(refused.length > 0, 'Chromium reports the frame-ancestors refusal');
  await blocked.context().close();
});

test('under /fluxlens/: routing and links keep the prefix', async () => {
  const page = await newPage(browser);
  await page.goto(subBase + '/fluxlens/graph?ns=apps');
  await page.locator('.fl-page--graph').waitFor();
  await page.getByRole('link', { name: 'Signatures', exact: true }).click();
  await page.waitForURL(/\/fluxlens\/signatures$/);
  await page.locator('[data-table=sources]').waitFor();
  await page.locator('select').first().selectOption('critical');
  await page.waitForURL(/\/fluxlens\/signatures\?sev=critical$/);
  await page.goto(subBase + '/fluxlens/');
  await page.locator('[data-count=objects]').waitFor();
  assert.equal(await page.locator('[data-count=objects]').textContent(), '190');
  await page.getByRole('link', { name: 'Open the source graph' }).click();
  await page.waitForURL(/\/fluxlens\/graph$/);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('the launcher plugin injected into the operator page opens fluxlens in an overlay', async () => {
  const html = await (await fetch(subBase + '/')).text();
  assert.match(html, /Flux Operator status page \(stand-in\)/);
  assert.match(html, /<script src="\/fluxlens\/fluxlens-plugin.js" data-base="\/fluxlens" defer><\/script><\/body>/);
  const page = await newPage(browser);
  await page.goto(subBase + '/');
  await page.getByRole('button', { name: 'fluxlens' }).click();
  const frame = page.frameLocator('#fluxlens-panel iframe');
  await frame.locator('[data-count=objects]').waitFor({ timeout: 20000 });
  assert.equal(await frame.locator('header').count(), 0, 'embed view without chrome');
  await page.locator('#fluxlens-panel').getByRole('button', { name: 'Graph' }).click();
  await frame.locator('g[data-node-id]').first().waitFor();
  await page.keyboard.press('Escape');
  assert.equal(await page.locator('#fluxlens-panel').isHidden(), true);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('the launcher is on every operator page and opens on the object in view', async () => {
  const page = await newPage(browser);
  // A deep link, opened directly: the operator's SPA fallback serves it, nginx injects once.
  await page.goto(subBase + '/resource/OCIRepository/flux-system/flux-system');
  const launcher = page.locator('#fluxlens-launcher');
  await launcher.waitFor();
  assert.equal(await launcher.textContent(), 'fluxlens · OCIRepository flux-system/flux-system');
  assert.equal(await page.locator('script[src$="fluxlens-plugin.js"]').count(), 1);
  await launcher.click();
  const frame = page.frameLocator('#fluxlens-panel iframe');
  await frame.locator('g[data-node-id="OCIRepository/flux-system/flux-system"][aria-pressed=true]').waitFor({ timeout: 20000 });
  await frame.locator('[data-panel="OCIRepository/flux-system/flux-system"] [data-posture]').waitFor();
  assert.match(await page.locator('#fluxlens-panel iframe').getAttribute('src'), /^\/fluxlens\/embed\/graph\?sel=OCIRepository%2Fflux-system%2Fflux-system&focus=OCIRepository%2Fflux-system%2Fflux-system&theme=light$/);
  await frame.locator('[data-focus]').waitFor();
  // From the plugin, the panel's link opens the object's page in the operator UI itself.
  const link = frame.locator('[data-panel="OCIRepository/flux-system/flux-system"] [data-operator-link]');
  assert.equal(await link.getAttribute('href'), '/resource/OCIRepository/flux-system/flux-system');
  assert.equal(await link.getAttribute('target'), '_top');
  // Escape closes; focus goes back to the launcher.
  await page.keyboard.press('Escape');
  assert.equal(await page.locator('#fluxlens-panel').isHidden(), true);
  assert.equal(await page.evaluate(() => document.activeElement.id), 'fluxlens-launcher');
  // The operator's own shortcuts and in-app navigation still work.
  await page.locator('h1').click();
  await page.keyboard.press('/');
  assert.equal(await page.evaluate(() => window.__standInSearch), 1);
  await page.getByRole('link', { name: 'Kustomization tenants' }).click();
  assert.match(await page.locator('#route').textContent(), /\/resource\/Kustomization\/flux-system\/tenants/);
  await launcher.hover();
  assert.equal(await launcher.textContent(), 'fluxlens · Kustomization flux-system/tenants');
  // After a reload, with the operator's dark theme, the keyboard shortcut opens on that object.
  await page.getByRole('button', { name: 'Toggle theme' }).click();
  await page.reload();
  await launcher.waitFor();
  assert.equal(await launcher.textContent(), 'fluxlens · Kustomization flux-system/tenants');
  await page.keyboard.press('Alt+Shift+F');
  await frame.locator('g[data-node-id="Kustomization/flux-system/tenants"][aria-pressed=true]').waitFor({ timeout: 20000 });
  assert.match(await page.locator('#fluxlens-panel iframe').getAttribute('src'), /theme=dark$/);
  assert.equal(await frame.locator('html').getAttribute('data-theme'), 'dark');
  // A page without an object opens the overview.
  await page.keyboard.press('Escape');
  await page.getByRole('link', { name: 'Resources' }).click();
  await launcher.click();
  await frame.locator('[data-count=objects]').waitFor({ timeout: 20000 });
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('the JS entry points: <fluxlens-view> and fluxlens.mount size their iframes', async () => {
  const page = await newPage(browser);
  await page.goto(`http://127.0.0.1:${allowedPort}/element`);
  const el = page.frameLocator('#el iframe');
  await el.locator('g[data-node-id]').first().waitFor({ timeout: 20000 });
  const m = page.frameLocator('#m iframe');
  await m.locator('[data-table=sources]').waitFor();
  assert.match(await page.locator('#m iframe').getAttribute('src'), /\/embed\/signatures\?sev=critical$/);
  assert.match(await page.locator('#el iframe').getAttribute('src'), /\/embed\/graph\?theme=dark$/);
  await page.waitForFunction(() => parseInt(document.querySelector('#m iframe').style.height || '0', 10) > 320);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('the standalone kit forwards only the reads fluxlens makes: actions, other paths and other methods stop at nginx', async () => {
  await fetch(`${sim.base}/__sim/log?clear=1`);
  const call = (method, path, body) => fetch(base + path, { method, body, headers: body ? { 'Content-Type': 'application/json' } : {} });
  for (const [method, path] of [['GET', '/api/v1/report'], ['GET', '/api/v1/resources?kind=Kustomization'], ['GET', '/api/v1/events']]) {
    assert.equal((await call(method, path)).status, 200, `${method} ${path}`);
  }
  assert.equal((await call('POST', '/api/v1/inventory/objects', '{"objects":[]}')).status, 200);
  for (const [method, path] of [['POST', '/api/v1/resource/action'], ['POST', '/api/v1/workload/action'], ['GET', '/api/v1/artifact/download'],
    ['DELETE', '/api/v1/resource'], ['POST', '/api/v1/resources'], ['GET', '/api/v1/inventory/objects'], ['POST', '/api/v1/favorites'], ['POST', '/logout']]) {
    const r = await call(method, path, method === 'POST' ? '{}' : undefined);
    assert.ok([403, 405].includes(r.status) || (path === '/logout' && r.status !== 200), `${method} ${path}: ${r.status}`);
  }
  const reached = (await sim.log()).map((e) => `${e.method} ${e.path}`);
  assert.deepEqual(reached.filter((r) => /action|favorites|artifact|logout|DELETE|POST \/api\/v1\/resources/.test(r)), [], reached.join(', '));
});

/**
 * Starts the image's entrypoint as the image does: configs rendered by deploy/render-image.sh
 * (the Dockerfile's step), then deploy/docker-entrypoint.sh as uid 101 (setpriv, when this test
 * runs as root) with only its run directory writable.
 */
async function startEntrypoint(mode, port) {
  const { mkdtempSync, mkdirSync, chmodSync, chownSync } = await import('node:fs');
  const { tmpdir } = await import('node:os');
  const dir = mkdtempSync(`${tmpdir()}/fluxlens-image-`);
  chmodSync(dir, 0o755);
  execFileSync(`${ROOT}deploy/render-image.sh`, [`${dir}/conf`, `${ROOT}dist`, `${ROOT}dist-fluxlens`, `${ROOT}deploy/plugin`], { cwd: ROOT });
  mkdirSync(`${dir}/run`);
  const root = process.getuid() === 0;
  if (root) chownSync(`${dir}/run`, 101, 101);
  const env = { PATH: process.env.PATH, FLUXLENS_MODE: mode, FLUXLENS_API: sim.base, FLUXLENS_LISTEN: `127.0.0.1:${port}`,
    FLUXLENS_CONF_DIR: `${dir}/conf`, FLUXLENS_RUN_DIR: `${dir}/run` };
  const argv = root ? ['setpriv', '--reuid=101', '--regid=101', '--clear-groups', 'sh', `${ROOT}deploy/docker-entrypoint.sh`] : ['sh', `${ROOT}deploy/docker-entrypoint.sh`];
  const proc = spawn(argv[0], argv.slice(1), { env, stdio: ['ignore', 'ignore', 'pipe'] });
  let err = '';
  proc.stderr.on('data', (d) => { err += d; });
  for (let i = 0; i < 50; i++) {
    try { await fetch(`http://127.0.0.1:${port}/`); return { proc, dir, root, err: () => err }; } catch { /* starting */ }
    await new Promise((r) => setTimeout(r, 100));
  }
  proc.kill();
  throw new Error(`the entrypoint did not start nginx: ${err}`);
}

test('the image entrypoint runs both modes as uid 101, writing only its run directory', async () => {
  const { readFileSync, readdirSync } = await import('node:fs');
  for (const mode of ['standalone', 'beside-operator']) {
    const port = await freePort();
    const b = `http://127.0.0.1:${port}`;
    const e = await startEntrypoint(mode, port);
    try {
      if (e.root) assert.match(readFileSync(`/proc/${e.proc.pid}/status`, 'utf8'), /\nUid:\t101\t101\t101\t101\n/, 'nginx runs as 101');
      assert.deepEqual(readdirSync(`${e.dir}/run`).sort(), ['body', 'fastcgi', 'nginx.conf', 'nginx.pid', 'proxy', 'scgi', 'site.conf', 'uwsgi']);
      const app = mode === 'standalone' ? '/' : '/fluxlens/';
      const html = await (await fetch(b + app)).text();
      assert.match(html, /fluxlens/);
      assert.equal((await fetch(b + '/api/v1/report')).status, 200, `${mode}: the API is proxied`);
      if (mode === 'standalone') {
        assert.equal((await fetch(b + '/api/v1/resource/action', { method: 'POST', body: '{}' })).status, 403);
      } else {
        const ui = await (await fetch(b + '/')).text();
        assert.match(ui, /status page \(stand-in\)[\s\S]*fluxlens-plugin\.js/, 'the operator UI at / with the launcher');
        assert.equal((await fetch(b + '/fluxlens/fluxlens-plugin.js')).status, 200);
      }
      const page = await newPage(browser);
      await page.goto(b + app);
      await page.locator('[data-count=objects]').waitFor({ timeout: 20000 });
      assert.deepEqual(page.errors, [], `${mode}: the app runs under the rendered CSP`);
      await page.context().close();
    } finally { e.proc.kill(); }
  }
  // A bad mode is refused with a message, before nginx starts.
  const out = spawn('sh', [`${ROOT}deploy/docker-entrypoint.sh`], { env: { PATH: process.env.PATH, FLUXLENS_MODE: 'proxy-all' } });
  let msg = '';
  out.stderr.on('data', (d) => { msg += d; });
  const code = await new Promise((r) => out.on('close', r));
  assert.equal(code, 2);
  assert.match(msg, /FLUXLENS_MODE must be standalone, beside-operator or fleet/);
});

test('the image entrypoint serves a fleet from FLUXLENS_FLEET as uid 101, and refuses a bad fleet with why', async () => {
  const { mkdtempSync, mkdirSync, chmodSync, chownSync } = await import('node:fs');
  const { tmpdir } = await import('node:os');
  const dir = mkdtempSync(`${tmpdir()}/fluxlens-fleet-image-`);
  chmodSync(dir, 0o755);
  mkdirSync(`${dir}/run`);
  const root = process.getuid() === 0;
  if (root) chownSync(`${dir}/run`, 101, 101);
  const port = await freePort();
  const start = (fleet) => {
    const env = { PATH: process.env.PATH, FLUXLENS_MODE: 'fleet', FLUXLENS_FLEET: fleet, FLUXLENS_LISTEN: `127.0.0.1:${port}`,
      FLUXLENS_RUN_DIR: `${dir}/run`, FLUXLENS_KIT_DIR: `${ROOT}deploy`, FLUXLENS_APP_DIR: `${ROOT}dist` };
    const argv = root ? ['setpriv', '--reuid=101', '--regid=101', '--clear-groups', 'sh', `${ROOT}deploy/docker-entrypoint.sh`] : ['sh', `${ROOT}deploy/docker-entrypoint.sh`];
    const proc = spawn(argv[0], argv.slice(1), { env, stdio: ['ignore', 'ignore', 'pipe'] });
    proc.err = '';
    proc.stderr.on('data', (d) => { proc.err += d; });
    return proc;
  };
  const bad = start('clusters:\n  - name: "a b"\n    url: http://x\n');
  assert.equal(await new Promise((r) => bad.on('close', r)), 2);
  assert.match(bad.err, /name 'a b' is not a DNS label/);
  // The one-cluster simulator stands in for a cluster's web server.
  const proc = start(`clusters:\n  - name: demo\n    url: ${sim.base}\n    labels: {wave: "1"}\n`);
  try {
    let list;
    for (let i = 0; i < 50 && !list; i++) {
      try { list = await (await fetch(`http://127.0.0.1:${port}/clusters.json`)).json(); } catch { await new Promise((r) => setTimeout(r, 100)); }
    }
    assert.deepEqual(list, { clusters: [{ name: 'demo', labels: { wave: '1' } }] }, proc.err);
    const page = await newPage(browser);
    await page.goto(`http://127.0.0.1:${port}/`);
    await page.waitForURL(/\/fleet$/);
    await page.locator('tr[data-cluster=demo][data-state=ok]').waitFor({ timeout: 20000 });
    assert.deepEqual(page.errors, [], 'the fleet runs under the rendered CSP');
    await page.context().close();
  } finally { proc.kill(); }
});
