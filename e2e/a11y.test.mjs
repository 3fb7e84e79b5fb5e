// Accessibility (#27, step 1): axe-core 4 (a pinned dev dependency) reports no violation on any
// view, desktop and phone, on the real-sized homelab — and on the fleet page.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSim, launch } from './helpers.mjs';

const ROOT = new URL('..', import.meta.url).pathname;
const AXE = readFileSync(`${ROOT}node_modules/axe-core/axe.min.js`, 'utf8');
const VIEWPORTS = { desktop: { width: 1440, height: 900 }, phone: { width: 390, height: 844 } };
let browser, sim, fleet;

before(async () => {
  browser = await launch();
  sim = await startSim(['--scenario', 'homelab']);
  const dir = mkdtempSync(join(tmpdir(), 'fluxlens-a11y-fleet-'));
  writeFileSync(join(dir, 'fleet.json'), JSON.stringify({ clusters: [
    { name: 'home', scenario: 'homelab', labels: { wave: '1' } },
    { name: 'denied', scenario: 'demo', labels: { wave: '2' }, faults: { oidc: '1' } },
  ] }));
  fleet = await startSim(['--scenario', dir]);
});

after(async () => {
  sim?.stop();
  fleet?.stop();
  await browser?.close();
});

async function violations(base, path, viewport) {
  const context = await browser.newContext({ viewport });
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
    for (const path of ['/', '/graph', '/signatures', '/migrations', '/compliance']) {
      assert.deepEqual(await violations(sim.base, path, viewport), [], `${name} ${path}`);
    }
    assert.deepEqual(await violations(fleet.base, '/fleet?waves=wave', viewport), [], `${name} /fleet`);
  });
}
