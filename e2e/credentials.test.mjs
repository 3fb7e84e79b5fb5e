// Shared links and exports never carry credentials (issue #19): a scenario with five planted
// where real clusters leak them, through Share snapshot on every view and every export.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { startSim, launch, newPage, cleanup, openMenu } from './helpers.mjs';

const ROOT = new URL('..', import.meta.url).pathname;
const SECRETS = JSON.parse(readFileSync(`${ROOT}scenarios/credentials/secrets.json`, 'utf8'));

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

function clean(what, text) {
  for (const s of SECRETS) assert.ok(!text.includes(s), `${what} carries ${s.slice(0, 12)}…`);
}

async function downloaded(page, button) {
  const dl = page.waitForEvent('download');
  await page.getByRole('button', { name: button }).click();
  return readFileSync(await (await dl).path(), 'utf8');
}

test('share snapshot on every view: redacted, counted before copying, and the opened link is clean', async () => {
  const sim = await startSim(['--scenario', 'credentials']);
  try {
    for (const route of ['/', '/graph', '/signatures', '/migrations', '/compliance']) {
      const page = await newPage(browser);
      await page.goto(sim.base + route);
      await page.locator('.fl-page h1').waitFor();
      await page.locator('[data-count=objects], g[data-node-id], [data-table], [data-migration], [data-control]').first().waitFor();
      await openMenu(page, 'share');
      await page.getByRole('button', { name: 'Share snapshot' }).click();
      const link = await page.locator('[data-share-link]').inputValue();
      assert.ok(Number(await page.locator('[data-redacted]').getAttribute('data-redacted')) >= 1, route);
      assert.match(await page.locator('[data-redacted]').textContent(), /values? redacted/);
      // The link decodes in a fresh page: nothing secret on screen or in the page's data.
      const fresh = await newPage(browser);
      await fresh.goto(link);
      await fresh.locator('[data-snapshot]').waitFor();
      clean(`${route} snapshot page`, await fresh.content());
      clean(`${route} snapshot link`, decodeURIComponent(link));
    }
  } finally { await cleanup(browser, sim); }
});

test('every export is clean: JSON, Markdown, CSV evidence, SVG and DOT', async () => {
  const sim = await startSim(['--scenario', 'credentials']);
  try {
    const page = await newPage(browser);
    await page.goto(sim.base + '/compliance');
    await page.getByRole('button', { name: 'Export JSON' }).waitFor();
    for (const b of ['Export JSON', 'Export Markdown', 'Export CSV']) clean(b, await downloaded(page, b));
    await page.goto(sim.base + '/graph');
    await page.locator('g[data-node-id]').first().waitFor();
    await openMenu(page, 'export');
    for (const b of ['Export SVG', 'Export DOT']) clean(b, await downloaded(page, b));
  } finally { await cleanup(browser, sim); }
});
