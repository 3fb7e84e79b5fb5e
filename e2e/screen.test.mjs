// The screen (#27): the graph gets the screen below one compact toolbar, on a desktop and on a
// phone (touch pan and pinch, the side panel as a bottom sheet); no view scrolls sideways at
// 1440 px; menus open and close; the verdict's tone follows the severity it names.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startSim, launch } from './helpers.mjs';

const DESKTOP = { width: 1440, height: 900 };
const PHONE = { width: 390, height: 844 };
let browser, homelab;

before(async () => {
  browser = await launch();
  homelab = await startSim(['--scenario', 'homelab']);
});
after(async () => {
  homelab?.stop();
  await browser?.close();
});

const rendered = (page) => page.waitForFunction(() => performance.getEntriesByName('fluxlens:view-rendered').length > 0, null, { timeout: 30000 });

async function open(base, path, viewport, extra = {}) {
  const context = await browser.newContext({ viewport, ...extra });
  const page = await context.newPage();
  page.errors = [];
  page.on('pageerror', (e) => page.errors.push(String(e)));
  await page.goto(base + path);
  await rendered(page);
  await page.locator('[data-node-id]').first().waitFor().catch(() => {});
  return { context, page };
}

/// Where the canvas and its first (topmost) node box are on screen.
const geometry = (page) => page.evaluate(() => {
  const c = document.querySelector('.fl-canvas').getBoundingClientRect();
  const tops = [...document.querySelectorAll('[data-node-id]')].map((n) => n.getBoundingClientRect().top);
  return { top: c.top, bottom: c.bottom, firstNode: Math.min(...tops), nodes: tops.length };
});

const zoomOf = (page) => page.evaluate(() => {
  const t = document.querySelector('.fl-svg > g[transform]').getAttribute('transform');
  const m = /translate\(([-\d.e]+),([-\d.e]+)\) scale\(([-\d.e]+)\)/.exec(t);
  return { x: Number(m[1]), y: Number(m[2]), z: Number(m[3]) };
});

test('desktop: the canvas fills the screen below one toolbar; its first box is in the upper third', async () => {
  const { context, page } = await open(homelab.base, '/graph', DESKTOP);
  const g = await geometry(page);
  assert.ok(g.nodes > 0, 'nodes drawn');
  assert.ok(g.top < 160, `canvas starts at ${g.top}px`);
  assert.ok(g.bottom <= DESKTOP.height, `canvas ends on screen (${g.bottom}px)`);
  assert.ok(g.bottom - g.top > DESKTOP.height * 0.7, `canvas is ${g.bottom - g.top}px tall`);
  assert.ok(g.firstNode < DESKTOP.height / 3, `first node at ${g.firstNode}px`);
  // The filters and the exports are folded into menus that open and close.
  const filters = page.locator('[data-menu=filters]');
  assert.equal(await filters.getAttribute('open'), null);
  await filters.locator('summary').click();
  await page.getByLabel('Problems only').check();
  await page.waitForURL(/problems=1/);
  assert.equal(await filters.locator('summary .fl-badge').textContent(), '1', 'the button counts active filters');
  await page.keyboard.press('Escape');
  assert.equal(await filters.getAttribute('open'), null, 'Escape closes the menu');
  await page.locator('[data-menu=export] summary').click();
  assert.ok(await page.getByRole('button', { name: 'Export SVG' }).isVisible());
  await page.locator('h1').click();
  assert.equal(await page.locator('[data-menu=export]').getAttribute('open'), null, 'a click outside closes it');
  assert.deepEqual(page.errors, []);
  await context.close();
});

