// The page gets the first views' fonts ready while it waits on the network (#51,
// scripts/build.py `font_warmup`, listed by scripts/first-view.mjs): a hidden line in each font,
// laid out before the app starts, gone once it mounts; and the list covers what the overview draws.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { startSim, launch, fontsDrawn, holdRequests } from './helpers.mjs';

const LISTED = JSON.parse(readFileSync(new URL('../scripts/first-view-fonts.json', import.meta.url)));
const rendered = () => performance.getEntriesByName('fluxlens:view-rendered').length > 0;

let browser;
let sim;
before(async () => { browser = await launch(); sim = await startSim(['--scenario', 'demo']); });
after(async () => { sim?.stop(); await browser?.close(); });

test('a hidden line in every listed font is laid out before the app starts, and is gone once it mounts', async () => {
  const page = await (await browser.newContext()).newPage();
  // The app's module script: held, the app cannot start.
  const release = await holdRequests(page, /\/fluxlens-[0-9a-f]+\.js$/);
  // Not DOMContentLoaded: it waits for the held module script. The page parsed is enough.
  await page.goto(`${sim.base}/?poll=600`, { waitUntil: 'commit' });
  await page.waitForFunction(() => document.readyState !== 'loading', null, { timeout: 30000 });
  const lines = await page.evaluate(() => {
    const box = document.getElementById('fl-font-warmup');
    if (!box) return null;
    const cs = getComputedStyle(box);
    return {
      hidden: box.getAttribute('aria-hidden') === 'true' && cs.visibility === 'hidden',
      scrolls: document.documentElement.scrollHeight > innerHeight,
      lines: [...box.children].map((p) => {
        const s = getComputedStyle(p);
        // The line's text as laid out (the box is 1px wide; the line does not wrap).
        const range = document.createRange();
        range.selectNodeContents(p);
        return { font: `${s.fontStyle} ${s.fontWeight} ${s.fontSize} ${s.fontFamily}`, numeric: s.fontVariantNumeric, width: range.getBoundingClientRect().width, text: p.textContent };
      }),
    };
  });
  assert.ok(lines, 'the page carries the hidden lines');
  assert.ok(lines.hidden, 'hidden from sight and from assistive technology');
  assert.ok(!lines.scrolls, 'they make the page no longer');
  assert.ok(LISTED.fonts.length >= 5, `${LISTED.fonts.length} fonts listed`);
  assert.deepEqual(lines.lines.map(({ font, numeric }) => ({ font, numeric })), LISTED.fonts);
  for (const line of lines.lines) {
    assert.ok(line.width > 100, `laid out: ${line.font} is ${line.width}px wide`);
    for (const ch of LISTED.chars) assert.ok(line.text.includes(ch), `${line.font} holds ${ch}`);
  }
  release();
  await page.waitForFunction(rendered, null, { timeout: 30000 });
  assert.equal(await page.locator('#fl-font-warmup').count(), 0, 'removed when the app mounts');
  await page.context().close();
});

test('the list holds every font and character the overview draws (else: make first-view)', async () => {
  const page = await (await browser.newContext()).newPage();
  await page.goto(`${sim.base}/?poll=600`);
  await page.waitForFunction(rendered, null, { timeout: 30000 });
  const drawn = await fontsDrawn(page);
  const listed = new Set(LISTED.fonts.map((f) => `${f.font}|${f.numeric}`));
  const missing = [...new Set(drawn.map((d) => `${d.font}|${d.numeric}`))].filter((k) => !listed.has(k));
  assert.deepEqual(missing, [], 'fonts the overview draws that scripts/first-view-fonts.json does not list');
  const chars = new Set([...drawn.map((d) => d.text).join('')].filter((c) => c.codePointAt(0) > 126));
  const unlisted = [...chars].filter((c) => !LISTED.chars.includes(c));
  assert.deepEqual(unlisted, [], 'characters beyond ASCII the overview draws that the list does not hold');
  await page.context().close();
});
