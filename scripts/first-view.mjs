// Which of the main module's functions the overview's first view runs (#51, scripts/cold.py):
// builds the app with its main module whole and named (scripts/build.py --first-view-profile),
// opens the overview on every simulator scenario — a first visit, a second one (the last visit's
// copy first) and the embedded panel — on a few server variants (a tenant, a failing confirming
// read, an older operator, a search cache, a sign-in), with the objects' answer late (the
// rehearsal run whole) and on Slow 4G (its progress while the reads run), each in a fresh
// browser, and lists every function V8 compiled before `fluxlens:view-rendered` (a wasm
// function is compiled when it is first called); the main module's functions none of them ran
// are listed by their symbol names in scripts/cold-functions.txt, what scripts/cold.py moves out.
// `make first-view`; then `make build` cuts by the new list.
//
// It also lists the fonts those views and the other routes draw text in (family, size, weight,
// style, numeric variant) and the characters beyond ASCII they use, in
// scripts/first-view-fonts.json: scripts/build.py writes a hidden line in each into the page, so
// the browser loads and shapes them while it waits on the network, not in the view's first
// layout (the demo's took 8.9 ms, 2.9 ms with the fonts ready).
import { execFileSync } from 'node:child_process';
import { readdirSync, statSync, writeFileSync } from 'node:fs';
import { startSim, launch, fontsDrawn } from '../e2e/helpers.mjs';
import { PROFILES } from '../bench/loadlib.mjs';

const ROOT = new URL('..', import.meta.url).pathname;
const DIST = `${ROOT}target/first-view/dist`;
const OUT = `${ROOT}scripts/cold-functions.txt`;
const FONTS_OUT = `${ROOT}scripts/first-view-fonts.json`;
// Routes whose first view only adds fonts (their functions are in chunks, not the main module).
const FONT_ROUTES = ['/graph', '/signatures', '/migrations', '/compliance', '/changes'];
const fonts = new Map();
const chars = new Set();

execFileSync('python3', [`${ROOT}scripts/build.py`, '--first-view-profile', '--dist', DIST], { stdio: 'inherit' });
const main = readdirSync(DIST).find((f) => /^fluxlens-[0-9a-f]+_bg\.wasm$/.test(f));
const { names, sizes } = functionNames(`${DIST}/${main}`);

// Every cluster scenario (the fleet's is a hub: its page is the fleet's chunk, not the overview).
const scenarios = readdirSync(`${ROOT}scenarios`).filter((s) => s !== 'fleet' && statSync(`${ROOT}scenarios/${s}`).isDirectory());
// [simulator flags, path, how]: `warm`, a second visit (the last visit's copy shown first);
// `throttle`, Slow 4G (the first view's progress while the reads are under way); `late`, one side
// of a second visit's race held 1.5 s: `live`, the live reads (the last visit's copy on screen
// first, then replaced), `copy`, the snapshot codec's module (the live rows in before the copy is
// decoded). Left to chance, one order ran cold code before the view in 1 of 4 runs of
// e2e/split.test.mjs: an unhurried visit takes whichever order the machine gives it.
const visits = [
  ...scenarios.flatMap((s) => [[['--scenario', s], '/', {}], [['--scenario', s], '/', { warm: true }], [['--scenario', s], '/embed/overview', {}]]),
  // `held`: a first visit whose object batches answer 1.5 s late, so that its rehearsal runs
  // whole (src/api/loader.rs `rehearse`: the load, then the overview built once, detached);
  // elsewhere the batches answer before the app starts, or on Slow 4G before its page has come.
  ...['demo', 'operator-mock', 'broken'].map((s) => [['--scenario', s], '/', { held: true }]),
  ...['demo', 'operator-mock', 'broken'].flatMap((s) => [[['--scenario', s], '/', { throttle: true }], [['--scenario', s], '/', { warm: true, throttle: true }], [['--scenario', s], '/', { warm: true, late: 'live' }], [['--scenario', s], '/', { warm: true, late: 'copy' }]]),
  [['--scenario', 'demo', '--namespaces', 'team-payments,team-ledger'], '/', {}],
  [['--scenario', 'broken', '--confirm-fail'], '/', {}],
  [['--scenario', 'demo', '--operator-version', 'v0.52.0'], '/', {}],
  [['--scenario', 'demo', '--search-cached'], '/', {}],
  [['--scenario', 'demo', '--auth', 'oidc'], '/', {}],
  [['--scenario', 'demo', '--auth', 'anonymous'], '/', { warm: true }],
  [['--synthetic', '1200'], '/', {}],
];