test('phone: the canvas is on the first screen, pans and pinches by touch, the panel is a bottom sheet', async () => {
  const { context, page } = await open(homelab.base, '/graph', PHONE, { hasTouch: true, isMobile: true });
  const g = await geometry(page);
  assert.ok(g.top < PHONE.height / 2, `canvas starts at ${g.top}px`);
  assert.ok(g.firstNode < PHONE.height, `a node box is on the first screen (${g.firstNode}px)`);
  // No view is wider than the phone.
  assert.equal(await page.evaluate(() => document.documentElement.scrollWidth), PHONE.width);
  const cdp = await context.newCDPSession(page);
  const mid = { x: PHONE.width / 2, y: (g.top + Math.min(g.bottom, PHONE.height)) / 2 };
  const touch = (type, points) => cdp.send('Input.dispatchTouchEvent', { type, touchPoints: points.map((p, id) => ({ ...p, id })) });
  // One finger pans.
  const before = await zoomOf(page);
  await touch('touchStart', [mid]);
  for (let k = 1; k <= 5; k++) await touch('touchMove', [{ x: mid.x - 12 * k, y: mid.y - 8 * k }]);
  await touch('touchEnd', []);
  const panned = await zoomOf(page);
  assert.ok(Math.abs(panned.x - before.x - -60) < 2 && Math.abs(panned.y - before.y - -40) < 2, `panned by (-60,-40): ${JSON.stringify({ before, panned })}`);
  assert.equal(panned.z, before.z);
  // Two fingers spread: zoom in about their midpoint.
  await touch('touchStart', [{ x: mid.x - 40, y: mid.y }, { x: mid.x + 40, y: mid.y }]);
  for (let k = 1; k <= 5; k++) await touch('touchMove', [{ x: mid.x - 40 - 8 * k, y: mid.y }, { x: mid.x + 40 + 8 * k, y: mid.y }]);
  await touch('touchEnd', []);
  const pinched = await zoomOf(page);
  // The fingers 80 px apart end 160 px apart: twice the zoom.
  assert.ok(pinched.z / panned.z > 1.9 && pinched.z / panned.z < 2.1, `pinch ×2: ${panned.z} → ${pinched.z}`);
  await page.waitForURL(/vp=/, { timeout: 5000 });
  // A tap selects; the panel opens as a sheet along the bottom edge, over the canvas.
  await page.goto(homelab.base + '/graph?sel=' + encodeURIComponent('Kustomization/flux-system/flux-system'));
  const panel = page.locator('[data-panel]');
  await panel.waitFor();
  const sheet = await panel.evaluate((p) => {
    const r = p.getBoundingClientRect();
    return { top: r.top, bottom: r.bottom, left: r.left, width: r.width, position: getComputedStyle(p).position };
  });
  assert.equal(sheet.position, 'fixed');
  assert.ok(Math.abs(sheet.bottom - PHONE.height) < 1 && sheet.left === 0 && sheet.width === PHONE.width, JSON.stringify(sheet));
  assert.ok(sheet.top >= PHONE.height * 0.4, `the sheet leaves the canvas visible: ${sheet.top}`);
  assert.deepEqual(page.errors, []);
  await context.close();
});

test('desktop: one toolbar row from 1024 to 1440 px, however long the verdict (#46: 2–3 rows)', async () => {
  const demo = await startSim(['--scenario', 'demo']);
  try {
    for (const width of [1024, 1280, 1440]) {
      const { context, page } = await open(demo.base, '/graph', { width, height: 800 });
      const t = await page.evaluate(() => {
        const bar = document.querySelector('.fl-toolbar').getBoundingClientRect();
        const hero = document.querySelector('.fl-toolbar [data-verdict]');
        return { h: bar.height, canvas: document.querySelector('.fl-canvas').getBoundingClientRect().top, title: hero.getAttribute('title') };
      });
      assert.ok(t.h < 48, `${width}px: the toolbar is ${t.h}px tall`);
      assert.ok(t.canvas <= 112, `${width}px: the canvas starts ${t.canvas}px down`);
      assert.match(t.title, / — /, 'the whole verdict on hover');
      await context.close();
    }
  } finally { demo.stop(); }
});

test('phone: no view is wider than the screen, every view is in the navigation, the first graph view cuts no box', async () => {
  const context = await browser.newContext({ viewport: PHONE, hasTouch: true, isMobile: true });
  const page = await context.newPage();
  for (const route of ['/', '/graph', '/signatures', '/migrations', '/compliance', '/changes', '/drift', '/drift?render=%2F__sim%2Frender.yaml']) {
    await page.goto(homelab.base + route);
    await rendered(page);
    assert.equal(await page.evaluate(() => document.documentElement.scrollWidth), PHONE.width, `${route} is wider than the phone`);
    const links = await page.locator('.fl-nav a').evaluateAll((as) => as.map((a) => { const r = a.getBoundingClientRect(); return { t: a.textContent, l: r.left, r: r.right }; }));
    assert.equal(links.length, 7);
    for (const l of links) assert.ok(l.l >= 0 && l.r <= PHONE.width, `${route}: ${l.t} is off screen (${l.l}–${l.r})`);
  }
  await page.goto(homelab.base + '/graph');
  await rendered(page);
  await page.locator('[data-node-id]').first().waitFor();
  const cut = await page.evaluate(() => {
    const canvas = document.querySelector('.fl-canvas').getBoundingClientRect();
    const tools = document.querySelector('.fl-canvas__tools').getBoundingClientRect();
    const out = [];
    for (const n of document.querySelectorAll('[data-node-id]')) {
      const b = n.querySelector('rect').getBoundingClientRect();
      if (b.top > canvas.bottom) continue;
      if (b.left < canvas.left || b.right > canvas.right) out.push(`${n.dataset.nodeId} cut at the side`);
      if (b.left < tools.right && b.right > tools.left && b.top < tools.bottom && b.bottom > tools.top) out.push(`${n.dataset.nodeId} under the zoom buttons`);
    }
    return out;
  });
  assert.deepEqual(cut, []);
  await context.close();
});

