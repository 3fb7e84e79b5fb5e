// Embedding fluxlens in another page: a custom element and a mount function.
//
//   <script src="https://fluxlens.example.org/fluxlens-element.js"></script>
//   <fluxlens-view view="graph" theme="dark"></fluxlens-view>
//   <script>fluxlens.mount(document.getElementById('panel'), { view: 'signatures', query: 'sev=critical' })</script>
//
// Each renders /embed/<view> of the fluxlens that served this script in an iframe that sizes
// itself from the height the app posts ({type: "fluxlens:height"}). The host's origin must be
// in fluxlens' frame-ancestors allowlist (deploy/render.py --frame-ancestors).
(function () {
  'use strict';
  var script = document.currentScript;
  var origin = script ? new URL(script.src, location.href) : new URL(location.href);
  var base = (script && script.dataset.base) || origin.pathname.replace(/\/[^/]*$/, '');
  var VIEWS = ['overview', 'graph', 'signatures', 'migrations', 'compliance', 'changes'];

  function frameFor(opts) {
    var view = VIEWS.indexOf(opts.view) >= 0 ? opts.view : 'overview';
    var params = new URLSearchParams(opts.query || '');
    if (opts.theme === 'light' || opts.theme === 'dark') params.set('theme', opts.theme);
    var q = params.toString();
    var f = document.createElement('iframe');
    f.src = origin.origin + base + '/embed/' + view + (q ? '?' + q : '');
    f.title = opts.title || 'fluxlens ' + view;
    f.style.cssText = 'width:100%;border:0;min-height:' + (opts.minHeight || 320) + 'px';
    window.addEventListener('message', function (e) {
      if (e.source === f.contentWindow && e.origin === origin.origin && e.data && e.data.type === 'fluxlens:height') {
        f.style.height = Math.min(Math.max(e.data.height, 100), 20000) + 'px';
      }
    });
    return f;
  }

  /** Renders a fluxlens view into `element`; returns the iframe. */
  function mount(element, opts) {
    var f = frameFor(opts || {});
    element.replaceChildren(f);
    return f;
  }

  window.fluxlens = { mount: mount, version: 1 };

  if (window.customElements && !customElements.get('fluxlens-view')) {
    customElements.define('fluxlens-view', class extends HTMLElement {
      static get observedAttributes() { return ['view', 'theme', 'query']; }
      connectedCallback() { this.render(); }
      attributeChangedCallback() { if (this.isConnected) this.render(); }
      render() { mount(this, { view: this.getAttribute('view'), theme: this.getAttribute('theme'), query: this.getAttribute('query') }); }
    });
  }
})();