// Until the view is on screen and the first live read is in: on a second visit the live read
// races the last visit's copy to the screen, and whichever comes first, the other's code must not
// wait for the cold module (a race the profile once lost: the Helm storage read's decode).
// A first visit counts until its first load has settled too: the CRDs' read follows the view
// (#51), and its answer is drawn right after it, before the cold module may have come.
const ready = () => performance.getEntriesByName('fluxlens:view-rendered').length > 0
  && performance.getEntriesByName('fluxlens:data-ready').length > 0
  && performance.getEntriesByName('fluxlens:load-settled').length > 0;
const covered = new Set();
// Every visit twice (PASSES): which functions a first view runs depends a little on timing (what
// answered before the wasm started, a confirming read's turn), and one pass has missed functions
// the next one ran; a function missed here is moved and, when called, fetched synchronously.
const PASSES = Number(process.env.PASSES || 2);
// How long after a second visit's live data the count goes on (ms): its redraw of the copy.
const SETTLE_MS = 500;
// How long after a first visit's settled load the count goes on (ms): the redraw it causes.
const SETTLED_DRAW_MS = 100;
for (const [args, path, how] of Array.from({ length: PASSES }, () => visits).flat()) {
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
      if (how.late === 'live') await sim.faults('latency-ms=1500');
    }
    const page = await context.newPage();
    if (how.held) {
      await page.route(/\/api\/v1\/inventory\/objects$/, (r) => setTimeout(() => r.continue(), 1500));
    }
    if (how.late === 'copy') {
      await page.route(/split_fluxlens_snapshot-[0-9a-f]+\.wasm$/, (r) => setTimeout(() => r.continue(), 1500));
    }
    const cdp = await context.newCDPSession(page);
    if (how.throttle) {
      await cdp.send('Network.enable');
      await cdp.send('Network.emulateNetworkConditions', { offline: false, ...PROFILES['Slow 4G'] });
    }
    const events = [];
    cdp.on('Tracing.dataCollected', (e) => events.push(...e.value));
    const done = new Promise((r) => cdp.once('Tracing.tracingComplete', r));
    await cdp.send('Tracing.start', { categories: 'v8.wasm,disabled-by-default-v8.wasm.detailed,blink.user_timing', transferMode: 'ReportEvents' });
    await page.goto(url);
    // A view that never shows (a sign-in) still counts what ran until then.
    await page.waitForFunction(ready, null, { timeout: 30000 }).catch(() => {});
    // A second visit: until the live data has replaced the copy on screen too (comparing the two,
    // redrawing what differs). Which lands first is a race; where the live read wins by a frame,
    // that work comes before the view is marked, so it counts as the first view's.
    await page.waitForTimeout(how.warm ? SETTLE_MS : SETTLED_DRAW_MS + 50);
    await cdp.send('Tracing.end');
    await done;
    const earliest = (name) => events.filter((e) => e.name === name).map((e) => e.ts).sort((a, b) => a - b)[0];
    const view = earliest('fluxlens:view-rendered') ?? Infinity;
    // The settled load's redraw comes in the frame after its mark.
    const settled = (earliest('fluxlens:load-settled') ?? view) + SETTLED_DRAW_MS * 1000;
    const live = Math.max(view, earliest('fluxlens:data-ready') ?? view, settled);
    const shown = how.warm ? live + SETTLE_MS * 1000 : live;
    await collectFonts(page);
    const lazy = mainModuleCompiles(events, shown, sizes);
    const before = covered.size;
    for (const i of lazy) if (names.has(i)) covered.add(names.get(i));
    const said = [how.warm && 'second visit', how.throttle && 'Slow 4G', how.held && 'the objects late', how.late && `the ${how.late === 'live' ? 'live reads' : 'copy'} late`].filter(Boolean).join(', ');
    console.log(`first-view: ${args.join(' ')} ${path}${said ? ` (${said})` : ''}: ${lazy.length} functions run, ${covered.size - before} new`);
  } finally {
    sim.stop();
    await browser.close();
  }
}
await fontsOfOtherRoutes();
writeFileSync(FONTS_OUT, JSON.stringify({
  about: 'The fonts the first views draw text in and their characters beyond ASCII (scripts/first-view.mjs); scripts/build.py lays out a hidden line in each before the app starts.',
  chars: [...chars].sort().join(''),
  fonts: [...fonts.values()].sort((a, b) => a.font.localeCompare(b.font) || a.numeric.localeCompare(b.numeric)),
}, null, 1) + '\n');
console.log(`first-view: ${fonts.size} fonts, ${chars.size} characters beyond ASCII: written to scripts/first-view-fonts.json`);
const cold = [...new Set(names.values())].filter((n) => !covered.has(n)).sort();
const header = '# The main module\'s functions no overview\'s first view ran (scripts/first-view.mjs, make first-view):\n# scripts/cold.py moves them to the cold module; every function not named here stays.\n';
writeFileSync(OUT, header + cold.join('\n') + '\n');
console.log(`first-view: ${covered.size} names ran, ${cold.length} did not: written to scripts/cold-functions.txt`);

