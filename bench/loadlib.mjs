// What the load benches share (#15, #28, #51): DevTools' network presets, one visit measured
// under a preset (cold or warm), fluxlens' and the Flux Operator UI's readiness, every byte a
// visit moves, and the critical path of a visit: which request or main-thread stretch
// each millisecond until the view was complete waited on, read from the DevTools protocol's
// network events (they include the reader worker's requests, which the page's own resource
// timing does not).
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';

export const median = (xs) => { const s = [...xs].sort((a, b) => a - b); return s[Math.floor(s.length / 2)]; };
// Chrome DevTools' presets, with the adjustment factors DevTools itself applies.
export const PROFILES = {
  'Fast 4G': { latency: 60 * 2.75, downloadThroughput: (9 * 1000 * 1000) / 8 * 0.9, uploadThroughput: (1.5 * 1000 * 1000) / 8 * 0.9 },
  'Slow 4G': { latency: 150 * 3.75, downloadThroughput: (1.6 * 1000 * 1000) / 8 * 0.9, uploadThroughput: (750 * 1000) / 8 * 0.9 },
};
/** How long a warm row's first visit stays open after its view is complete (a look, not a bounce). */
const FIRST_VISIT_MS = 3000;

// One visit to `url` under `profile`, complete when `ready` holds in the page; `warm`: a first
// visit fills the HTTP cache, then a second one in the same context is measured (a new tab: the
// app starts again, only the cache is kept). `prepare(context, page)` runs before navigation.
// `tailMs`: the visit stays open that long after its view, and `visitBytes` counts what it moved
// until then (what the page fetches after its view is paid for all the same, #71).
export async function visit(browser, url, profile, ready, warm, prepare = async () => {}, tailMs = 0) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  if (warm) {
    const first = await context.newPage();
    await prepare(context, first);
    await first.goto(url);
    await first.waitForFunction(ready, null, { timeout: 120000 });
    const shown = Date.now();
    // A visit long enough to keep its data for the next one (fluxlens, #28; bounded: the
    // operator UI keeps nothing).
    await first.waitForFunction(() => performance.getEntriesByName('fluxlens:last-visit-kept').length > 0, null, { timeout: FIRST_VISIT_MS }).catch(() => {});
    // Every first visit lasts as long, whoever is measured (#51): the operator UI's always ran
    // to the wait's timeout above, fluxlens's ended once its read was kept, too early for the
    // browser to keep the wasm's compiled code for the next visit as it does for a longer one.
    await first.waitForTimeout(Math.max(0, FIRST_VISIT_MS - (Date.now() - shown)));
    await first.close();
  }
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  // Cold is a new context (an empty HTTP cache) with the cache on, as a first visit has it:
  // disabling the cache (as this bench did before #28) also refused the page's reuse of what it
  // had just fetched, e.g. the reader worker's script, preloaded and then fetched again.
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: false });
  await cdp.send('Network.emulateNetworkConditions', { offline: false, ...PROFILES[profile] });
  let bytes = 0;
  // Every request of the visit, the reader worker's too, timed from the document's request.
  const requests = new Map();
  let origin = null;
  cdp.on('Network.requestWillBeSent', (e) => {
    if (origin === null) origin = e.timestamp;
    requests.set(e.requestId, { url: e.request.url, method: e.request.method, sent: e.timestamp });
  });
  cdp.on('Network.loadingFinished', (e) => {
    bytes += e.encodedDataLength;
    const r = requests.get(e.requestId);
    if (r) {
      r.done = e.timestamp;
      r.bytes = e.encodedDataLength;
    }
  });
  const timeline = () => [...requests.values()]
    .filter((r) => r.done !== undefined && origin !== null)
    .map((r) => ({ what: `${r.method} ${new URL(r.url).pathname}`, start: (r.sent - origin) * 1000, end: (r.done - origin) * 1000 }));
  await prepare(context, page);
  await page.goto(url);
  await page.waitForFunction(ready, null, { timeout: 120000 });
  const atView = bytes;
  for (const r of requests.values()) if (r.bytes !== undefined) r.beforeView = true;
  // A bench's wait, not a test's: the visit's next seconds are what is measured.
  if (tailMs) await page.waitForTimeout(tailMs);
  // What the whole visit moved, by what it is and whether it came before the view or after.
  const shares = () => {
    const out = {};
    for (const r of requests.values()) {
      if (r.bytes === undefined) continue;
      const key = `${shareOf(r.url, r.method)}${r.beforeView ? '' : ', after the view'}`;
      out[key] = (out[key] || 0) + r.bytes;
    }
    return out;
  };
  return { context, page, bytes: () => atView, visitBytes: tailMs ? bytes : null, visitShares: tailMs ? shares() : null, timeline };
}

