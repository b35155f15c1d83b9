// Draws the tuning report's charts as inline SVG from the JSON in <script id="report-data">. Every chart's SVG
// carries data-lines / data-points (line charts) or data-cells (heat maps), and <body data-drawn> the number of
// charts drawn, so that a headless browser's DOM shows what was drawn.
(function () {
  "use strict";
  var NS = "http://www.w3.org/2000/svg";
  var COLORS = ["#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f",
                "#bcbd22", "#17becf", "#393b79", "#ad494a", "#637939"];
  var data = JSON.parse(document.getElementById("report-data").textContent);
  var drawn = 0;

  function el(name, attrs, parent) {
    var e = document.createElementNS(NS, name);
    for (var k in attrs) { e.setAttribute(k, attrs[k]); }
    if (parent) { parent.appendChild(e); }
    return e;
  }

  function text(parent, x, y, s, attrs) {
    var t = el("text", Object.assign({x: x, y: y, "font-size": 11, "font-family": "sans-serif"}, attrs || {}), parent);
    t.textContent = s;
    return t;
  }

  function ok(v) {
    return typeof v === "number" && isFinite(v);
  }

  function fmt(v) {
    if (!ok(v)) { return "-"; }
    var a = Math.abs(v);
    return a >= 100 ? v.toFixed(0) : a >= 10 ? v.toFixed(1) : a >= 1 ? v.toFixed(2) : v.toPrecision(2);
  }

  function lineChart(host, c) {
    var W = 460, H = 280, L = 56, R = 12, T = 26, B = 40;
    var lines = c.lines.filter(function (l) { return l.x.length > 0; });
    var xs = [], ys = [];
    lines.forEach(function (l) {
      l.x.forEach(function (v) { if (ok(v)) { xs.push(v); } });
      l.y.forEach(function (v) { if (ok(v) && (!c.logY || v > 0)) { ys.push(v); } });
    });
    var svg = el("svg", {width: W, height: H + 16 * Math.ceil(lines.length / 3), "class": "chart",
                         "data-chart": c.id}, null);
    text(svg, L, 16, c.title, {"font-weight": "bold"});
    var x0 = Math.min.apply(null, xs.concat([0])), x1 = Math.max.apply(null, xs.concat([1]));
    var y0 = ys.length ? Math.min.apply(null, ys) : 1, y1 = ys.length ? Math.max.apply(null, ys) : 2;
    if (c.logY) { y0 = Math.log(y0); y1 = Math.log(y1); }
    if (y1 - y0 < 1e-9) { y1 = y0 + (c.logY ? 0.1 : Math.abs(y0) * 0.1 + 1e-9); }
    if (x1 - x0 < 1e-12) { x1 = x0 + 1; }
    function px(v) { return L + (v - x0) / (x1 - x0) * (W - L - R); }
    function py(v) { var w = c.logY ? Math.log(v) : v; return H - B - (w - y0) / (y1 - y0) * (H - B - T); }
    el("line", {x1: L, y1: H - B, x2: W - R, y2: H - B, stroke: "#333", "class": "axis"}, svg);
    el("line", {x1: L, y1: T, x2: L, y2: H - B, stroke: "#333", "class": "axis"}, svg);
    for (var i = 0; i <= 4; i++) {
      var xv = x0 + (x1 - x0) * i / 4;
      text(svg, px(xv), H - B + 14, fmt(xv), {"text-anchor": "middle"});
      var yv = c.logY ? Math.exp(y0 + (y1 - y0) * i / 4) : y0 + (y1 - y0) * i / 4;
      text(svg, L - 4, py(yv) + 4, fmt(yv), {"text-anchor": "end"});
      el("line", {x1: L, y1: py(yv), x2: W - R, y2: py(yv), stroke: "#eee"}, svg);
    }
    text(svg, (L + W - R) / 2, H - B + 30, c.xLabel, {"text-anchor": "middle"});
    text(svg, 12, (T + H - B) / 2, c.yLabel, {"text-anchor": "middle", transform: "rotate(-90 12 " + (T + H - B) / 2 + ")"});
    var points = 0;
    lines.forEach(function (l, k) {
      var pts = [];
      for (var j = 0; j < l.x.length; j++) {
        if (ok(l.x[j]) && ok(l.y[j]) && (!c.logY || l.y[j] > 0)) { pts.push(px(l.x[j]).toFixed(1) + "," + py(l.y[j]).toFixed(1)); }
      }
      points += pts.length;
      el("polyline", {points: pts.join(" "), fill: "none", stroke: COLORS[k % COLORS.length], "stroke-width": 1.5,
                      "class": "series", "data-name": l.name, "data-points": pts.length}, svg);
      var lx = L + (k % 3) * 140, ly = H + 4 + 16 * Math.floor(k / 3);
      el("rect", {x: lx, y: ly - 8, width: 10, height: 10, fill: COLORS[k % COLORS.length]}, svg);
      text(svg, lx + 14, ly + 1, l.name);
    });
    svg.setAttribute("data-lines", lines.length);
    svg.setAttribute("data-points", points);
    host.appendChild(svg);
    drawn++;
  }

  function heatColor(r) {
    if (!ok(r) || r <= 0) { return "#ddd"; }
    var t = Math.max(0, Math.min(1, Math.log(r) / Math.log(4)));
    var red = Math.round(60 + 195 * t), green = Math.round(180 - 120 * t), blue = Math.round(90 - 40 * t);
    return "rgb(" + red + "," + green + "," + blue + ")";
  }

  function heatMap(host, h) {
    var cw = 120, ch = 24, L = 170, T = 46;
    var W = L + cw * h.cols.length + 10, H = T + ch * h.rows.length + 10;
    var svg = el("svg", {width: W, height: H, "class": "heatmap", "data-chart": h.id}, null);
    text(svg, 4, 16, h.title, {"font-weight": "bold"});
    h.cols.forEach(function (c, j) { text(svg, L + cw * j + cw / 2, T - 8, "run on " + c, {"text-anchor": "middle"}); });
    var cells = 0;
    h.rows.forEach(function (r, i) {
      text(svg, L - 6, T + ch * i + ch / 2 + 4, r, {"text-anchor": "end"});
      h.cols.forEach(function (c, j) {
        var v = h.values[i][j];
        el("rect", {x: L + cw * j, y: T + ch * i, width: cw - 2, height: ch - 2, fill: heatColor(v), "class": "cell",
                    "data-value": ok(v) ? v.toFixed(3) : "NaN"}, svg);
        text(svg, L + cw * j + cw / 2, T + ch * i + ch / 2 + 4, h.text[i][j], {"text-anchor": "middle"});
        cells++;
      });
    });
    svg.setAttribute("data-cells", cells);
    host.appendChild(svg);
    drawn++;
  }

  try {
    data.sections.forEach(function (s, si) {
      var host = document.getElementById("section-" + si);
      s.charts.forEach(function (c) { lineChart(host, c); });
      s.heatMaps.forEach(function (h) { heatMap(host, h); });
    });
    document.body.setAttribute("data-drawn", drawn);
  } catch (e) {
    document.body.setAttribute("data-error", String(e));
  }
})();
