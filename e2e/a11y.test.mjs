// Accessibility (#27, step 1): axe-core 4 (a pinned dev dependency) reports no violation on any
// view, desktop and phone, light and dark, on the real-sized homelab and the broken scenario
// (every tone of verdict, finding and status) — and on the fleet page.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSim, launch } from './helpers.mjs';

const ROOT = new URL('..', import.meta.url).pathname;
const AXE = readFileSync(`${ROOT}node_modules/axe-core/axe.min.js`, 'utf8');
// Both themes (#27: the verdict's tone and every text keep their contrast in dark too).
const VIEWPORTS = {
  desktop: { viewport: { width: 1440, height: 900 }, colorScheme: 'light' },
  'desktop dark': { viewport: { width: 1440, height: 900 }, colorScheme: 'dark' },
  phone: { viewport: { width: 390, height: 844 }, colorScheme: 'light', hasTouch: true, isMobile: true },
  'phone dark': { viewport: { width: 390, height: 844 }, colorScheme: 'dark', hasTouch: true, isMobile: true },
};
let browser, sim, broken, fleet;

before(async () => {
  browser = await launch();
  sim = await startSim(['--scenario', 'homelab']);
  broken = await startSim(['--scenario', 'broken']);
  const dir = mkdtempSync(join(tmpdir(), 'fluxlens-a11y-fleet-'));
  writeFileSync(join(dir, 'fleet.json'), JSON.stringify({ clusters: [
    { name: 'home', scenario: 'homelab', labels: { wave: '1' } },
    { name: 'denied', scenario: 'demo', labels: { wave: '2' }, faults: { oidc: '1' } },
  ] }));
  fleet = await startSim(['--scenario', dir]);
});

after(async () => {
  sim?.stop();
  broken?.stop();
  fleet?.stop();
  await browser?.close();
});

async function violations(base, path, options) {
  const context = await browser.newContext(options);
  const page = await context.newPage();
  await page.goto(base + path);
  await page.waitForFunction(() => performance.getEntriesByName('fluxlens:view-rendered').length > 0, null, { timeout: 30000 });
  await page.addScriptTag({ content: AXE });
  const found = await page.evaluate(async () => (await window.axe.run(document)).violations
    .map((v) => `${v.id} (${v.impact}) ×${v.nodes.length}: ${v.nodes[0].target.join(' ')}`));
  await context.close();
  return found;
}

for (const [name, viewport] of Object.entries(VIEWPORTS)) {
  test(`axe finds nothing on any view (${name})`, async () => {
    for (const [scenario, base] of [['homelab', sim.base], ['broken', broken.base]]) {
      for (const path of ['/', '/graph', '/graph?sel=Kustomization/flux-system/flux-system', '/signatures', '/migrations', '/compliance', '/changes', '/drift', '/drift?render=%2F__sim%2Frender.yaml']) {
        assert.deepEqual(await violations(base, path, viewport), [], `${name} ${scenario} ${path}`);
      }
    }
    assert.deepEqual(await violations(fleet.base, '/fleet?waves=wave', viewport), [], `${name} /fleet`);
  });
}
