// The page's script (embedded by report/CMakeLists.txt): the copy buttons, and the fabric's
// views drawn from FABRIC (report/html_fabric.cpp; layout and verdicts are computed in C++,
// report/fabric_views.h): the whole fabric, a pod, one switch's ports; the search box; wheel
// zoom and drag. URL hash: #search=TEXT, #node=NAME, #pod=N, #bench (times the views into
// <pre id="bench">, bench/report.sh).
(function () {
  'use strict';
  var started = performance.now();

  function copyList(button) {
    var area = document.getElementById(button.getAttribute('data-copy'));
    var done = function () {
      button.textContent = 'Copied';
      setTimeout(function () { button.textContent = 'Copy as text'; }, 1500);
    };
    var fallback = function () {
      area.select();
      document.execCommand('copy');
      done();
    };
    if (navigator.clipboard && navigator.clipboard.writeText) navigator.clipboard.writeText(area.value).then(done, fallback);
    else fallback();
  }
  document.querySelectorAll('button.copy').forEach(function (b) {
    b.addEventListener('click', function () { copyList(b); });
  });

  var F = window.FABRIC;
  var svg = document.getElementById('map');
  if (!F || !svg) return;

  function esc(s) {
    return String(s).replace(/[&<>"']/g, function (c) {
      return { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }[c];
    });
  }
  function colour(v) { return F.verdicts[v][2]; }
  function verdictName(v) { return F.verdicts[v][1]; }

  var nodeIndex = {};
  F.nodes.forEach(function (n, i) { nodeIndex[n[0]] = i; });
  var cablesAt = null;  // node index -> cable indices, built on first use
  function cablesOf(n) {
    if (!cablesAt) {
      cablesAt = F.nodes.map(function () { return []; });
      F.cables.forEach(function (c, i) { cablesAt[c[0]].push(i); cablesAt[c[2]].push(i); });
    }
    return cablesAt[n];
  }

  // One view of report/fabric_views.h's FabricMap as SVG text.
  function mapSvg(m) {
    var s = [];
    m.frames.forEach(function (f) {
      s.push('<g class="pod" data-pod="' + f[1] + '"><rect x="' + f[2] + '" y="' + f[3] + '" width="' + f[4] +
        '" height="' + f[5] + '" rx="6" fill="#f8f9fa" stroke="' + colour(f[6]) + '" stroke-width="2"><title>' + esc(f[0]) +
        ': click for its cables</title></rect><text class="pod-name" x="' + (f[2] + 4) + '" y="' + (f[3] + f[5] - 4) + '">' +
        esc(f[0]) + '</text></g>');
    });
    m.buses.forEach(function (b) {
      s.push('<line x1="' + b[0] + '" x2="' + b[1] + '" y1="' + b[2] + '" y2="' + b[2] + '" stroke="#9aa0a6" stroke-width="3"/>');
    });
    m.edges.forEach(function (e) {
      var a = m.boxes[e[0]], b = m.boxes[e[1]];
      var x2 = e[5] >= 0 ? a[2] : b[2], y2 = e[5] >= 0 ? e[5] : b[3];
      var bad = e[3] > 0, geo = 'x1="' + a[2] + '" y1="' + a[3] + '" x2="' + x2 + '" y2="' + y2 + '"';
      if (e[4] & 1) s.push('<line class="outline" ' + geo + ' stroke="#202124" stroke-width="6"/>');
      s.push('<line class="cable v-' + F.verdicts[e[3]][0] + '" data-cables="' + e[2] + '" ' + geo + ' stroke="' + colour(e[3]) +
        '" stroke-width="' + (bad ? 2.5 : 0.6) + '"' + (e[4] & 2 ? ' stroke-dasharray="4 3"' : '') + '><title>' + esc(a[0]) +
        (e[5] >= 0 ? ' uplinks' : ' - ' + esc(b[0])) + ': ' + e[2] + ' cable(s), worst ' + verdictName(e[3]) + '</title></line>');
    });
    m.boxes.forEach(function (b) {
      var susp = b[6] ? ' stroke-width="3"' : ' stroke-width="1.5"';
      if (b[4] > 0) {
        s.push('<rect class="agg" data-leaf="' + esc(b[7]) + '" x="' + (b[2] - 5) + '" y="' + (b[3] - 9) +
          '" width="10" height="18" fill="' + colour(b[5]) + '" stroke="' + (b[6] ? '#202124' : 'none') + '"' + susp + '><title>' +
          esc(b[0]) + ': ' + b[4] + ' HCAs, worst ' + verdictName(b[5]) + ' (click for the ports)</title></rect>');
      } else {
        s.push('<g class="sw" data-node="' + esc(b[0]) + '"><rect x="' + (b[2] - 5) + '" y="' + (b[3] - 5) +
          '" width="10" height="10" fill="#fff" stroke="' + (b[6] ? '#202124' : colour(b[5])) + '"' + susp + '><title>' + esc(b[0]) +
          ': worst cable ' + verdictName(b[5]) + '</title></rect><text transform="translate(' + (b[2] + 3) + ',' + (b[3] + 9) +
          ') rotate(60)">' + esc(b[0]) + '</text></g>');
      }
    });
    return s.join('');
  }

  // One switch's ports (or an HCA's): each cable with its far end, verdict, label and evidence.
  function switchSvg(n, mark) {
    var rows = cablesOf(n).map(function (ci) {
      var c = F.cables[ci], here = c[0] === n;
      return { ci: ci, port: here ? c[1] : c[3], peer: F.nodes[here ? c[2] : c[0]][0], peerPort: here ? c[3] : c[1], v: c[4], flags: c[5] };
    }).sort(function (x, y) { return x.port - y.port; });
    var s = ['<text class="pod-name" x="10" y="16">' + esc(F.nodes[n][0]) + ': ' + rows.length + ' cables</text>'];
    rows.forEach(function (r, i) {
      var y = 30 + i * 18, note = F.notes[r.ci] || ['', []];
      var marked = mark !== undefined && (r.peer === mark || r.peer.indexOf(mark + ' ') === 0);
      s.push('<g class="port" data-node="' + esc(r.peer) + '"><rect x="10" y="' + y + '" width="34" height="14" fill="' +
        colour(r.v) + '" stroke="' + (r.flags & 1 || marked ? '#202124' : 'none') + '" stroke-width="' + (marked ? 4 : 2) + '"' +
        (r.flags & 2 ? ' stroke-dasharray="3 2"' : '') + '/><text x="14" y="' + (y + 11) + '" style="fill:#fff;font-size:10px">' + r.port +
        '</text><text x="52" y="' + (y + 11) + '" style="font-size:11px">' + esc(r.peer) + '[' + r.peerPort + ']  ' + verdictName(r.v) +
        (note[0] ? '  cable ' + esc(note[0]) : '') + (note[1].length ? ': ' + esc(note[1][0]) : '') + '</text><title>' +
        esc(note[1].join('\n')) + '</title></g>');
    });
    return { svg: s.join(''), w: 1000, h: 40 + rows.length * 18 };
  }

  // The picture's box takes the drawing's own proportions (its bounding box, not the layout's
  // margins), up to 70% of the window's height, so no empty band is left under or over it. A
  // fabric so wide that it would be a thin strip keeps a readable height and shows its left
  // part; dragging shows the rest.
  var kMinHeight = 240;
  function fit(content) {
    var width = svg.getBoundingClientRect().width || document.documentElement.clientWidth;
    var px = Math.min(0.7 * window.innerHeight, width * content[3] / content[2]);
    var box = content.slice();
    if (px < kMinHeight) {
      px = Math.min(kMinHeight, content[3] * 8);
      box[2] = content[3] * width / px;
    }
    svg.style.height = Math.round(px) + 'px';
    svg.setAttribute('viewBox', box.join(' '));
    return box;
  }
  window.addEventListener('resize', function () { if (current) current.box = fit(current.content); });

  var current = null;
  function show(view) {
    var crumbs = ['<a data-go="fabric">fabric</a>'];
    var w, h, body;
    if (view.pod !== undefined) crumbs.push('<a data-go="pod" data-pod="' + view.pod + '">' + esc(F.pods[view.pod]) + '</a>');
    if (view.node !== undefined) {
      var r = switchSvg(view.node, view.mark);
      crumbs.push('<b>' + esc(F.nodes[view.node][0]) + '</b>');
      w = r.w; h = r.h; body = r.svg;
    } else {
      var m = view.pod !== undefined ? F.pod_maps[view.pod] : F.fabric;
      w = m.w; h = m.h; body = mapSvg(m);
    }
    svg.setAttribute('viewBox', '0 0 ' + w + ' ' + h);
    svg.setAttribute('data-view', view.node !== undefined ? 'switch' : view.pod !== undefined ? 'pod' : 'fabric');
    svg.innerHTML = body;
    document.getElementById('map-crumbs').innerHTML = crumbs.join(' &rsaquo; ');
    var bb = svg.getBBox(), pad = 6;
    var content = bb.width > 0 ? [bb.x - pad, bb.y - pad, bb.width + 2 * pad, bb.height + 2 * pad] : [0, 0, w, h];
    current = { view: view, content: content };
    current.box = fit(content);
  }
  function showNode(name, mark) {
    var n = nodeIndex[name];
    if (n === undefined) return;
    var pod = F.nodes[n][2];
    show({ node: n, mark: mark, pod: F.pod_maps.length && pod >= 0 ? pod : undefined });
  }

  document.getElementById('map-crumbs').addEventListener('click', function (ev) {
    var go = ev.target.getAttribute('data-go');
    if (go === 'fabric') show({});
    if (go === 'pod') show({ pod: +ev.target.getAttribute('data-pod') });
  });
  var dragged = false;
  svg.addEventListener('click', function (ev) {
    if (dragged) return;
    var el = ev.target.closest('[data-node],[data-leaf],[data-pod]');
    if (!el) return;
    if (el.hasAttribute('data-leaf')) showNode(el.getAttribute('data-leaf'));
    else if (el.hasAttribute('data-node')) showNode(el.getAttribute('data-node'));
    else if (F.pod_maps.length) show({ pod: +el.getAttribute('data-pod') });
  });

  // Wheel zooms around the pointer, dragging moves the view.
  function setBox(b) { current.box = b; svg.setAttribute('viewBox', b.join(' ')); }
  svg.addEventListener('wheel', function (ev) {
    ev.preventDefault();
    var r = svg.getBoundingClientRect(), b = current.box, k = ev.deltaY > 0 ? 1.25 : 0.8;
    var scale = Math.max(b[2] / r.width, b[3] / r.height);
    var px = b[0] + (ev.clientX - r.left) * scale, py = b[1] + (ev.clientY - r.top) * scale;
    setBox([px - (px - b[0]) * k, py - (py - b[1]) * k, b[2] * k, b[3] * k]);
  }, { passive: false });
  var drag = null;
  svg.addEventListener('mousedown', function (ev) { drag = { x: ev.clientX, y: ev.clientY, box: current.box.slice() }; dragged = false; });
  window.addEventListener('mouseup', function () { drag = null; });
  svg.addEventListener('mousemove', function (ev) {
    if (!drag) return;
    var r = svg.getBoundingClientRect(), b = drag.box, scale = Math.max(b[2] / r.width, b[3] / r.height);
    var dx = (ev.clientX - drag.x) * scale, dy = (ev.clientY - drag.y) * scale;
    if (Math.abs(dx) + Math.abs(dy) > 2) dragged = true;
    if (dragged) setBox([b[0] - dx, b[1] - dy, b[2], b[3]]);
  });

  // Search: hosts (an HCA's name starts with its host), switches, cable labels.
  var results = document.getElementById('search-results');
  function search(text) {
    var q = text.trim().toLowerCase(), out = [];
    results.innerHTML = '';
    if (!q) return 0;
    for (var i = 0; i < F.nodes.length && out.length < 20; ++i) {
      if (F.nodes[i][0].toLowerCase().indexOf(q) < 0) continue;
      var n = F.nodes[i], leaf = n[1] === 0 ? cablesOf(i).map(function (ci) { var c = F.cables[ci]; return c[0] === i ? c[2] : c[0]; })[0] : i;
      if (leaf === undefined) continue;
      out.push('<li data-node="' + esc(F.nodes[leaf][0]) + '" data-mark="' + esc(n[0]) + '">' + (n[1] === 0 ? 'HCA ' : 'switch ') +
        esc(n[0]) + (n[1] === 0 ? ' on ' + esc(F.nodes[leaf][0]) : '') + '</li>');
    }
    Object.keys(F.notes).forEach(function (ci) {
      var note = F.notes[ci], c = F.cables[ci];
      if (out.length >= 40 || !note[0] || note[0].toLowerCase().indexOf(q) < 0) return;
      var end = F.nodes[c[0]][1] > 0 ? c[0] : c[2];
      out.push('<li data-node="' + esc(F.nodes[end][0]) + '" data-mark="' + esc(F.nodes[end === c[0] ? c[2] : c[0]][0]) + '">cable ' +
        esc(note[0]) + ': ' + esc(F.nodes[c[0]][0]) + '[' + c[1] + '] - ' + esc(F.nodes[c[2]][0]) + '[' + c[3] + ']</li>');
    });
    results.innerHTML = out.length ? out.join('') : '<li>nothing matches</li>';
    return out.length;
  }
  var input = document.getElementById('map-search'), timer = null;
  input.addEventListener('input', function () {
    clearTimeout(timer);
    timer = setTimeout(function () { search(input.value); }, 150);
  });
  results.addEventListener('click', function (ev) {
    var li = ev.target.closest('li[data-node]');
    if (li) showNode(li.getAttribute('data-node'), li.getAttribute('data-mark'));
  });

  show({});
  var interactive = performance.now();
  var hash = decodeURIComponent(location.hash.slice(1));
  if (hash.indexOf('search=') === 0) { input.value = hash.slice(7); search(input.value); }
  if (hash.indexOf('node=') === 0) showNode(hash.slice(5));
  if (hash.indexOf('pod=') === 0 && F.pod_maps.length) show({ pod: +hash.slice(4) - 1 });
  if (hash === 'bench') {
    var t = {}, t0 = performance.now();
    for (var p = 0; p < F.pod_maps.length; ++p) show({ pod: p });
    t.pod_view_ms = (performance.now() - t0) / Math.max(F.pod_maps.length, 1);
    t0 = performance.now();
    var sw = F.nodes.findIndex(function (n) { return n[1] === 1; });
    showNode(F.nodes[sw][0]);
    t.switch_view_ms = performance.now() - t0;
    t0 = performance.now();
    t.search_hits = search(F.nodes[F.nodes.length - 1][0]);
    t.search_ms = performance.now() - t0;
    show({});
    t.script_start_ms = started;
    t.interactive_ms = interactive;
    t.fabric_view_ms = interactive - started;
    t.dom_nodes = document.getElementsByTagName('*').length;
    var pre = document.createElement('pre');
    pre.id = 'bench';
    pre.textContent = JSON.stringify(t);
    document.body.appendChild(pre);
  }
})();
