// Produces docs/screenshots/*.png (run: make screenshots): the README's images, light and dark.
import { startSim, launch } from './helpers.mjs';

const ROOT = new URL('..', import.meta.url).pathname;
const browser = await launch();
const DESKTOP = { viewport: { width: 1440, height: 900 } };
const PHONE = { viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true };
// [file, scenario, route, ready selector, colour scheme]: every view on the demo in light, the
// graph's overview and focus mode on the demo and on a real-sized homelab (210 objects), and
// the main views again in dark.
const SHOTS = [
  ['overview', 'demo', '/', '[data-count=objects]', 'light'],
  ['graph', 'demo', '/graph', '[data-overview]', 'light'],
  ['graph-focus', 'demo', '/graph?focus=Kustomization/team-payments/team-payments-app-0&sel=Kustomization/team-payments/team-payments-app-0&expand=Namespace//team-payments', '[data-panel]', 'light'],
  ['signatures', 'demo', '/signatures', '[data-table=sources]', 'light'],
  ['migrations', 'demo', '/migrations', '[data-migration=git-oci]', 'light'],
  ['compliance', 'demo', '/compliance', '[data-table=scorecard]', 'light'],
  ['overview-dark', 'demo', '/', '[data-count=objects]', 'dark'],
  ['graph-focus-dark', 'demo', '/graph?focus=Kustomization/team-payments/team-payments-app-0&sel=Kustomization/team-payments/team-payments-app-0&expand=Namespace//team-payments', '[data-panel]', 'dark'],
  ['signatures-dark', 'demo', '/signatures', '[data-table=sources]', 'dark'],
  ['homelab-graph', 'homelab', '/graph', '[data-overview]', 'light'],
  ['homelab-graph-dark', 'homelab', '/graph', '[data-overview]', 'dark'],
  ['homelab-focus', 'homelab', '/graph?focus=Kustomization/default/atuin&sel=HelmRelease/default/atuin&expand=Namespace//default', '[data-panel]', 'light'],
  // #27: the real-sized homelab on a desktop in light and dark, and on a phone.
  ['homelab-overview', 'homelab', '/', '[data-count=objects]', 'light'],
  ['homelab-overview-dark', 'homelab', '/', '[data-count=objects]', 'dark'],
  ['homelab-signatures', 'homelab', '/signatures', '[data-table=sources]', 'light'],
  ['homelab-phone-graph', 'homelab', '/graph', '[data-node-id]', 'light', PHONE],
  ['homelab-phone-panel', 'homelab', '/graph?sel=Kustomization/flux-system/flux-system', '[data-panel]', 'dark', PHONE],
  ['homelab-phone-overview', 'homelab', '/', '[data-count=objects]', 'light', PHONE],
];
const sims = {};
try {
  for (const [name, scenario, route, ready, colorScheme, device = DESKTOP] of SHOTS) {
    sims[scenario] ??= await startSim(['--scenario', scenario]);
    const context = await browser.newContext({ ...device, colorScheme });
    const page = await context.newPage();
    await page.goto(sims[scenario].base + route);
    await page.locator(ready).first().waitFor();
    await page.waitForTimeout(300);
    await page.screenshot({ path: `${ROOT}docs/screenshots/${name}.png` });
    await context.close();
    console.log(`docs/screenshots/${name}.png`);
  }
} finally {
  for (const sim of Object.values(sims)) sim.stop();
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
