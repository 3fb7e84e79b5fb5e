// Who can read through this address (#50): the page says so when the operator's web server has
// no sign-in (it reads with its own service account, cluster-wide) or one Anonymous identity
// for everyone, and says nothing when each person signs in (the simulator's --auth, after
// report.go GetReport's userInfo).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startSim, launch } from './helpers.mjs';

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

const ready = (name) => performance.getEntriesByName(name).length > 0;

async function notice(args) {
  const sim = await startSim(args);
  const page = await browser.newPage();
  try {
    await page.goto(sim.base + '/?poll=600');
    await page.waitForFunction(ready, 'fluxlens:data-ready', { timeout: 30000 });
    const n = page.locator('[data-access]');
    if ((await n.count()) === 0) return null;
    return { access: await n.getAttribute('data-access'), text: await n.textContent() };
  } finally {
    await page.close();
    await sim.stop();
  }
}

test('no sign-in: anyone who reaches the address reads the whole cluster, and the page says it', async () => {
  const n = await notice(['--scenario', 'demo', '--auth', 'none']);
  assert.equal(n?.access, 'service-account');
  assert.match(n.text, /own service account, cluster-wide \(\d+ namespaces?\)/);
  assert.match(n.text, /Anyone who can reach this address can read this/);
});

test('Anonymous: the one identity everyone reads as is named', async () => {
  const n = await notice(['--scenario', 'demo', '--auth', 'anonymous']);
  assert.equal(n?.access, 'anonymous');
  assert.match(n.text, /everyone who reaches this address reads as flux-web-viewer/);
});

test('signed in (OIDC): nothing to warn about', async () => {
  assert.equal(await notice(['--scenario', 'multitenant', '--namespaces', 'flux-system,tenant-web']), null);
});
