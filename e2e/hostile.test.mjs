// Hostile content: markup and script in names, messages, URLs and identity regexes are
// rendered as text on every route; long strings do not break the layout.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startSim, launch, newPage, cleanup } from './helpers.mjs';

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

test('no script runs and no injected element exists on any route', async () => {
  const sim = await startSim(['--scenario', 'hostile']);
  try {
    const page = await newPage(browser);
    await page.setViewportSize({ width: 1280, height: 800 });
    for (const route of ['/', '/graph', '/signatures', '/migrations', '/compliance', '/changes', '/graph?sel=Kustomization/flux-system/flux-system']) {
      await page.goto(sim.base + route);
      await page.locator('.fl-page').waitFor();
      await page.waitForFunction(() => performance.getEntriesByName('fluxlens:view-rendered').length > 0);
      assert.equal(await page.evaluate(() => window.pwned), undefined, route);
      assert.equal(await page.locator('main img, main script').count(), 0, route);
      assert.ok((await page.locator('main').textContent()).includes('<script>window.pwned=2</script>'), `${route}: shown as text`);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      assert.ok(overflow <= 1, `${route}: page scrolls sideways by ${overflow}px`);
    }
    assert.deepEqual(page.errors, []);
  } finally { await cleanup(browser, sim); }
});
