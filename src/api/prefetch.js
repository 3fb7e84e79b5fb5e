// The first load's API reads, started before the wasm (#15, #28); index.html inlines this file.
// The app takes what it would ask for (src/api/mod.rs: a GET by its path and query, an object
// batch item by item through fluxlens_core::load::prefetched), so nothing here decides what the
// page shows: a read the app does not take is wasted, never wrong.
//
// Cold, the reads follow each other as the answers come: the report and the default list; then
// the lists by kind and the CRDs the report names; then, from the rows, the objects in batches
// and the FluxInstance's events. A second visit also sends at once what the last one read
// (remembered per API base in localStorage: kinds, names and paths, never an answer), so its
// whole read is one round trip; the rows then add only what is new.
(function () {
  // The API base as src/api/mod.rs `base_path` reads it: the meta tag, else a fleet cluster's
  // own path (/clusters/<name>/…). The fleet page itself reads the hub, not one cluster.
  if (location.pathname.replace(/\/$/, '') === '/fleet') return;
  var meta = document.querySelector('meta[name=fluxlens-api-base]');
  var fleet = /^\/clusters\/([a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?)(\/|$)/.exec(location.pathname);
  var base = meta ? (meta.getAttribute('content') || '').replace(/\/$/, '') : (fleet ? '/clusters/' + fleet[1] : '');
  // No API contact for a snapshot link; `__fluxlensNoPrefetch` lets the load benchmark
  // measure the page without this lever.
  if (location.hash.indexOf('#snap=') === 0 || window.__fluxlensNoPrefetch) return;
  // The benchmark also measures the levers one by one: `__fluxlensPrefetchUpTo` = 'lists' (the
  // report and the lists only, as #15 and the first step of #28 shipped) or 'reads' (every read,
  // nothing remembered); unset, everything.
  var upTo = window.__fluxlensPrefetchUpTo;
  var objectsToo = upTo !== 'lists';
  var memory = !upTo;

  // fluxlens_core::load: LISTED_BY_DEFAULT with FluxInstance and FluxReport (what
  // `kinds_listed_alone` leaves out), BATCH_SIZE, the server's MAX_BATCH (api::inventory) and each
  // kind's `crd_name` (pinned by core tests).
  var LISTED = ['ResourceSet', 'Kustomization', 'HelmRelease', 'GitRepository', 'OCIRepository', 'HelmChart', 'HelmRepository', 'Bucket', 'ArtifactGenerator', 'ResourceSetInputProvider', 'FluxInstance', 'FluxReport'];
  var BATCH_SIZE = 500;
  var MAX_BATCH = 2000;
  var CRDS = {
    FluxInstance: 'fluxinstances.fluxcd.controlplane.io', FluxReport: 'fluxreports.fluxcd.controlplane.io',
    ResourceSet: 'resourcesets.fluxcd.controlplane.io', ResourceSetInputProvider: 'resourcesetinputproviders.fluxcd.controlplane.io',
    Kustomization: 'kustomizations.kustomize.toolkit.fluxcd.io', HelmRelease: 'helmreleases.helm.toolkit.fluxcd.io',
    GitRepository: 'gitrepositories.source.toolkit.fluxcd.io', OCIRepository: 'ocirepositories.source.toolkit.fluxcd.io',
    Bucket: 'buckets.source.toolkit.fluxcd.io', HelmRepository: 'helmrepositories.source.toolkit.fluxcd.io',
    HelmChart: 'helmcharts.source.toolkit.fluxcd.io', ExternalArtifact: 'externalartifacts.source.toolkit.fluxcd.io',
    ArtifactGenerator: 'artifactgenerators.source.extensions.fluxcd.io', Alert: 'alerts.notification.toolkit.fluxcd.io',
    Provider: 'providers.notification.toolkit.fluxcd.io', Receiver: 'receivers.notification.toolkit.fluxcd.io',
    ImageRepository: 'imagerepositories.image.toolkit.fluxcd.io', ImagePolicy: 'imagepolicies.image.toolkit.fluxcd.io',
    ImageUpdateAutomation: 'imageupdateautomations.image.toolkit.fluxcd.io'
  };
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
    // Each answer is read whole here (its status, content type and text), so the app takes it
    // without waiting a turn of the event loop for the body (src/api/mod.rs `adopt`).
    return fetch(base + path, init).then(function (r) {
      return r.text().then(function (body) {
        return { status: r.status, contentType: r.headers.get('content-type') || '', text: body };
      });
    });
  };
  var json = function (answer) {
    return answer.then(function (a) {
      return a.status >= 200 && a.status < 300 && a.contentType.indexOf('json') >= 0 ? JSON.parse(a.text) : null;
    }).catch(function () { return null; });
  };
  var text = function (v) { return typeof v === 'string' ? v : ''; };
  var refKey = function (r) { return [r.apiVersion, r.kind, r.namespace || '', r.name].join('\u0000'); };

  // GETs by path and query, taken once by the app; object batches as { body, response }.
  var pre = window.__fluxlensPrefetch = { batches: [] };
  var sent = {};
  var asked = {};
  var get = function (path) {
    if (!sent[path]) {
      sent[path] = send(path);
      pre[path] = sent[path];
    }
    return sent[path];
  };
  var batch = function (objects) {
    var body = JSON.stringify({ objects: objects, statusOnly: false });
    if (sent[body]) return;
    sent[body] = true;
    objects.forEach(function (r) { asked[refKey(r)] = true; });
    pre.batches.push({ body: body, response: send(OBJECTS, body) });
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
  pre.reported = reported;

  // A second visit: what the last one read, at once, its batches as large as the server takes
  // (checked: only these endpoints, only well-formed refs).
  var last = null;
  try { last = JSON.parse(localStorage.getItem(STORE) || 'null'); } catch (e) { last = null; }
  if (memory && last && last.v === 1) {
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
    for (var n = 0; n < replay.length; n += MAX_BATCH) batch(replay.slice(n, n + MAX_BATCH));
  }
  // The app waits for `kinds` before it takes a list by kind, and for `reads` before it takes
  // the object batches or the events (so it never asks for what is on its way).
  var byKind = reported.then(function (report) {
    var reconcilers = (report && report.spec && Array.isArray(report.spec.reconcilers)) ? report.spec.reconcilers : [];
    var lists = [];
    var crds = [];
    reconcilers.forEach(function (r) {
      var s = (r && r.stats) || {};
      if (!r || typeof r.kind !== 'string') return;
      if (CRDS[r.kind]) crds.push(ref('apiextensions.k8s.io/v1', 'CustomResourceDefinition', '', CRDS[r.kind]));
      if (LISTED.indexOf(r.kind) >= 0 || (s.running || 0) + (s.suspended || 0) <= 0) return;
      var path = '/api/v1/resources?kind=' + encodeURIComponent(r.kind);
      remember.gets.push(path);
      lists.push(json(get(path)));
    });
    if (objectsToo && crds.length) {
      var fresh = crds.filter(function (r) { return !asked[refKey(r)]; });
      if (fresh.length) batch(fresh);
      remember.posts.push(crds);
    }
    return { report: report, reconcilers: reconcilers, lists: lists };
  });
  pre.kinds = byKind;
  pre.reads = byKind.then(function (k) {
    return Promise.all([listed].concat(k.lists)).then(function (answers) {
      if (!objectsToo || !k.report || !answers[0]) return;
      objects(k.reconcilers, answers);
    });
  }).catch(function () {});

  // The rows' objects at the API version the report names (`api_version_for`; a kind it does not
  // name is left to the app), in batches of what was not sent already; and the instance's events.
  function objects(reconcilers, answers) {
    var versions = {};
    reconcilers.forEach(function (r) {
      if (r && typeof r.kind === 'string' && typeof r.apiVersion === 'string' && r.apiVersion) versions[r.kind] = r.apiVersion;
    });
    var rows = [];
    answers.forEach(function (a) { if (a && Array.isArray(a.resources)) rows = rows.concat(a.resources); });
    var seen = {};
    var wanted = [];
    var instance = null;
    rows.forEach(function (s) {
      if (!s || typeof s.kind !== 'string' || !s.kind || typeof s.name !== 'string' || !s.name) return;
      if (s.kind === 'FluxInstance' && !instance) instance = s;
      if (!versions[s.kind]) return;
      var r = ref(versions[s.kind], s.kind, text(s.namespace), s.name);
      var key = refKey(r);
      if (seen[key]) return;
      seen[key] = true;
      wanted.push(r);
    });
    var fresh = wanted.filter(function (r) { return !asked[refKey(r)]; });
    for (var i = 0; i < fresh.length; i += BATCH_SIZE) batch(fresh.slice(i, i + BATCH_SIZE));
    if (instance && text(instance.namespace)) {
      var q = new URLSearchParams();
      q.append('kind', 'FluxInstance');
      q.append('name', instance.name);
      q.append('namespace', instance.namespace);
      var path = '/api/v1/events?' + q.toString();
      remember.gets.push(path);
      get(path);
    }
    if (wanted.length <= REMEMBERED_ITEMS) {
      for (var j = 0; j < wanted.length; j += BATCH_SIZE) remember.posts.push(wanted.slice(j, j + BATCH_SIZE));
    }
    if (memory) try { localStorage.setItem(STORE, JSON.stringify(remember)); } catch (e) { /* storage full or refused: no second-visit head start */ }
  }
})();
