// The deployment kit for real: Debian's nginx with the rendered config in front of the
// simulator; CSP works for wasm; embedding from an allowed origin works, from another is blocked.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync, chmodSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSim, launch, newPage, freePort } from './helpers.mjs';

const ROOT = new URL('..', import.meta.url).pathname;
let browser, sim, nginx, hostAllowed, hostOther, base, allowedPort, otherPort;

function hostPage(port, src) {
  const srv = createServer((_, res) => { res.setHeader('content-type', 'text/html'); res.end(`<!doctype html><title>status page</title><iframe id="f" src="${src}" width="900" height="600"></iframe>`); });
  return new Promise((r) => srv.listen(port, '127.0.0.1', () => r(srv)));
}

before(async () => {
  browser = await launch();
  sim = await startSim(['--scenario', 'demo']);
  const nginxPort = await freePort();
  allowedPort = await freePort();
  otherPort = await freePort();
  base = `http://127.0.0.1:${nginxPort}`;
  const dir = mkdtempSync(join(tmpdir(), 'fluxlens-nginx-'));
  chmodSync(dir, 0o777);
  const site = execFileSync('python3', [`${ROOT}deploy/render.py`, '--dist', `${ROOT}dist`, '--api', sim.base, '--listen', `127.0.0.1:${nginxPort}`, '--frame-ancestors', `'self' http://127.0.0.1:${allowedPort}`]).toString();
  writeFileSync(join(dir, 'site.conf'), site);
  const user = process.getuid && process.getuid() === 0 ? 'user root;\n' : '';
  writeFileSync(join(dir, 'nginx.conf'), `${user}worker_processes 1;\npid ${dir}/nginx.pid;\nerror_log ${dir}/error.log;\nevents {}\nhttp {\n include /etc/nginx/mime.types;\n access_log off;\n client_body_temp_path ${dir}/body; proxy_temp_path ${dir}/proxy; fastcgi_temp_path ${dir}/fcgi; uwsgi_temp_path ${dir}/uwsgi; scgi_temp_path ${dir}/scgi;\n include ${dir}/site.conf;\n}\n`);
  nginx = spawn('nginx', ['-c', join(dir, 'nginx.conf'), '-p', dir, '-g', 'daemon off;'], { stdio: ['ignore', 'ignore', 'pipe'] });
  let err = '';
  nginx.stderr.on('data', (d) => { err += d; });
  for (let i = 0; i < 50; i++) {
    try { if ((await fetch(base + '/')).ok) break; } catch { /* starting */ }
    await new Promise((r) => setTimeout(r, 100));
    if (i === 49) throw new Error(`nginx did not start: ${err}`);
  }
  hostAllowed = await hostPage(allowedPort, `${base}/embed/overview`);
  hostOther = await hostPage(otherPort, `${base}/embed/overview`);
});

after(async () => {
  nginx?.kill();
  sim?.stop();
  hostAllowed?.close();
  hostOther?.close();
  await browser?.close();
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
  await blocked.goto(`http://127.0.0.1:${otherPort}/`);
  await blocked.waitForTimeout(2500);
  assert.equal(await blocked.frameLocator('#f').locator('[data-count=objects]').count(), 0);
  assert.ok(refused.length > 0, 'Chromium reports the frame-ancestors refusal');
  await blocked.context().close();
});
