// fluxlens launcher for the Flux Operator's own status page. nginx injects this one script
// (sub_filter before </body>); it depends on nothing of that page but <body>: a button opens
// an overlay with /fluxlens/embed/<view> in an iframe (same origin, so the API works).
(function () {
  'use strict';
  if (window.__fluxlensPlugin) return;
  window.__fluxlensPlugin = true;
  var base = (document.currentScript && document.currentScript.dataset.base) || '/fluxlens';
  var views = [['overview', 'Overview'], ['graph', 'Graph'], ['signatures', 'Signatures'], ['migrations', 'Migrations'], ['compliance', 'Compliance']];
  var css = '#fluxlens-launcher{position:fixed;right:16px;bottom:16px;z-index:2147483000;font:600 14px system-ui,sans-serif;padding:10px 14px;border-radius:8px;border:0;background:#0b5cad;color:#fff;cursor:pointer;box-shadow:0 2px 8px rgba(0,0,0,.3)}' +
    '#fluxlens-launcher:focus-visible,#fluxlens-panel button:focus-visible{outline:3px solid #b35900;outline-offset:2px}' +
    '#fluxlens-panel{position:fixed;inset:5vh 5vw;z-index:2147483001;background:#fff;border-radius:10px;box-shadow:0 8px 40px rgba(0,0,0,.45);display:flex;flex-direction:column;overflow:hidden}' +
    '#fluxlens-panel[hidden]{display:none}#fluxlens-panel nav{display:flex;gap:6px;padding:8px;background:#f4f6f8;border-bottom:1px solid #c9d1d9;font:14px system-ui,sans-serif}' +
    '#fluxlens-panel nav button{padding:6px 10px;border:1px solid #c9d1d9;border-radius:6px;background:#fff;color:#15191e;cursor:pointer}#fluxlens-panel nav button[aria-pressed=true]{background:#0b5cad;color:#fff}' +
    '#fluxlens-panel iframe{flex:1;border:0;width:100%}';
  var style = document.createElement('style');
  style.textContent = css;
  document.head.appendChild(style);
  var launcher = document.createElement('button');
  launcher.id = 'fluxlens-launcher';
  launcher.type = 'button';
  launcher.textContent = 'fluxlens';
  launcher.setAttribute('aria-haspopup', 'dialog');
  var panel = document.createElement('div');
  panel.id = 'fluxlens-panel';
  panel.hidden = true;
  panel.setAttribute('role', 'dialog');
  panel.setAttribute('aria-label', 'fluxlens');
  var nav = document.createElement('nav');
  var frame = document.createElement('iframe');
  frame.title = 'fluxlens';
  function show(view) {
    frame.src = base + '/embed/' + view;
    Array.prototype.forEach.call(nav.querySelectorAll('button[data-view]'), function (b) { b.setAttribute('aria-pressed', String(b.dataset.view === view)); });
  }
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
  close.addEventListener('click', function () { panel.hidden = true; launcher.focus(); });
  nav.appendChild(close);
  panel.appendChild(nav);
  panel.appendChild(frame);
  launcher.addEventListener('click', function () {
    panel.hidden = !panel.hidden;
    if (!panel.hidden) { if (!frame.src) show('overview'); close.focus(); }
  });
  document.addEventListener('keydown', function (e) { if (e.key === 'Escape' && !panel.hidden) { panel.hidden = true; launcher.focus(); } });
  document.body.appendChild(launcher);
  document.body.appendChild(panel);
})();
