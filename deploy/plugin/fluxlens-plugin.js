// fluxlens launcher for the Flux Operator's own status pages. nginx injects this one script
// into every HTML page the operator serves (sub_filter before </body>); it depends on nothing
// of those pages but <body>, the `dark` class on <html> and the URL. A button opens an overlay
// with /fluxlens/embed/<view> in an iframe (same origin, so the API works). On a resource page
// (/resource/<Kind>/<namespace>/<name>) it names the object and opens on it: the object's
// focus graph with the side panel (signature posture, findings, migration checks).
(function () {
  'use strict';
  if (window.__fluxlensPlugin) return;
  window.__fluxlensPlugin = true;
  var base = (document.currentScript && document.currentScript.dataset.base) || '/fluxlens';
  var views = [['overview', 'Overview'], ['graph', 'Graph'], ['signatures', 'Signatures'], ['migrations', 'Migrations'], ['compliance', 'Compliance'], ['changes', 'Changes']];
  var css = '#fluxlens-launcher{position:fixed;right:16px;bottom:16px;z-index:2147483000;font:600 14px system-ui,sans-serif;padding:10px 14px;border-radius:9999px;border:0;background:#2563eb;color:#fff;cursor:pointer;box-shadow:0 2px 8px rgba(0,0,0,.25);max-width:60vw;overflow:hidden;text-overflow:ellipsis;white-space:nowrap}' +
    '#fluxlens-launcher:focus-visible,#fluxlens-panel button:focus-visible{outline:3px solid #f59e0b;outline-offset:2px}' +
    '#fluxlens-panel{position:fixed;inset:5vh 5vw;z-index:2147483001;background:#fff;color:#111827;border-radius:12px;border:1px solid #e5e7eb;box-shadow:0 8px 40px rgba(0,0,0,.35);display:flex;flex-direction:column;overflow:hidden}' +
    '#fluxlens-panel[hidden]{display:none}#fluxlens-panel nav{display:flex;gap:6px;align-items:center;padding:8px;background:#f9fafb;border-bottom:1px solid #e5e7eb;font:14px system-ui,sans-serif}' +
    '#fluxlens-panel nav button{padding:6px 10px;border:1px solid #d1d5db;border-radius:6px;background:#fff;color:#111827;cursor:pointer}#fluxlens-panel nav button[aria-pressed=true]{background:#2563eb;border-color:#2563eb;color:#fff}' +
    '#fluxlens-panel.fluxlens-dark{background:#111827;color:#f3f4f6;border-color:#374151}#fluxlens-panel.fluxlens-dark nav{background:#1f2937;border-color:#374151}' +
    '#fluxlens-panel.fluxlens-dark nav button{background:#111827;color:#f3f4f6;border-color:#4b5563}#fluxlens-panel.fluxlens-dark nav button[aria-pressed=true]{background:#3b82f6;border-color:#3b82f6}' +
    '#fluxlens-panel iframe{flex:1;border:0;width:100%}#fluxlens-panel .fluxlens-context{font-weight:600;margin-right:8px}';
  var style = document.createElement('style');
  style.textContent = css;
  document.head.appendChild(style);

  /** The Flux object the operator UI shows, from its route, or null. */
  function objectInView() {
    var m = location.pathname.match(/^\/resource\/([^/]+)\/([^/]+)\/([^/]+)\/?$/);
    if (!m) return null;
    try {
      var kind = decodeURIComponent(m[1]), ns = decodeURIComponent(m[2]), name = decodeURIComponent(m[3]);
      if (!/^[A-Za-z]+$/.test(kind) || !ns || !name || ns.indexOf('/') >= 0 || name.indexOf('/') >= 0) return null;
      return { kind: kind, ns: ns, name: name, key: kind + '/' + ns + '/' + name };
    } catch (e) { return null; }
  }
  /** The operator UI's theme: it toggles the `dark` class on <html>. */
  function theme() { return document.documentElement.classList.contains('dark') ? 'dark' : 'light'; }

  var launcher = document.createElement('button');
  launcher.id = 'fluxlens-launcher';
  launcher.type = 'button';
  launcher.setAttribute('aria-haspopup', 'dialog');
  launcher.setAttribute('aria-keyshortcuts', 'Alt+Shift+F');
  var panel = document.createElement('div');
  panel.id = 'fluxlens-panel';
  panel.hidden = true;
  panel.setAttribute('role', 'dialog');
  panel.setAttribute('aria-label', 'fluxlens');
  var nav = document.createElement('nav');
  var context = document.createElement('span');
  context.className = 'fluxlens-context';
  var frame = document.createElement('iframe');
  frame.title = 'fluxlens';
  var current = null;

  function label() {
    var o = objectInView();
    launcher.textContent = o ? 'fluxlens · ' + o.kind + ' ' + o.ns + '/' + o.name : 'fluxlens';
    launcher.dataset.object = o ? o.key : '';
    return o;
  }
  function press(view) {
    Array.prototype.forEach.call(nav.querySelectorAll('button[data-view]'), function (b) { b.setAttribute('aria-pressed', String(b.dataset.view === view)); });
  }
  function show(view) {
    current = view;
    var o = objectInView();
    var q = 'theme=' + theme();
    if (view === 'object' && o) {
      var k = encodeURIComponent(o.key);
      frame.src = base + '/embed/graph?sel=' + k + '&focus=' + k + '&' + q;
      context.textContent = o.key;
    } else {
      frame.src = base + '/embed/' + view + '?' + q;
      context.textContent = '';
    }
    panel.classList.toggle('fluxlens-dark', theme() === 'dark');
    press(view === 'object' ? 'graph' : view);
  }
  nav.appendChild(context);
  views.forEach(function (v) {
    var b = document.createElement('button');
    b.type = 'button';
    b.dataset.view = v[0];
    b.textContent = v[1];
    b.addEventListener('click', function () { show(v[0]); });
    nav.appendChild(b);
  });
  var close = document.createElement('button');
  close.type = 'button';
  close.textContent = 'Close';
  close.style.marginLeft = 'auto';
  nav.appendChild(close);
  panel.appendChild(nav);
  panel.appendChild(frame);

  function open() {
    // Read the location now: the operator UI navigates in-app without telling anyone.
    var o = label();
    panel.hidden = false;
    show(o ? 'object' : 'overview');
    close.focus();
  }
  function hide() {
    if (panel.hidden) return;
    panel.hidden = true;
    launcher.focus();
  }
  close.addEventListener('click', hide);
  launcher.addEventListener('click', function () { if (panel.hidden) open(); else hide(); });
  launcher.addEventListener('mouseenter', label);
  launcher.addEventListener('focus', label);
  window.addEventListener('popstate', function () {
    label();
    if (!panel.hidden) show(objectInView() ? 'object' : (current === 'object' ? 'overview' : current));
  });
  // Follow the operator UI's theme while the panel is open.
  new MutationObserver(function () {
    if (!panel.hidden && current) show(current);
  }).observe(document.documentElement, { attributes: true, attributeFilter: ['class'] });
  // Alt+Shift+F: the operator UI takes `/`, `?` and `g`-chords; Escape closes.
  document.addEventListener('keydown', function (e) {
    var t = e.target && e.target.tagName;
    if (e.key === 'Escape' && !panel.hidden) { e.stopPropagation(); hide(); return; }
    if (e.altKey && e.shiftKey && !e.ctrlKey && !e.metaKey && e.code === 'KeyF' && t !== 'INPUT' && t !== 'TEXTAREA') {
      e.preventDefault();
      if (panel.hidden) open(); else hide();
    }
  }, true);
  label();
  document.body.appendChild(launcher);
  document.body.appendChild(panel);
})();
