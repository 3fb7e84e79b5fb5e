// The load bench's own arithmetic (bench/loadlib.mjs), tested without a browser.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { criticalPath, pathLine, shareOf } from './loadlib.mjs';

test('the critical path walks back from the complete view through what each point waited on', () => {
  const requests = [
    { what: 'GET /', start: 0, end: 180 },
    { what: 'GET /app.wasm', start: 190, end: 800 },
    { what: 'GET /api/v1/report', start: 200, end: 400 },
  ];
  assert.equal(pathLine(criticalPath(requests, 870)), 'GET / 0–180 → main thread 180–190 → GET /app.wasm 190–800 → main thread 800–870');
});

test('a request served at once (from a cache, started when it ended) does not stop the walk', () => {
  // It hung the bench before: the walk stood still at a request that started at its own end.
  const requests = [
    { what: 'GET /', start: 0, end: 100 },
    { what: 'GET /app.wasm', start: 110, end: 500 },
    { what: 'GET /chunk.wasm', start: 500, end: 500 },
  ];
  assert.equal(pathLine(criticalPath(requests, 520)), 'GET / 0–100 → main thread 100–110 → GET /app.wasm 110–500 → main thread 500–520');
});

test('a whole visit is accounted by what each request is: the page, scripts, the main module, chunks, API reads, fonts', () => {
  const at = (path) => `http://127.0.0.1:8080${path}`;
  assert.equal(shareOf(at('/?poll=600'), 'GET'), 'page');
  assert.equal(shareOf(at('/fluxlens-0123456789abcdef/fluxlens.js'), 'GET'), 'scripts');
  assert.equal(shareOf(at('/fluxlens-0123456789abcdef/fluxlens_bg.wasm'), 'GET'), 'main wasm module');
  assert.equal(shareOf(at('/fluxlens-0123456789abcdef/split_fluxlens_snapshot.wasm'), 'GET'), 'wasm chunks');
  assert.equal(shareOf(at('/api/v1/inventory/objects'), 'POST'), 'API POST inventory/objects');
  assert.equal(shareOf(at('/api/v1/resources?kind=HelmRelease'), 'GET'), 'API GET resources');
  assert.equal(shareOf(at('/fonts/inter.woff2'), 'GET'), 'fonts');
  assert.equal(shareOf(at('/assets/index-rtPrbVIN.css'), 'GET'), 'styles');
  assert.equal(shareOf(at('/favicon.svg'), 'GET'), 'other files');
});
