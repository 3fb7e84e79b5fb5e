import { startSim, launch } from '../e2e/helpers.mjs';
import { readFileSync } from 'node:fs';
const map = Object.fromEntries(readFileSync('/tmp/probe/coldmap.txt','utf8').trim().split('\n').map(l => { const i = l.indexOf(':'); return [Number(l.slice(0,i)), l.slice(i+1)]; }));
const sim = await startSim(['--scenario', process.env.SC||'demo', '--dist', '/tmp/dist-map']);
const browser = await launch();
const seen = {};
for (let i=0;i<Number(process.env.N||10);i++) {
  const context = await browser.newContext();
  const first = await context.newPage();
  await first.goto(sim.base + '/?poll=600');
  await first.waitForFunction(() => performance.getEntriesByName('fluxlens:last-visit-kept').length > 0, null, { timeout: 30000 });
  await first.close();
  const page = await context.newPage();
  await page.goto(sim.base + '/?poll=600');
  await page.waitForFunction(() => performance.getEntriesByName('fluxlens:view-rendered').length > 0, null, { timeout: 30000 });
  const calls = await page.evaluate(() => { const vr = performance.getEntriesByName('fluxlens:view-rendered')[0].startTime; return (window.__coldCalls||[]).filter(([i,t]) => t <= vr).map(([i]) => i); });
  console.log(i, calls.map(c => map[c] || c).join(' | '));
  await context.close();
}
await browser.close(); sim.stop();
