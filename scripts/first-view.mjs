// Which of the main module's functions the overview's first view runs (#51, scripts/cold.py):
// builds the app with its main module whole and named (scripts/build.py --first-view-profile),
// opens the overview on every simulator scenario — a first visit, a second one (the last visit's
// copy first) and the embedded panel — on a few server variants (a tenant, a failing confirming
// read, an older operator, a search cache, a sign-in) and on Slow 4G (its progress while the reads
// run), each in a fresh browser, and lists every function V8 compiled before
// `fluxlens:view-rendered` (a wasm function is compiled when it is first called) by its symbol
// name, in scripts/first-view.txt. `make first-view`; then `make build` cuts by the new list.
import { execFileSync } from 'node:child_process';
import { readdirSync, statSync, writeFileSync } from 'node:fs';
import { startSim, launch } from '../e2e/helpers.mjs';
import { PROFILES } from '../bench/loadlib.mjs';

const ROOT = new URL('..', import.meta.url).pathname;
const DIST = `${ROOT}target/first-view/dist`;
const OUT = `${ROOT}scripts/first-view.txt`;

execFileSync('python3', [`${ROOT}scripts/build.py`, '--first-view-profile', '--dist', DIST], { stdio: 'inherit' });
const main = readdirSync(DIST).find((f) => /^fluxlens-[0-9a-f]+_bg\.wasm$/.test(f));
const names = functionNames(`${DIST}/${main}`);

// Every cluster scenario (the fleet's is a hub: its page is the fleet's chunk, not the overview).
const scenarios = readdirSync(`${ROOT}scenarios`).filter((s) => s !== 'fleet' && statSync(`${ROOT}scenarios/${s}`).isDirectory());
// [simulator flags, path, how]: `warm`, a second visit (the last visit's copy shown first);
// `throttle`, Slow 4G (the first view's progress while the reads are under way).
const visits = [
  ...scenarios.flatMap((s) => [[['--scenario', s], '/', {}], [['--scenario', s], '/', { warm: true }], [['--scenario', s], '/embed/overview', {}]]),
  ...['demo', 'operator-mock', 'broken'].flatMap((s) => [[['--scenario', s], '/', { throttle: true }], [['--scenario', s], '/', { warm: true, throttle: true }]]),
  [['--scenario', 'demo', '--namespaces', 'team-payments,team-ledger'], '/', {}],
  [['--scenario', 'broken', '--confirm-fail'], '/', {}],
  [['--scenario', 'demo', '--operator-version', 'v0.52.0'], '/', {}],
  [['--scenario', 'demo', '--search-cached'], '/', {}],
  [['--scenario', 'demo', '--auth', 'oidc'], '/', {}],
  [['--scenario', 'demo', '--auth', 'anonymous'], '/', { warm: true }],
  [['--synthetic', '1200'], '/', {}],
];

const ready = () => performance.getEntriesByName('fluxlens:view-rendered').length > 0;
const covered = new Set();
for (const [args, path, how] of visits) {
  const sim = await startSim([...args, '--dist', DIST]);
  // Without tier-up, a second visit finds no optimised code the first one left in the browser's
  // cache: every function it runs is compiled, and counted, again.
  const browser = await launch(['--js-flags=--no-wasm-tier-up']);
  try {
    const context = await browser.newContext();
    const url = `${sim.base}${path}?poll=600`;
    if (how.warm) {
      const first = await context.newPage();
      await first.goto(url);
      await first.waitForFunction(() => performance.getEntriesByName('fluxlens:last-visit-kept').length > 0, null, { timeout: 15000 }).catch(() => {});
      await first.close();
    }
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    if (how.throttle) {
      await cdp.send('Network.enable');
      await cdp.send('Network.emulateNetworkConditions', { offline: false, ...PROFILES['Slow 4G'] });
    }
    const events = [];
    cdp.on('Tracing.dataCollected', (e) => events.push(...e.value));
    const done = new Promise((r) => cdp.once('Tracing.tracingComplete', r));
    await cdp.send('Tracing.start', { categories: 'v8.wasm,blink.user_timing', transferMode: 'ReportEvents' });
    await page.goto(url);
    // A view that never shows (a sign-in) still counts what ran until then.
    await page.waitForFunction(ready, null, { timeout: 30000 }).catch(() => {});
    await cdp.send('Tracing.end');
    await done;
    const shown = events.filter((e) => e.name === 'fluxlens:view-rendered').map((e) => e.ts).sort((a, b) => a - b)[0] ?? Infinity;
    const lazy = events.filter((e) => e.name === 'wasm.CompileLazy' && e.ts <= shown).map((e) => e.args.func_index);
    const before = covered.size;
    // An unnamed function (its index for a name) always stays (scripts/cold.py `kept`).
    for (const i of lazy) if (names.has(i) && !/^\d+$/.test(names.get(i))) covered.add(names.get(i));
    const said = [how.warm && 'second visit', how.throttle && 'Slow 4G'].filter(Boolean).join(', ');
    console.log(`first-view: ${args.join(' ')} ${path}${said ? ` (${said})` : ''}: ${lazy.length} functions run, ${covered.size - before} new`);
  } finally {
    sim.stop();
    await browser.close();
  }
}
const header = '# The main module\'s functions the overview\'s first view runs (scripts/first-view.mjs, make first-view):\n# kept in the main module by scripts/cold.py; every other one moves to the cold module.\n';
writeFileSync(OUT, header + [...covered].sort().join('\n') + '\n');
console.log(`first-view: ${covered.size} names written to scripts/first-view.txt`);

/** Function index → name, as scripts/cold.py reads the module and matches the list. */
function functionNames(wasm) {
  const code = `import sys, json; sys.path.insert(0, "${ROOT}scripts"); import cold
print(json.dumps({i: cold.exact(n) for i, n in cold.function_names(sys.argv[1]).items()}))`;
  const out = execFileSync('python3', ['-c', code, wasm], { maxBuffer: 64 << 20 });
  return new Map(Object.entries(JSON.parse(out.toString())).map(([i, n]) => [Number(i), n]));
}
