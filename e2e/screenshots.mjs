// Produces docs/screenshots/*.png: every view on the demo scenario (run: make screenshots).
import { startSim, launch } from './helpers.mjs';

const ROOT = new URL('..', import.meta.url).pathname;
const browser = await launch();
const sim = await startSim(['--scenario', 'demo']);
try {
  for (const [name, route, ready] of [
    ['overview', '/', '[data-count=objects]'],
    ['graph', '/graph?sel=OCIRepository/flux-system/flux-system', '[data-panel]'],
    ['signatures', '/signatures', '[data-table=sources]'],
    ['migrations', '/migrations', '[data-migration=git-oci]'],
    ['compliance', '/compliance', '[data-table=scorecard]'],
  ]) {
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 }, colorScheme: 'light' });
    const page = await context.newPage();
    await page.goto(sim.base + route);
    await page.locator(ready).first().waitFor();
    await page.waitForTimeout(300);
    await page.screenshot({ path: `${ROOT}docs/screenshots/${name}.png` });
    await context.close();
    console.log(`docs/screenshots/${name}.png`);
  }
} finally {
  sim.stop();
  await browser.close();
}
