/*
 * Tally dashboard. Plain JavaScript, no library, no build step: it reads only the read side (precomputed figures,
 * never a scan) and redraws every few seconds.
 *
 * The page names no domain: /dashboard/sections.json lists the sections the domains declare, in the registry's order,
 * each as data (its kind, the read route it reads, which fields give its labels, values and data-figure names), and
 * one renderer a kind draws them: tiles on the Totals card, horizontal bars, bars over days, ranked tables. The page's
 * own parts are the empty state, the pipeline's health and the two feeds.
 *
 * Which sections show depends on which routes the server has: /dashboard/routes.json lists them, so a section for a
 * domain that is not built (song downloads, favourites, the local runner's /metrics and /events) stays hidden without
 * asking for a route that would answer 404 (the browser logs every failed request as a console error). A route that
 * answers 404 with the JSON error envelope anyway is taken the same way: not there.
 */
(function () {
  "use strict";

  var REFRESH_MS = 2000;
  var SVG = "http://www.w3.org/2000/svg";
  /** A value read into a path: an id, or a selector such as global-cycle:5; anything else is left out. */
  var ID = /^[A-Za-z0-9_:-]{1,64}$/;
  var number = new Intl.NumberFormat("en-US");
  var compact = new Intl.NumberFormat("en-US", { notation: "compact", maximumFractionDigits: 1 });
  var params = new URLSearchParams(window.location.search);
  var routes = null;
  var cards = [];
  var lastMetrics = null;

  // ---------------------------------------------------------------------------------------------- helpers

  function $(id) { return document.getElementById(id); }

  function el(tag, attrs, text) {
    var node = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (name) { node.setAttribute(name, attrs[name]); });
    if (text !== undefined && text !== null) { node.textContent = String(text); }
    return node;
  }

  function svg(tag, attrs, text) {
    var node = document.createElementNS(SVG, tag);
    Object.keys(attrs || {}).forEach(function (name) { node.setAttribute(name, attrs[name]); });
    if (text !== undefined && text !== null) { node.textContent = String(text); }
    return node;
  }

  function show(id, visible) { $(id).hidden = !visible; }

  function replace(container, children) {
    while (container.firstChild) { container.removeChild(container.firstChild); }
    children.forEach(function (child) { container.appendChild(child); });
  }

  /** Whether the server has {@code route}; path parameters match whatever their names ({id} = {orgId}). */
  function has(route) {
    var wanted = route.replace(/\{[^}]*\}/g, "{}");
    return routes !== null && routes.some(function (r) { return r.replace(/\{[^}]*\}/g, "{}") === wanted; });
  }

  /** The JSON of a read route; null when the route is not there (404 with the error envelope). */
  function get(path) {
    return fetch(path, { headers: { Accept: "application/json" }, cache: "no-store" }).then(function (response) {
      if (response.status === 404) {
        return response.json().then(function (body) {
          if (body && body.error && body.error.code === "not_found") { return null; }
          throw new Error(path + " answered 404");
        });
      }
      if (!response.ok) { throw new Error(path + " answered " + response.status); }
      return response.json();
    });
  }

  function getText(path) {
    return fetch(path, { cache: "no-store" }).then(function (response) {
      if (!response.ok) { throw new Error(path + " answered " + response.status); }
      return response.text();
    });
  }

  function fmt(value) { return typeof value === "number" ? number.format(value) : "–"; }

  function seconds(value) {
    if (value < 1) { return Math.round(value * 1000) + " ms"; }
    if (value < 60) { return value.toFixed(1) + " s"; }
    return Math.floor(value / 60) + " min " + Math.round(value % 60) + " s";
  }

  function tile(label, value, figure) {
    var node = el("div", { "class": "tile" });
    node.appendChild(el("div", { "class": "label" }, label));
    var attrs = { "class": "value" };
    if (figure) { attrs["data-figure"] = figure; }
    node.appendChild(el("div", attrs, value));
    return node;
  }

  function utcDay(date) { return date.toISOString().slice(0, 10); }

  function time(iso) {
    var date = new Date(iso);
    return isNaN(date.getTime()) ? "" : date.toLocaleTimeString("en-GB", { hour12: false });
  }

  // ------------------------------------------------------------------------------------------------ charts

  /** Horizontal bars, one row per {label, value, figure}: readable on a phone, labels never rotated. */
  function hbars(container, rows, color) {
    if (rows.length === 0) { replace(container, [el("p", { "class": "none" }, "Nothing yet.")]); return; }
    // Drawn at the container's own width, so that a text is as large as the page's and never scaled down.
    var width = Math.max(240, container.clientWidth || 360), row = 28;
    var labelWidth = Math.min(170, Math.round(width * 0.38)), valueWidth = 64;
    var max = Math.max.apply(null, rows.map(function (r) { return r.value; }).concat([1]));
    var chart = svg("svg", { viewBox: "0 0 " + width + " " + (rows.length * row + 4), role: "img" });
    rows.forEach(function (r, i) {
      var y = i * row + 4;
      var chars = Math.floor(labelWidth / 7.5);
      var label = r.label.length > chars ? r.label.slice(0, chars - 1) + "…" : r.label;
      chart.appendChild(svg("text", { x: 0, y: y + 17 }, label));
      var barWidth = Math.max(2, (width - labelWidth - valueWidth) * r.value / max);
      var bar = svg("rect", { x: labelWidth, y: y + 3, width: barWidth, height: row - 8, rx: 3,
        fill: r.color || color });
      bar.appendChild(svg("title", {}, r.label + ": " + number.format(r.value)));
      chart.appendChild(bar);
      var attrs = { x: labelWidth + barWidth + 6, y: y + 17 };
      if (r.figure) { attrs["data-figure"] = r.figure; }
      chart.appendChild(svg("text", attrs, number.format(r.value)));
    });
    replace(container, [chart]);
  }

  /** Vertical bars over days ({label: yyyy-MM-dd, value}), with a few date labels and the largest value as the scale. */
  function vbars(container, days, color) {
    var width = Math.max(240, container.clientWidth || 360), height = 180, left = 40, bottom = 22;
    var max = Math.max.apply(null, days.map(function (d) { return d.value; }).concat([1]));
    var chart = svg("svg", { viewBox: "0 0 " + width + " " + height, role: "img" });
    var step = (width - left) / Math.max(days.length, 1);
    chart.appendChild(svg("text", { x: 0, y: 12, "class": "axis" }, compact.format(max)));
    chart.appendChild(svg("text", { x: 0, y: height - bottom, "class": "axis" }, "0"));
    days.forEach(function (d, i) {
      var h = (height - bottom - 8) * d.value / max;
      var bar = svg("rect", { x: left + i * step + 1, y: height - bottom - h, width: Math.max(1, step - 2),
        height: h, fill: color });
      bar.appendChild(svg("title", {}, d.label + ": " + number.format(d.value)));
      chart.appendChild(bar);
      // Weekly labels counted back from the last day, which is always labelled (anchored at its bar's right edge).
      var last = i === days.length - 1;
      if ((days.length - 1 - i) % 7 === 0) {
        chart.appendChild(svg("text", { x: last ? left + (i + 1) * step : left + i * step, y: height - 6,
          "class": "axis", "text-anchor": last ? "end" : "start" }, d.label.slice(5)));
      }
    });
    replace(container, [chart]);
  }

  /** A ranked table: #, the label, the value (with its data-figure name); "No items." when there are none. */
  function table(rows, columns) {
    if (rows.length === 0) { return el("p", { "class": "none" }, "No items."); }
    var node = el("table");
    var head = el("tr");
    head.appendChild(el("th", {}, "#"));
    head.appendChild(el("th", {}, columns[0] || ""));
    head.appendChild(el("th", { "class": "num" }, columns[1] || ""));
    node.appendChild(head);
    rows.forEach(function (r, i) {
      var tr = el("tr");
      tr.appendChild(el("td", {}, i + 1));
      tr.appendChild(el("td", {}, r.label));
      var attrs = { "class": "num" };
      if (r.figure) { attrs["data-figure"] = r.figure; }
      tr.appendChild(el("td", attrs, fmt(r.value)));
      node.appendChild(tr);
    });
    return node;
  }

  // ------------------------------------------------------------------------------------------- declarations

  /** The page's own placeholders: the current UTC month and the last 30 UTC days. */
  function pageValues() {
    var to = new Date();
    var from = new Date(to.getTime() - 29 * 86400000);
    return { month: to.toISOString().slice(0, 7), from: utcDay(from), to: utcDay(to) };
  }

  /** A field of an answer by its dotted path ("posts.created"); undefined when it is not there. */
  function field(object, path) {
    return path.split(".").reduce(function (value, name) {
      return value !== null && typeof value === "object" ? value[name] : undefined;
    }, object);
  }

  /** The sum of the answer's numbers at these fields; null when none of them is a number. */
  function sum(answer, fields) {
    var numbers = fields.map(function (f) { return field(answer, f); })
      .filter(function (v) { return typeof v === "number"; });
    return numbers.length === 0 ? null : numbers.reduce(function (a, b) { return a + b; }, 0);
  }

  /**
   * A template with each {name} replaced by show(value), the value taken from the first source that has it; null when
   * a name has no value (or an empty one) in any source.
   */
  function fill(template, sources, show) {
    var complete = true;
    var text = template.replace(/\{([^{}]+)\}/g, function (all, name) {
      for (var i = 0; i < sources.length; i++) {
        var value = sources[i] ? sources[i][name] : undefined;
        if (value !== undefined && value !== null && value !== "") { return show(value); }
      }
      complete = false;
      return "";
    });
    return complete ? text : null;
  }

  function shown(value) { return typeof value === "number" ? number.format(value) : String(value); }

  /** The first of the label templates whose fields are all there. */
  function label(templates, sources) {
    for (var i = 0; i < templates.length; i++) {
      var text = fill(templates[i], sources, shown);
      if (text !== null) { return text; }
    }
    return "";
  }

  /** The values a section is read for: the address's ?parameter= (else its defaults), and those the feeds named. */
  function valuesOf(each) {
    var given = params.get(each.parameter);
    var values = (given ? given.split(",") : each.defaults).concat(each.seenInFeeds ? remembered(each) : []);
    return values.filter(function (v, i) { return ID.test(v) && values.indexOf(v) === i; }).slice(0, 20);
  }

  /** Values the feeds' events named for a section (no read route lists them), kept in the browser's storage. */
  var seen = {};

  function remembered(each) {
    var key = "tally." + each.parameter;
    if (!seen[key]) {
      try { seen[key] = JSON.parse(window.localStorage.getItem(key) || "[]"); } catch (e) { seen[key] = []; }
      if (!Array.isArray(seen[key])) { seen[key] = []; }
    }
    return seen[key];
  }

  function remember(detail) {
    cards.forEach(function (card) {
      card.sections.forEach(function (section) {
        var each = section.each;
        var value = each && each.seenInFeeds && detail ? detail[each.placeholder] : null;
        var values = value ? remembered(each) : null;
        if (values && typeof value === "string" && ID.test(value) && values.indexOf(value) < 0) {
          values.push(value);
          try {
            window.localStorage.setItem("tally." + each.parameter, JSON.stringify(values.slice(0, 20)));
          } catch (e) { /* private mode */ }
        }
      });
    });
  }

  // ---------------------------------------------------------------------------------------------- sections

  /** One card a section, in the registry's order; every domain's tiles share the one Totals card. */
  function buildCards(sections) {
    var byId = {};
    sections.forEach(function (section) {
      var card = byId[section.id];
      if (!card) {
        var node = el("section", { id: section.id, "class": section.kind === "totals" ? "card wide" : "card" });
        node.hidden = true;
        var heading = el("h2", {}, section.title);
        var body = el("div", { "class": section.kind === "totals" ? "tiles"
          : section.kind === "tables" ? "columns" : "chart" });
        node.appendChild(heading);
        node.appendChild(body);
        if (section.hint) { node.appendChild(hint(section.hint)); }
        card = byId[section.id] = { node: node, heading: heading, body: body, sections: [] };
        cards.push(card);
        $("sections").appendChild(node);
      }
      card.sections.push(section);
    });
  }

  /** A hint's text, with `code` shown as code. */
  function hint(text) {
    var p = el("p", { "class": "hint" });
    text.split("`").forEach(function (part, i) {
      p.appendChild(i % 2 === 1 ? el("code", {}, part) : document.createTextNode(part));
    });
    return p;
  }

  /**
   * The answers a section reads, one per value of its each (with that value among its placeholders) or just one,
   * each {values, body}; body null when the route answered 404. Answers of one path are read once a refresh.
   */
  function answers(section, page, memo) {
    var sets = section.each ? valuesOf(section.each).map(function (value) {
      var values = Object.assign({}, page);
      values[section.each.placeholder] = value;
      return values;
    }) : [page];
    return Promise.all(sets.map(function (values) {
      var path = fill(section.path, [values], function (v) { return encodeURIComponent(String(v)); });
      if (!memo[path]) { memo[path] = get(path); }
      return memo[path].then(function (body) { return { values: values, body: body }; });
    }));
  }

  /** A section's rows: {label, value, figure, color}, from its fixed figures or from the rows of its answers. */
  function rows(section, answers) {
    var all = [];
    answers.filter(function (a) { return a.body !== null; }).forEach(function (answer) {
      if (section.figures) {
        section.figures.forEach(function (f) {
          all.push({ label: f.label, value: sum(answer.body, f.sum) || 0, figure: f.figure, color: f.color });
        });
        return;
      }
      var spec = section.rows;
      var items = spec.items ? field(answer.body, spec.items) || [] : [answer.body];
      items.forEach(function (item) {
        var sources = [item, answer.values];
        var value = field(item, spec.value);
        all.push({ label: label(spec.label, sources), value: typeof value === "number" ? value : 0,
          figure: spec.figure ? fill(spec.figure, sources, String) : null });
      });
    });
    return all;
  }

  /** The Totals card: the tiles of every domain, then one per other number of the answers (a counter with no tile). */
  function renderTotals(card, read) {
    var tiles = [], named = {}, bodies = [];
    read.forEach(function (r) {
      r.answers.forEach(function (answer) {
        if (answer.body === null) { return; }
        if (bodies.indexOf(answer.body) < 0) { bodies.push(answer.body); }
        r.section.figures.forEach(function (f) {
          f.sum.forEach(function (name) { named[name] = true; });
          tiles.push(tile(f.label, fmt(sum(answer.body, f.sum)), f.figure));
        });
      });
    });
    var total = 0;
    bodies.forEach(function (body) {
      Object.keys(body).forEach(function (key) {
        if (typeof body[key] === "number" && !named[key]) { tiles.push(tile(key, fmt(body[key]))); }
      });
      total += everyNumber(body);
    });
    replace(card.body, tiles);
    if (bodies.length > 0) { show("empty", total === 0); }
  }

  /** The sum of every number in an answer, however deep: zero when nothing is counted yet. */
  function everyNumber(value) {
    if (typeof value === "number") { return value; }
    if (value === null || typeof value !== "object") { return 0; }
    return Object.keys(value).reduce(function (total, key) { return total + everyNumber(value[key]); }, 0);
  }

  function render(card, read, page) {
    var section = card.sections[0];
    var answers = read[0].answers;
    card.heading.textContent = fill(section.title, [page], String) || section.title;
    if (section.kind === "totals") {
      renderTotals(card, read);
    } else if (section.kind === "bars") {
      hbars(card.body, rows(section, answers), section.color);
    } else if (section.kind === "days") {
      vbars(card.body, rows(section, answers), section.color);
    } else if (section.kind === "tables") {
      replace(card.body, answers.map(function (answer) {
        var box = el("div");
        if (section.each) { box.appendChild(el("h3", {}, answer.values[section.each.placeholder])); }
        box.appendChild(table(rows(section, answer.body === null ? [] : [answer]), section.rows.columns || []));
        return box;
      }));
    }
  }

  /**
   * Reads and draws a card; hidden while the server lacks its routes or every answer is a 404. A section read for
   * each of several values shows even when it has none yet (it says so).
   */
  function refreshCard(card, page, memo) {
    var present = card.sections.filter(function (section) { return has(section.route); });
    if (present.length === 0) { card.node.hidden = true; return Promise.resolve(); }
    return Promise.all(present.map(function (section) {
      return answers(section, page, memo).then(function (answers) { return { section: section, answers: answers }; });
    })).then(function (read) {
      var visible = read.some(function (r) {
        return r.section.each || r.answers.some(function (answer) { return answer.body !== null; });
      });
      card.node.hidden = !visible;
      if (visible) { render(card, read, page); }
    });
  }

  // ------------------------------------------------------------------------------------------- page's own

  function renderPipeline(text) {
    var metrics = {};
    text.split("\n").forEach(function (line) {
      if (line === "" || line.charAt(0) === "#") { return; }
      var match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{[^}]*\})? ([-+0-9.eE]+|NaN)$/.exec(line.trim());
      if (match) { metrics[match[1]] = (metrics[match[1]] || 0) + Number(match[3]); }
    });
    var processed = metrics.tally_poller_records_processed || 0;
    var now = Date.now();
    var rate = null;
    if (lastMetrics && now > lastMetrics.at) {
      rate = Math.max(0, (processed - lastMetrics.processed) * 1000 / (now - lastMetrics.at));
    }
    lastMetrics = { at: now, processed: processed };
    replace($("pipeline-grid"), [
      tile("Stream lag", seconds(metrics.tally_poller_lag_seconds || 0), "pipeline.lag"),
      tile("Records processed", fmt(processed), "pipeline.processed"),
      tile("Records/s", rate === null ? "…" : number.format(Math.round(rate)), "pipeline.rate"),
      tile("Poison records", fmt(metrics.tally_stream_poison_total || 0), "pipeline.poison"),
      tile("Batches discarded", fmt(metrics.tally_poller_batches_discarded || 0), "pipeline.discarded")
    ]);
  }

  function feedItem(at, type, what) {
    var li = el("li");
    li.appendChild(el("time", {}, time(at)));
    li.appendChild(el("span", { "class": "type" }, type));
    li.appendChild(el("span", { "class": "what" }, what));
    return li;
  }

  function describe(detail) {
    return Object.keys(detail || {}).filter(function (key) { return /Id$/.test(key) && key !== "eventId"; })
      .map(function (key) { return key.replace(/Id$/, "") + " " + detail[key]; }).join(", ");
  }

  function renderActivity(page) {
    var items = page.items || [];
    items.forEach(function (item) { remember(item.detail); });
    replace($("activity-list"), items.length === 0 ? [el("li", { "class": "none" }, "No activity yet.")]
      : items.map(function (item) { return feedItem(item.time, item.detailType, describe(item.detail)); }));
  }

  function renderEvents(page) {
    var items = page.items || [];
    items.forEach(function (item) { remember(item.event.detail); });
    replace($("events-list"), items.length === 0 ? [el("li", { "class": "none" }, "No events yet.")]
      : items.map(function (item) {
        return feedItem(item.event.time, item.event["detail-type"], describe(item.event.detail));
      }));
  }

  // ---------------------------------------------------------------------------------------------- refresh

  function section(id, route, load, render) {
    if (!has(route)) { show(id, false); return Promise.resolve(); }
    return load().then(function (data) {
      show(id, data !== null);
      if (data !== null) { render(data); }
    });
  }

  function refresh() {
    var page = pageValues();
    var memo = {};
    // The feeds first: they name values some sections are read for (the organisations of the head counts).
    var feeds = Promise.all([
      section("activity", "GET /activity", function () { return get("/activity?limit=15"); }, renderActivity),
      section("events", "GET /events", function () { return get("/events?limit=12"); }, renderEvents)
    ]);
    return feeds.then(function () {
      return Promise.all([
        section("pipeline", "GET /metrics", function () { return getText("/metrics"); }, renderPipeline)
      ].concat(cards.map(function (card) { return refreshCard(card, page, memo); })));
    });
  }

  function loop() {
    refresh().then(function () {
      $("live").className = "dot ok";
      $("status").textContent = "live · updated " + new Date().toLocaleTimeString("en-GB", { hour12: false });
      document.body.setAttribute("data-refreshes", String(Number(document.body.getAttribute("data-refreshes")) + 1));
    }, function (error) {
      $("live").className = "dot stale";
      $("status").textContent = "not updated: " + error.message + " (retrying)";
    }).then(function () { window.setTimeout(loop, REFRESH_MS); });
  }

  Promise.all([get("/dashboard/routes.json"), get("/dashboard/sections.json")]).then(function (bodies) {
    routes = bodies[0].routes;
    buildCards(bodies[1].sections);
    loop();
  }, function (error) {
    $("status").textContent = "cannot read the routes and sections: " + error.message;
  });
})();
