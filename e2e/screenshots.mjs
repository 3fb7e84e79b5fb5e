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

// The launcher plugin on the operator's resource page, behind the deploy kit's sub-path config.
{
  const { execFileSync } = await import('node:child_process');
  const { freePort, startNginx } = await import('./helpers.mjs');
  const browser2 = await launch();
  const sim2 = await startSim(['--scenario', 'demo', '--ui-stand-in']);
  const port = await freePort();
  const site = execFileSync('python3', [`${ROOT}deploy/render.py`, '--subpath', '--dist', `${ROOT}dist-fluxlens`, '--api', sim2.base, '--ui', sim2.base, '--listen', `127.0.0.1:${port}`, '--brotli']).toString();
  const nginx = await startNginx(site, port);
  try {
    const context = await browser2.newContext({ viewport: { width: 1440, height: 900 }, colorScheme: 'light' });
    const page = await context.newPage();
    await page.goto(`http://127.0.0.1:${port}/resource/OCIRepository/flux-system/flux-system`);
    await page.locator('#fluxlens-launcher').click();
    await page.frameLocator('#fluxlens-panel iframe').locator('[data-panel] [data-posture]').waitFor({ timeout: 20000 });
    await page.waitForTimeout(300);
    await page.screenshot({ path: `${ROOT}docs/screenshots/plugin-resource.png` });
    console.log('docs/screenshots/plugin-resource.png');
    await context.close();
  } finally {
    nginx.kill();
    sim2.stop();
    await browser2.close();
  }
}
