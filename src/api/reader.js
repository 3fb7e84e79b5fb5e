// The API client's reader (#23): the same file is imported by the app (for `startReader`) and
// run as a module worker, where it sends the app's read-only requests and reads the answers off
// the main thread. An answer equal to the last answer to the same keyed request (its URL and
// body) is not sent back at all: only `same` is, when the app still holds that answer. At 5,000 objects that moves ~14 ms a poll (reading the 766 KB default
// list as text, on the browser's side) off the page's thread.
//
// Requests are checked against the read-only allowlist in Rust (`src/api/mod.rs`) before they
// are posted here; this file sends only what it is given.

// Keyed answers kept, at most (a rolling batch of 100 objects is one key; 5,000 objects are 50).
const KEPT = 256;

/** Starts the worker from this module's own URL (same origin, any public URL). */
export function startReader() {
  return new Worker(new URL(import.meta.url), { type: 'module' });
}

const inWorker = typeof WorkerGlobalScope !== 'undefined' && globalThis instanceof WorkerGlobalScope;

if (inWorker) {
  // Last answer text per keyed request: what "same" is judged against.
  const last = new Map();
  globalThis.onmessage = async (event) => {
    const { id, url, method, body, key, known, timeoutMs } = event.data;
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), timeoutMs);
    const headers = { Accept: 'application/json' };
    if (body != null) headers['Content-Type'] = 'application/json';
    try {
      const resp = await fetch(url, { method, body, headers, credentials: 'same-origin', signal: controller.signal });
      const text = await resp.text();
      const answer = { id, status: resp.status, contentType: resp.headers.get('content-type') || '' };
      const ok = resp.status >= 200 && resp.status < 300;
      if (known && ok && last.get(key) === text) {
        answer.same = true;
      } else {
        last.delete(key);
        // An empty key: a read not to keep (reader.rs `Read::key`).
        if (ok && key) last.set(key, text);
        // The oldest key goes first (a Map keeps insertion order).
        if (last.size > KEPT) last.delete(last.keys().next().value);
        answer.text = text;
      }
      postMessage(answer);
    } catch (e) {
      postMessage({ id, timeout: controller.signal.aborted, error: String((e && e.message) || e) });
    } finally {
      clearTimeout(timer);
    }
  };
}
