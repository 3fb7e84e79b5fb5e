// The report's facts painted as text before the wasm starts (#15): the header the app then
// replaces (its own mounts over `data-prepaint`). index.html inlines this file after prefetch.js,
// whose report it reads (`window.fluxlensPage`, src/api/page_script.rs); a framed panel (/embed/…) has no header.
(function () {
  var pre = window.fluxlensPage;
  if (!pre || !pre.reported || location.pathname.indexOf('/embed/') >= 0) return;
  var reported = pre.reported;
  reported.then(function (report) {
    var spec = report && report.spec;
    if (!spec || pre.mounted || !document.body) return;
    var text = function (v) { return typeof v === 'string' && v ? v : 'unknown'; };
    var facts = [
      ['Flux', text(spec.distribution && spec.distribution.version)],
      ['Operator', text(spec.operator && spec.operator.version)],
      ['Kubernetes', text(spec.cluster && spec.cluster.serverVersion)],
      ['Platform', text(spec.cluster && spec.cluster.platform)]
    ];
    var el = function (tag, cls, content) {
      var e = document.createElement(tag);
      if (cls) e.className = cls;
      if (content) e.textContent = content;
      return e;
    };
    var header = el('header', 'fl-header');
    header.setAttribute('data-prepaint', '');
    header.appendChild(el('span', 'fl-brand', 'fluxlens'));
    var dl = el('dl', 'fl-identity');
    dl.setAttribute('aria-label', 'Cluster identity');
    facts.forEach(function (f) {
      var item = el('div', 'fl-identity__item');
      item.appendChild(el('dt', '', f[0]));
      var dd = el('dd', '', f[1]);
      dd.setAttribute('data-identity', f[0]);
      item.appendChild(dd);
      dl.appendChild(item);
    });
    header.appendChild(dl);
    header.appendChild(el('p', 'fl-notice fl-notice--progress', 'Loading objects…'));
    document.body.insertBefore(header, document.body.firstChild);
  }).catch(function () {});
})();
