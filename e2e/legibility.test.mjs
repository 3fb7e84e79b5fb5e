// A graph a person can read (issue #16): the default /graph view of every scenario, and of a
// 5,000-object cluster, shows at most ~80 node boxes on screen, each at least 20 px tall with its
// name at least 11 px — measured from the boxes' bounding rectangles, not from CSS.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, existsSync } from 'node:fs';
import { startSim, launch, newPage, cleanup, frames } from './helpers.mjs';

const ROOT = new URL('..', import.meta.url).pathname;
const SCENARIOS = readdirSync(`${ROOT}scenarios`).filter((d) => existsSync(`${ROOT}scenarios/${d}/objects.json`));

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

async function measure(page) {
  return page.evaluate(() => {
    const box = document.querySelector('svg.fl-svg').getBoundingClientRect();
    const onScreen = [...document.querySelectorAll('g[data-node-id]')].map((g) => {
      const r = g.querySelector('rect').getBoundingClientRect();
      const t = g.querySelector('.fl-node__name').getBoundingClientRect();
      return { h: r.height, label: t.height, in: r.right > box.left && r.left < box.right && r.bottom > box.top && r.top < box.bottom };
    }).filter((n) => n.in);
    return { count: onScreen.length, minBox: Math.min(...onScreen.map((n) => n.h)), minLabel: Math.min(...onScreen.map((n) => n.label)) };
  });
}

for (const [name, args] of [...SCENARIOS.map((s) => [s, ['--scenario', s]]), ['synthetic 5,000', ['--synthetic', '5000']]]) {
  test(`legible default graph: ${name}`, async () => {
    const sim = await startSim(args);
    try {
      const page = await newPage(browser);
      await page.setViewportSize({ width: 1280, height: 800 });
      await page.goto(sim.base + '/graph');
      await page.locator('g[data-node-id]').first().waitFor({ timeout: 30000 });
      await page.waitForFunction(() => performance.getEntriesByName('fluxlens:graph-laid-out').length > 0, null, { timeout: 30000 });
      await frames(page);
      const m = await measure(page);
      assert.ok(m.count >= 1 && m.count <= 80, `${name}: ${m.count} boxes on screen`);
      assert.ok(m.minBox >= 20, `${name}: a box is ${m.minBox} px tall`);
      assert.ok(m.minLabel >= 11, `${name}: a label is ${m.minLabel} px tall`);
    } finally { await cleanup(browser, sim); }
  });
}

test('overview: a namespace expands in place and the overview comes back; keyboard reaches groups', async () => {
  const sim = await startSim(['--scenario', 'demo']);
  try {
    const page = await newPage(browser);
    await page.goto(sim.base + '/graph');
    await page.locator('[data-overview]').waitFor();
    const group = page.locator('g[data-node-id="Namespace//team-payments"]');
    await group.waitFor();
    // The group says how many of its objects have problems, and its kind line agrees.
    const problems = await group.getAttribute('data-problems');
    assert.match(problems ?? '', /^\d+$/);
    const line = await group.locator('.fl-node__sub').textContent();
    assert.match(line, Number(problems) > 0 ? new RegExp(`${problems} with problems`) : /all ready|no problems/);
    assert.ok(await page.locator('[data-edge-count]').count() >= 1, 'aggregated edges say how many');
    await group.focus();
    await page.keyboard.press('Enter');
    await page.locator('g[data-node-id="Kustomization/team-payments/team-payments-app-0"]').waitFor();
    assert.match(decodeURIComponent(page.url()), /expand=Namespace\/\/team-payments/);
    await page.getByRole('button', { name: 'Back to the overview' }).click();
    await group.waitFor();
    assert.equal(await page.locator('g[data-node-id="Kustomization/team-payments/team-payments-app-0"]').count(), 0);
  } finally { await cleanup(browser, sim); }
});