test('framed, the canvas keeps a bounded height (the frame grows to its content)', async () => {
  const { context, page } = await open(homelab.base, '/embed/graph', { width: 1200, height: 2000 });
  const g = await geometry(page);
  assert.ok(g.bottom - g.top <= 720, `embedded canvas ${g.bottom - g.top}px`);
  await context.close();
});

test('framed on a phone (the plugin panel), the side panel is a sheet at the bottom edge', async () => {
  const sel = encodeURIComponent('Kustomization/flux-system/flux-system');
  const { context, page } = await open(homelab.base, `/embed/graph?sel=${sel}`, PHONE, { hasTouch: true, isMobile: true });
  const panel = page.locator('[data-panel]');
  await panel.waitFor();
  const r = await panel.evaluate((p) => { const b = p.getBoundingClientRect(); return { top: b.top, bottom: b.bottom, position: getComputedStyle(p).position }; });
  assert.equal(r.position, 'sticky');
  assert.ok(Math.abs(r.bottom - PHONE.height) < 2, `the sheet ends at the frame's bottom edge: ${JSON.stringify(r)}`);
  assert.ok(r.top >= PHONE.height * 0.4, `and leaves the canvas visible: ${r.top}`);
  await context.close();
});

test('at 1440 px no view scrolls sideways, on every scenario, hostile strings included', async () => {
  const wide = [];
  for (const scenario of ['homelab', 'demo', 'broken', 'enterprise-fips', 'handover', 'hostile']) {
    const sim = scenario === 'homelab' ? homelab : await startSim(['--scenario', scenario]);
    const context = await browser.newContext({ viewport: DESKTOP });
    const page = await context.newPage();
    for (const route of ['/', '/graph', '/signatures', '/migrations', '/compliance', '/changes', '/drift?render=%2F__sim%2Frender.yaml']) {
      await page.goto(sim.base + route);
      await rendered(page);
      const over = await page.evaluate(() => [document.documentElement, ...document.querySelectorAll('.fl-scroll, table, pre, main')]
        .filter((e) => e.scrollWidth > e.clientWidth + 1)
        .map((e) => `${e.tagName.toLowerCase()}.${e.className} ${e.scrollWidth}>${e.clientWidth}`));
      if (over.length) wide.push(`${scenario} ${route}: ${over.join(', ')}`);
    }
    // Identity patterns show whole, in the row's details, not one character per line.
    if (scenario === 'broken') {
      await page.goto(sim.base + '/signatures');
      const code = page.locator('tr[data-more-for] .fl-identities code').first();
      await code.waitFor();
      const { width, text } = await code.evaluate((c) => ({ width: c.getBoundingClientRect().width, text: c.textContent }));
      assert.ok(width > 300 || text.length * 7 < 300, `an identity pattern ${text.length} characters long is ${width}px wide`);
    }
    await context.close();
    if (sim !== homelab) sim.stop();
  }
  assert.deepEqual(wide, []);
});

test('the verdict tone follows the severity it names, on every view', async () => {
  for (const scenario of ['broken', 'hostile', 'homelab', 'upstream-bootstrap']) {
    const sim = scenario === 'homelab' ? homelab : await startSim(['--scenario', scenario]);
    const context = await browser.newContext({ viewport: DESKTOP });
    const page = await context.newPage();
    for (const route of ['/', '/graph', '/signatures', '/migrations', '/compliance', '/changes']) {
      await page.goto(sim.base + route);
      const hero = page.locator('[data-verdict]').first();
      await hero.waitFor();
      const tone = await hero.getAttribute('data-verdict');
      const text = await hero.locator('.fl-hero__text').textContent();
      const named = /\b(critical|high)\b/.test(text) && !/No critical or high/.test(text) ? 'bad' : /\bmedium\b/.test(text) ? 'warn' : null;
      if (named) assert.equal(tone, named, `${scenario} ${route}: "${text}" reads ${tone}`);
    }
    await context.close();
    if (sim !== homelab) sim.stop();
  }
});