/** What a request of a visit is, for the whole visit's account (#71 item 2). */
export function shareOf(url, method) {
  const path = new URL(url).pathname;
  if (path.startsWith('/api/')) return `API ${method} ${path.replace(/^\/api\/v1\//, '')}`;
  if (/_bg\.wasm$/.test(path)) return 'main wasm module';
  if (/\.wasm$/.test(path)) return 'wasm chunks';
  if (/\.m?js$/.test(path)) return 'scripts';
  if (/\.css$/.test(path)) return 'styles';
  if (/\.(woff2?|ttf|otf)$/.test(path)) return 'fonts';
  if (path === '/' || /\.html$/.test(path)) return 'page';
  return 'other files';
}

/** The critical path of a visit complete at `complete` ms: walking back from it, the request
 * that finished last before each point (what that point waited on), and the main thread's
 * stretches between (scripts, the model, the analyses, rendering). Each step `{what, start,
 * end}`, first to last; a stretch shorter than 2 ms is folded into its neighbour. */
export function criticalPath(requests, complete, marks = {}) {
  const path = [];
  let t = complete;
  const named = Object.entries(marks).filter(([, at]) => at !== undefined).sort((a, b) => b[1] - a[1]);
  for (;;) {
    // A request that started at t (one served at once, from a cache) cannot be what t waited
    // on: walking back to it would stand still.
    const waited = requests.filter((r) => r.end <= t + 1 && r.start < t).sort((a, b) => b.end - a.end)[0];
    const from = waited ? waited.end : 0;
    if (t - from >= 2) {
      const inside = named.filter(([, at]) => at > from && at <= t).map(([n]) => n);
      path.unshift({ what: `main thread${inside.length ? ` (until ${inside.join(', ')})` : ''}`, start: from, end: t });
    }
    if (!waited) break;
    path.unshift({ what: waited.what, start: waited.start, end: waited.end });
    t = waited.start;
    if (t <= 1) break;
  }
  return path;
}

/** A critical path as one line: `GET / 0–120 → GET /app.wasm 130–950 → main thread 950–1010 …`. */
export function pathLine(path) {
  return path.map((s) => `${s.what} ${Math.round(s.start)}–${Math.round(s.end)}`).join(' → ');
}

export async function measure(browser, base, profile, lastVisit, warm = false, tailMs = 0) {
  let wasmEncoding = '';
  const prepare = async (_, page) => {
    page.on('response', (r) => { if (r.url().endsWith('.wasm')) wasmEncoding = r.headers()['content-encoding'] || 'identity'; });
    await page.addInitScript((lastVisit) => {
      // Without the last visit's copy: none is there when the page starts (the app keeps one
      // after each visit; this row measures the page as if it did not).
      if (!lastVisit) for (const k of Object.keys(localStorage)) if (k.startsWith('fluxlens:last:')) localStorage.removeItem(k);
      const seen = () => {
        const el = document.querySelector('[data-identity=Flux]');
        if (el && el.textContent && el.textContent !== 'unknown' && !window.__factsAt) window.__factsAt = performance.now();
      };
      new MutationObserver(seen).observe(document, { subtree: true, childList: true, characterData: true });
    }, !!lastVisit);
  };
  // Complete: the overview shows every card and finding (on a second visit, from the last
  // visit's data, marked not live); live: the first live read has landed (`data-ready`).
  const ready = () => window.__factsAt && performance.getEntriesByName('fluxlens:view-rendered').length > 0 && performance.getEntriesByName('fluxlens:data-ready').length > 0;
  const { context, page, bytes, visitBytes, visitShares, timeline } = await visit(browser, `${base}/?poll=600`, profile, ready, warm, prepare, tailMs);
  const t = await page.evaluate(() => ({ facts: window.__factsAt, dataReady: performance.getEntriesByName('fluxlens:data-ready')[0].startTime, complete: performance.getEntriesByName('fluxlens:view-rendered')[0].startTime, live: Math.max(performance.getEntriesByName('fluxlens:view-rendered')[0].startTime, performance.getEntriesByName('fluxlens:data-ready')[0].startTime) }));
  await context.close();
  const path = criticalPath(timeline(), t.complete, { 'data-ready': t.dataReady, 'view-rendered': t.complete });
  return { ...t, wasmEncoding, bytes: bytes(), visitBytes, visitShares, path };
}

