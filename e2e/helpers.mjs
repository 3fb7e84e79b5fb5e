// Shared helpers: start the simulator on a free port, launch Chromium, collect page errors.
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { chromium } from 'playwright-core';

const ROOT = new URL('..', import.meta.url).pathname;

export async function freePort() {
  return new Promise((resolve) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => { const { port } = s.address(); s.close(() => resolve(port)); });
  });
}

/** Starts fluxlens-sim serving dist/ with the given flags; resolves when it answers. */
export async function startSim(args = []) {
  const port = await freePort();
  const proc = spawn(`${ROOT}target/release/fluxlens-sim`, ['--addr', `127.0.0.1:${port}`, '--dist', `${ROOT}dist`, ...args], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  proc.stderr.on('data', (d) => { stderr += d; });
  const base = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 100; i++) {
    try { const r = await fetch(`${base}/__sim/log`); if (r.ok) break; } catch { /* not yet */ }
    await new Promise((r) => setTimeout(r, 100));
    if (i === 99) throw new Error(`simulator did not start: ${stderr}`);
  }
  return {
    base,
    stop: () => proc.kill(),
    faults: async (q) => (await fetch(`${base}/__sim/faults?${q}`)).json(),
    log: async () => (await fetch(`${base}/__sim/log`)).json(),
  };
}

/** Headless Chromium; `extra`: more command-line flags. */
export async function launch(extra = []) {
  return chromium.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', ...extra],
  });
}

/** A page that records uncaught errors and console errors from the wasm app. */
export async function newPage(browser) {
  // A fresh context per page: no cookies or storage leak between tests.
  const context = await browser.newContext();
  const page = await context.newPage();
  page.errors = [];
  page.on('pageerror', (e) => page.errors.push(String(e)));
  return page;
}

export async function marks(page) {
  return page.evaluate(() => performance.getEntriesByType('mark').map((m) => m.name));
}

/** Stops the simulator and closes every page, so no background tab keeps polling. */
export async function cleanup(browser, sim) {
  sim.stop();
  await Promise.all(browser.contexts().map((c) => c.close()));
}

/**
 * Starts Debian's nginx with a site config rendered by deploy/render.py (the deploy kit as it
 * runs), loading the installed dynamic modules (brotli's static and filter modules). Resolves once
 * it answers.
 */
export async function startNginx(site, port) {
  const { mkdtempSync, writeFileSync, chmodSync, existsSync } = await import('node:fs');
  const { tmpdir } = await import('node:os');
  const { join } = await import('node:path');
  const dir = mkdtempSync(join(tmpdir(), 'fluxlens-nginx-'));
  chmodSync(dir, 0o777);
  writeFileSync(join(dir, 'site.conf'), site);
  const user = process.getuid && process.getuid() === 0 ? 'user root;\n' : '';
  // Debian's modules-enabled files name modules relative to the default prefix: load by path.
  const brotli = ['static', 'filter'].map((m) => `/usr/lib/nginx/modules/ngx_http_brotli_${m}_module.so`);
  const modules = brotli.filter((m) => existsSync(m)).map((m) => `load_module ${m};\n`).join('');
  writeFileSync(join(dir, 'nginx.conf'), `${user}${modules}worker_processes 1;\npid ${dir}/nginx.pid;\nerror_log ${dir}/error.log;\nevents {}\nhttp {\n include /etc/nginx/mime.types;\n access_log off;\n client_body_temp_path ${dir}/body; proxy_temp_path ${dir}/proxy; fastcgi_temp_path ${dir}/fcgi; uwsgi_temp_path ${dir}/uwsgi; scgi_temp_path ${dir}/scgi;\n include ${dir}/site.conf;\n}\n`);
  const proc = spawn('nginx', ['-c', join(dir, 'nginx.conf'), '-p', dir, '-g', 'daemon off;'], { stdio: ['ignore', 'ignore', 'pipe'] });
  let err = '';
  proc.stderr.on('data', (d) => { err += d; });
  for (let i = 0; i < 50; i++) {
    try { await fetch(`http://127.0.0.1:${port}/api/v1/report`); return proc; } catch { /* starting */ }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`nginx did not start: ${err}`);
}

/// Opens a compact menu (`[data-menu=<id>]`: share, export, filters) unless it is open.
export async function openMenu(page, id) {
  const menu = page.locator(`[data-menu=${id}]`).first();
  await menu.waitFor();
  if ((await menu.getAttribute('open')) === null) await menu.locator('summary').click();
}

/** The built page's prefetch script (src/api/prefetch.js, inlined and minified by
 * scripts/build.py): where its `<script>` element starts and ends, found by the one global it
 * sets (src/api/page_script.rs). */
export function prefetchScript(html) {
  const at = html.indexOf('window.fluxlensPage=');
  if (at < 0) throw new Error('the page has no prefetch script');
  const start = html.lastIndexOf('<script>', at);
  const end = html.indexOf('</script>', at) + '</script>'.length;
  return { start, end };
}

/** Holds the page's requests to `url` that `which` picks (all by default) until the returned
 * `release()` is called; the others go through. */
export async function holdRequests(page, url, which = () => true) {
  let release;
  const held = new Promise((r) => { release = r; });
  await page.route(url, async (route) => {
    if (which(route.request())) await held;
    await route.continue();
  });
  return release;
}

/** Resolves once `n` more of the page's polls have run to their end: its loader marks each poll's
 * start (`fluxlens:poll-started`, a fleet's rounds too), and a poll starts only once the last one
 * has ended, so the (n+1)th start after now closes the nth poll. */
export async function pollsRun(page, n, timeout = 30000) {
  await page.evaluate(() => {
    if (window.__testPolls) return;
    window.__testPolls = { started: 0 };
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) if (e.name === 'fluxlens:poll-started') window.__testPolls.started++;
    }).observe({ type: 'mark' });
  });
  const from = await page.evaluate(() => window.__testPolls.started);
  await page.waitForFunction((want) => window.__testPolls.started >= want, from + n + 1, { timeout });
}

/** Resolves after the page has painted two more frames: whatever a gesture or a change set off
 * in the app (its effects, their DOM) has run by then. */
export function frames(page) {
  return page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => r()))));
}