/** The main module's functions V8 compiled before `shown` (µs), by index. A chunk's function
 * (the snapshot codec's, on a second visit) is traced by its index in its own module, which a
 * main-module function also has: a compile whose body size is not that main-module function's is
 * the chunk's and is not counted. */
function mainModuleCompiles(events, shown, sizes) {
  const baseline = events.filter((e) => e.name === 'wasm.CompileBaseline');
  return events.filter((e) => e.name === 'wasm.CompileLazy' && e.ts <= shown).filter((lazy) => {
    const index = lazy.args.func_index;
    const inside = baseline.find((b) => b.args.funcIndex === index && b.ts >= lazy.ts && b.ts <= lazy.ts + (lazy.dur || 0));
    // Without its baseline compile (another tier did it) the size is not known: counted.
    return !inside || inside.args.bodySize === sizes.get(index);
  }).map((lazy) => lazy.args.func_index);
}

/** Function index → name of the main module's own functions (not its imports), as scripts/cold.py
 * reads the module and matches the list (only those it can name from one build to the next:
 * `matchable`; the others always stay), and
 * index → the size of its body in bytes (as V8's trace gives it). */
function functionNames(wasm) {
  const code = `import sys, json; sys.path.insert(0, "${ROOT}scripts"); import cold, wasmbin
wasm = open(sys.argv[1], "rb").read()
first = wasmbin.imported_functions(wasm)
print(json.dumps({"names": {i: cold.exact(n) for i, n in cold.function_names(sys.argv[1]).items() if i >= first and cold.matchable(n)},
                  "sizes": wasmbin.body_sizes(wasm)}))`;
  const out = JSON.parse(execFileSync('python3', ['-c', code, wasm], { maxBuffer: 64 << 20 }).toString());
  const map = (o) => new Map(Object.entries(o).map(([i, v]) => [Number(i), v]));
  return { names: map(out.names), sizes: map(out.sizes) };
}

/** Adds the fonts and non-ASCII characters of the text on `page` to `fonts` and `chars`. */
async function collectFonts(page) {
  const found = await fontsDrawn(page).catch(() => []);
  for (const { font, numeric, text } of found) {
    fonts.set(`${font}|${numeric}`, { font, numeric });
    for (const ch of text) if (ch.codePointAt(0) > 126) chars.add(ch);
  }
}

/** The fonts of every other route's first view on the demo scenario, one fresh page each. */
async function fontsOfOtherRoutes() {
  const sim = await startSim(['--scenario', 'demo', '--dist', DIST]);
  const browser = await launch();
  try {
    for (const path of FONT_ROUTES) {
      const page = await (await browser.newContext()).newPage();
      await page.goto(`${sim.base}${path}?poll=600`);
      await page.waitForFunction(() => performance.getEntriesByName('fluxlens:view-rendered').length > 0, null, { timeout: 30000 }).catch(() => {});
      await collectFonts(page);
      await page.context().close();
    }
  } finally {
    sim.stop();
    await browser.close();
  }
}