// The Flux Operator UI's dashboard beside fluxlens (#28), when its production build is given:
// OPERATOR_UI_DIST=<flux-operator>/web/dist (npm ci && npx vite build there; this bench cannot
// fetch it: the machines reach package registries only). It is served by the same nginx with the
// same treatment (brotli and gzip prebuilt for its page and every file under assets/, see
// precompressOperator; hashed assets immutable; the API proxied to the same simulator, its
// answers compressed by nginx, with brotli where the module is loaded, as the kit does), and is
// complete when its dashboard shows the report (one request).
export function operatorSite(dist, port, api) {
  precompressOperator(dist);
  return `server {
    listen 127.0.0.1:${port};
    root ${dist};
    gzip_static on;
    ${existsSync('/usr/lib/nginx/modules/ngx_http_brotli_filter_module.so') ? 'brotli_static on; brotli on; brotli_types application/javascript text/css application/json image/svg+xml;' : ''}
    gzip on;
    gzip_types application/javascript text/css application/json image/svg+xml;
    location /api/ { proxy_pass ${api}; proxy_http_version 1.1; proxy_set_header Host $host; proxy_set_header Accept-Encoding ""; }
    location /assets/ { try_files $uri =404; add_header Cache-Control "public, max-age=31536000, immutable" always; }
    location / { try_files $uri /index.html; add_header Cache-Control "no-cache" always; }
  }`;
}

export async function measureOperator(browser, base, profile, warm, tailMs = 0) {
  const done = () => window.__completeAt;
  // Once per context: every page of it watches for the dashboard's report.
  let watching = false;
  const prepare = async (context) => {
    if (watching) return;
    watching = true;
    await context.addInitScript(() => {
      new MutationObserver(() => {
        const main = document.querySelector('main');
        if (window.__inDomAt || !main || !main.textContent.includes('Flux Distribution') || !main.textContent.includes('Flux Components')) return;
        window.__inDomAt = performance.now();
        // Complete once painted, as fluxlens's view-rendered is (src/perf.rs, mark_after_paint:
        // the next frame, then a task): both are timed at the same moment (#51; before, the
        // operator's view counted from its insertion into the DOM, a frame earlier).
        requestAnimationFrame(() => setTimeout(() => { window.__completeAt = performance.now(); }, 0));
      }).observe(document, { subtree: true, childList: true, characterData: true });
    });
  };
  const { context, page, bytes, visitBytes, visitShares, timeline } = await visit(browser, `${base}/`, profile, done, warm, prepare, tailMs);
  const { complete, inDom } = await page.evaluate(() => ({ complete: window.__completeAt, inDom: window.__inDomAt }));
  await context.close();
  return { complete, inDom, bytes: bytes(), visitBytes, visitShares, path: criticalPath(timeline(), complete) };
}

/**
 * The operator UI's build precompressed as fluxlens's is (gzip -9, brotli q11): the page and the
 * files under assets/, where vite writes its script and styles. Before #51's fifth step only the
 * top folder was (scripts/precompress.py does not descend), so its 492 KB script travelled with
 * nginx's on-the-fly gzip at level 1: every earlier side-by-side figure had the operator UI
 * slower than it deploys.
 */
export function precompressOperator(dist) {
  const missing = (dir) => readdirSync(dir).some((f) => /\.(js|css|html|svg|json)$/.test(f) && !existsSync(join(dir, `${f}.br`)));
  const dirs = [dist, join(dist, 'assets')].filter((d) => existsSync(d) && missing(d));
  if (dirs.length) execFileSync('python3', [new URL('../scripts/precompress.py', import.meta.url).pathname, ...dirs]);
}
