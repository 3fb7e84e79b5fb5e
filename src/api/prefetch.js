// The first load's API reads, started before the wasm (#15, #28); index.html inlines this file.
// The app takes what it would ask for (src/api/mod.rs: a GET by its path and query, an object
// batch item by item through fluxlens_core::load::prefetched), so nothing here decides what the
// page shows: a read the app does not take is wasted, never wrong.
//
// Cold, the reads follow each other as the answers come: the report and the default list; then
// the lists by kind the report names; and the objects as soon as their rows are in: the default
// list's objects and the FluxInstance's events once the report and that list have answered, the
// objects of the lists by kind once those have. Not the CRDs: their schemas make them the
// largest read of all on a real cluster, and the app reads them once its first view is shown. A second visit also sends at once what the last one read
// (remembered per API base in localStorage: kinds, names and paths, never an answer), so its
// whole read is one round trip; the rows then add only what is new.
(function () {
  // The one object the page's scripts and the app share (src/api/page_script.rs says each member).
  var gets = {};
  var batches = [];
  var page = window.fluxlensPage = {
    mounted: false,
    take: function (key) { var a = gets[key]; delete gets[key]; return a; },
    takeBatches: function () { var b = batches; batches = []; return b; }
  };
  // The API base as src/api/mod.rs `base_path` reads it: the meta tag, else a fleet cluster's
  // own path (/clusters/<name>/…). The fleet page itself reads the hub, not one cluster.
  if (location.pathname.replace(/\/$/, '') === '/fleet') return;
  var meta = document.querySelector('meta[name=fluxlens-api-base]');
  var fleet = /^\/clusters\/([a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?)(\/|$)/.exec(location.pathname);
  var base = meta ? (meta.getAttribute('content') || '').replace(/\/$/, '') : (fleet ? '/clusters/' + fleet[1] : '');
  // No API contact for a snapshot link.
  if (location.hash.indexOf('#snap=') === 0) return;

  // Generated from fluxlens_core::load::script_constants (make generate; a core test fails when
  // this line is stale): the kinds the default list holds (with FluxInstance and FluxReport),
  // the batch size, batches in flight and deadline the app keeps, and the operator version from
  // which the default list holds every kind.
  var CORE = {"batchSize":500,"everyKindSince":[0,53,0],"inFlight":2,"listed":["ResourceSet","Kustomization","HelmRelease","GitRepository","OCIRepository","HelmChart","HelmRepository","Bucket","ArtifactGenerator","ResourceSetInputProvider","FluxInstance","FluxReport"],"timeoutMs":30000};
  var LISTED = CORE.listed, BATCH_SIZE = CORE.batchSize, IN_FLIGHT = CORE.inFlight, TIMEOUT_MS = CORE.timeoutMs;
  var EVERY_KIND_SINCE = CORE.everyKindSince;
  var OBJECTS = '/api/v1/inventory/objects';
  // What is remembered for the next visit, at most (a ref is ~100 bytes).
  var REMEMBERED_ITEMS = 4000;
  var STORE = 'fluxlens:reads:' + (base || '/');

  var send = function (path, body) {
    var init = { credentials: 'same-origin', headers: { Accept: 'application/json' } };
    if (body !== undefined) {
      init.method = 'POST';
      init.body = body;
      init.headers['Content-Type'] = 'application/json';
    }
    // The app's deadline: a read that takes longer is given up (the app then asks itself).
    var ctl = typeof AbortController === 'function' ? new AbortController() : null;
    var timer = ctl ? setTimeout(function () { ctl.abort(); }, TIMEOUT_MS) : 0;
    if (ctl) init.signal = ctl.signal;
    // Each answer is read whole here (its status, content type and text), so the app takes it
    // without waiting a turn of the event loop for the body (src/api/mod.rs `adopt`).
    var answer = fetch(base + path, init).then(function (r) {
      return r.text().then(function (body) {
        return { status: r.status, contentType: r.headers.get('content-type') || '', text: body };
      });
    });
    answer.then(function () { clearTimeout(timer); }, function () { clearTimeout(timer); });
    return answer;
  };
  // Object batches go IN_FLIGHT at a time, as the app sends them: the server writes each answer
  // within its write timeout, and a second visit's replay of thousands of objects at once would
  // hold every connection.
  var active = 0;
  var waiting = [];
  var inTurn = function (start) {
    return new Promise(function (resolve, reject) {
      var go = function () {
        active++;
        start().then(resolve, reject).then(done, done);
      };
      if (active < IN_FLIGHT) go(); else waiting.push(go);
    });
  };
  var done = function () {
    active--;
    var next = waiting.shift();
    if (next) next();
  };
  var json = function (answer) {
    return answer.then(function (a) {
      return a.status >= 200 && a.status < 300 && a.contentType.indexOf('json') >= 0 ? JSON.parse(a.text) : null;
    }).catch(function () { return null; });
  };
  var text = function (v) { return typeof v === 'string' ? v : ''; };
  var refKey = function (r) { return [r.apiVersion, r.kind, r.namespace || '', r.name].join('\u0000'); };

  // GETs by path and query, taken once by the app; object batches as { body, response }.
  var sent = {};
  var asked = {};
  var get = function (path) {
    if (!sent[path]) {
      sent[path] = send(path);
      gets[path] = sent[path];
    }
    return sent[path];
  };
  var batch = function (objects) {
    var body = JSON.stringify({ objects: objects, statusOnly: false });
    if (sent[body]) return;
    sent[body] = true;
    objects.forEach(function (r) { asked[refKey(r)] = true; });
    batches.push({ body: body, response: inTurn(function () { return send(OBJECTS, body); }) });
  };
  var ref = function (apiVersion, kind, namespace, name) {
    var r = { apiVersion: apiVersion, kind: kind };
    if (namespace) r.namespace = namespace;
    r.name = name;
    return r;
  };

  var remember = { v: 1, gets: [], posts: [] };
  var reported = json(get('/api/v1/report'));
  var listed = json(get('/api/v1/resources'));
  page.reported = reported;

  // A second visit: what the last one read, at once, in the app's batches
  // (checked: only these endpoints, only well-formed refs).
  var last = null;
  try { last = JSON.parse(localStorage.getItem(STORE) || 'null'); } catch (e) { last = null; }
  if (last && last.v === 1) {
    (Array.isArray(last.gets) ? last.gets : []).forEach(function (p) {
      if (typeof p === 'string' && /^\/api\/v1\/(resources|events)\?/.test(p)) get(p);
    });
    var replay = [];
    (Array.isArray(last.posts) ? last.posts : []).forEach(function (objects) {
      if (!Array.isArray(objects)) return;
      objects.forEach(function (r) {
        if (r && typeof r.kind === 'string' && typeof r.name === 'string' && typeof r.apiVersion === 'string') replay.push(ref(r.apiVersion, r.kind, text(r.namespace), r.name));
      });
    });
    for (var n = 0; n < replay.length; n += BATCH_SIZE) batch(replay.slice(n, n + BATCH_SIZE));
  }
  // The app waits for `kinds` before it takes a list by kind, and for `reads` before it takes
  // the object batches or the events (so it never asks for what is on its way).
  var byKind = reported.then(function (report) {
    var reconcilers = (report && report.spec && Array.isArray(report.spec.reconcilers)) ? report.spec.reconcilers : [];
    var every = listsEveryKind(report);
    var lists = [];
    reconcilers.forEach(function (r) {
      var s = (r && r.stats) || {};
      if (!r || typeof r.kind !== 'string') return;
      if (every || LISTED.indexOf(r.kind) >= 0 || (s.running || 0) + (s.suspended || 0) <= 0) return;
      var path = '/api/v1/resources?kind=' + encodeURIComponent(r.kind);
      remember.gets.push(path);
      lists.push(json(get(path)));
    });
    return { report: report, reconcilers: reconcilers, lists: lists };
  });
  page.kinds = byKind;
  // Each batch goes as soon as what names its objects is in, not when every list is (#28): the
  // default list's objects and the instance's events once the report and that list have come; the objects of the lists by kind once those have. Over HTTP/1.1 the page has six
  // connections and the wasm holds one: the lists by kind, sent first, are on the longest
  // chain (report, lists, their objects), and what is sent after them waits for a connection
  // only as long as they take.
  var wanted = [];
  var seen = {};
  var first = byKind.then(function (k) {
    return listed.then(function (list) {
      if (!k.report) return;
      var rows = rowsOf(k.reconcilers, list ? [list] : []);
      sendBatch(rows.refs);
      events(rows.instance);
    });
  });
  var second = byKind.then(function (k) {
    return Promise.all(k.lists).then(function (answers) {
      return first.then(function () {
        if (!k.report) return;
        var rows = rowsOf(k.reconcilers, answers);
        sendBatch(rows.refs);
        events(rows.instance);
      });
    });
  });
  page.reads = Promise.all([first, second]).then(function () {
    if (wanted.length <= REMEMBERED_ITEMS) {
      for (var j = 0; j < wanted.length; j += BATCH_SIZE) remember.posts.push(wanted.slice(j, j + BATCH_SIZE));
    }
    try { localStorage.setItem(STORE, JSON.stringify(remember)); } catch (e) { /* storage full or refused: no second-visit head start */ }
  }).catch(function () {});

  // Whether the report's operator lists every kind by default (`default_list_has_every_kind`;
  // a version that does not parse is taken as today's).
  function listsEveryKind(report) {
    var v = report && report.spec && report.spec.operator && report.spec.operator.version;
    var m = /^v?(\d+)\.(\d+)\.(\d+)/.exec(typeof v === 'string' ? v.trim() : '');
    if (!m) return true;
    for (var i = 0; i < 3; i++) {
      var d = Number(m[i + 1]) - EVERY_KIND_SINCE[i];
      if (d !== 0) return d > 0;
    }
    return true;
  }

  // The rows' objects at the API version the report names (`api_version_for`; a kind it does not
  // name is left to the app), each once, and the first FluxInstance among them.
  function rowsOf(reconcilers, answers) {
    var versions = {};
    reconcilers.forEach(function (r) {
      if (r && typeof r.kind === 'string' && typeof r.apiVersion === 'string' && r.apiVersion) versions[r.kind] = r.apiVersion;
    });
    var out = { refs: [], instance: null };
    answers.forEach(function (a) {
      (a && Array.isArray(a.resources) ? a.resources : []).forEach(function (s) {
        if (!s || typeof s.kind !== 'string' || !s.kind || typeof s.name !== 'string' || !s.name) return;
        if (s.kind === 'FluxInstance' && !out.instance) out.instance = s;
        if (!versions[s.kind]) return;
        var r = ref(versions[s.kind], s.kind, text(s.namespace), s.name);
        if (seen[refKey(r)]) return;
        seen[refKey(r)] = true;
        wanted.push(r);
        out.refs.push(r);
      });
    });
    return out;
  }
  // What was not sent already, in batches of BATCH_SIZE.
  function sendBatch(refs) {
    var fresh = refs.filter(function (r) { return !asked[refKey(r)]; });
    for (var i = 0; i < fresh.length; i += BATCH_SIZE) batch(fresh.slice(i, i + BATCH_SIZE));
  }

  // The instance's events, once.
  var eventsSent = false;
  function events(instance) {
    if (eventsSent || !instance || !text(instance.namespace)) return;
    eventsSent = true;
    var q = new URLSearchParams();
    q.append('kind', 'FluxInstance');
    q.append('name', instance.name);
    q.append('namespace', instance.namespace);
    var path = '/api/v1/events?' + q.toString();
    remember.gets.push(path);
    get(path);
  }
})();
