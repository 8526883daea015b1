/*
 * Tally dashboard. Plain JavaScript, no library, no build step: it reads only the read side (precomputed figures,
 * never a scan) and redraws every few seconds.
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
  var ID = /^[A-Za-z0-9_-]{1,64}$/;
  var number = new Intl.NumberFormat("en-US");
  var compact = new Intl.NumberFormat("en-US", { notation: "compact", maximumFractionDigits: 1 });
  var params = new URLSearchParams(window.location.search);
  var routes = null;
  var lastMetrics = null;
  var knownOrgs = loadKnownOrgs();

  var LABELS = {
    users: "Users", posts: "Posts", comments: "Comments", items: "Catalogue items", completed: "Completed",
    orgs: "Organisations", employees: "Employees", downloads: "Downloads", favourites: "Favourites"
  };

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

  /** Vertical bars over days, with a few date labels and the largest value as the scale. */
  function vbars(container, days, color) {
    var width = Math.max(240, container.clientWidth || 360), height = 180, left = 40, bottom = 22;
    var max = Math.max.apply(null, days.map(function (d) { return d.downloads; }).concat([1]));
    var chart = svg("svg", { viewBox: "0 0 " + width + " " + height, role: "img" });
    var step = (width - left) / Math.max(days.length, 1);
    chart.appendChild(svg("text", { x: 0, y: 12, "class": "axis" }, compact.format(max)));
    chart.appendChild(svg("text", { x: 0, y: height - bottom, "class": "axis" }, "0"));
    days.forEach(function (d, i) {
      var h = (height - bottom - 8) * d.downloads / max;
      var bar = svg("rect", { x: left + i * step + 1, y: height - bottom - h, width: Math.max(1, step - 2),
        height: h, fill: color });
      bar.appendChild(svg("title", {}, d.day + ": " + number.format(d.downloads)));
      chart.appendChild(bar);
      // Weekly labels counted back from the last day, which is always labelled (anchored at its bar's right edge).
      var last = i === days.length - 1;
      if ((days.length - 1 - i) % 7 === 0) {
        chart.appendChild(svg("text", { x: last ? left + (i + 1) * step : left + i * step, y: height - 6,
          "class": "axis", "text-anchor": last ? "end" : "start" }, d.day.slice(5)));
      }
    });
    replace(container, [chart]);
  }

  // ---------------------------------------------------------------------------------------------- sections

  function renderGlobal(global) {
    var tiles = [];
    var total = 0;
    Object.keys(global).forEach(function (key) {
      var value = global[key];
      if (key === "posts" && value && typeof value === "object") {
        var live = (value.created || 0) + (value.updated || 0);
        total += live + (value.deleted || 0);
        tiles.push(tile("Posts (not deleted)", fmt(live), "global.posts.live"));
      } else if (typeof value === "number") {
        total += value;
        tiles.push(tile(LABELS[key] || key, fmt(value), "global." + key));
      }
    });
    replace($("totals-grid"), tiles);
    show("empty", total === 0);
    var posts = global.posts || {};
    hbars($("posts-chart"), ["created", "updated", "deleted"].map(function (status) {
      return { label: status, value: posts[status] || 0, figure: "global.posts." + status,
        color: status === "deleted" ? "#9aa5b1" : status === "updated" ? "#13a383" : "#2f6fdf" };
    }), "#2f6fdf");
  }

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

  function renderTopSongs(chart) {
    $("top-songs-month").textContent = chart.month;
    hbars($("top-songs-chart"), (chart.items || []).map(function (song) {
      return { label: song.title || song.songId, value: song.downloads, figure: "songs.top." + song.songId };
    }), "#8a5cd6");
  }

  function renderSelectors(results) {
    replace($("selectors-list"), results.map(function (result) {
      var box = el("div");
      box.appendChild(el("h3", {}, result.selector));
      var items = result.page ? result.page.items : [];
      if (items.length === 0) { box.appendChild(el("p", { "class": "none" }, "No items.")); return box; }
      var table = el("table");
      var head = el("tr");
      head.appendChild(el("th", {}, "#"));
      head.appendChild(el("th", {}, "Item"));
      head.appendChild(el("th", { "class": "num" }, "Score"));
      table.appendChild(head);
      items.forEach(function (item, i) {
        var tr = el("tr");
        tr.appendChild(el("td", {}, i + 1));
        tr.appendChild(el("td", {}, item.title ? item.title + " (" + item.itemId + ")" : item.itemId));
        tr.appendChild(el("td", { "class": "num", "data-figure": "selector." + result.selector + "." + item.itemId },
          fmt(item.score)));
        table.appendChild(tr);
      });
      box.appendChild(table);
      return box;
    }));
  }

  function renderOrgs(stats) {
    var found = stats.filter(function (s) { return s.body; });
    hbars($("orgs-chart"), found.map(function (s) {
      return { label: s.body.orgId + " (" + number.format(s.body.teams) + " teams)", value: s.body.employees,
        figure: "org." + s.body.orgId + ".employees" };
    }), "#d9822b");
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
    items.forEach(function (item) { rememberOrg(item.detail); });
    replace($("activity-list"), items.length === 0 ? [el("li", { "class": "none" }, "No activity yet.")]
      : items.map(function (item) { return feedItem(item.time, item.detailType, describe(item.detail)); }));
  }

  function renderEvents(page) {
    var items = page.items || [];
    items.forEach(function (item) { rememberOrg(item.event.detail); });
    replace($("events-list"), items.length === 0 ? [el("li", { "class": "none" }, "No events yet.")]
      : items.map(function (item) {
        return feedItem(item.event.time, item.event["detail-type"], describe(item.event.detail));
      }));
  }

  // ------------------------------------------------------------------------------------ organisations known

  function loadKnownOrgs() {
    var orgs = [];
    try { orgs = JSON.parse(window.localStorage.getItem("tally.orgs") || "[]"); } catch (e) { orgs = []; }
    (params.get("orgs") || "").split(",").forEach(function (id) { if (id) { orgs.unshift(id); } });
    return orgs.filter(function (id, i) { return ID.test(id) && orgs.indexOf(id) === i; }).slice(0, 20);
  }

  function rememberOrg(detail) {
    var id = detail && detail.orgId;
    if (id && ID.test(id) && knownOrgs.indexOf(id) < 0) {
      knownOrgs.push(id);
      try { window.localStorage.setItem("tally.orgs", JSON.stringify(knownOrgs.slice(0, 20))); } catch (e) { /* private mode */ }
    }
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
    var month = new Date().toISOString().slice(0, 7);
    var to = new Date();
    var from = new Date(to.getTime() - 29 * 86400000);
    var selectors = (params.get("selectors") || "back-catalogue,global-cycle:5").split(",").filter(Boolean);
    // The feeds first: they name the organisations the head counts are read for.
    var feeds = Promise.all([
      section("activity", "GET /activity", function () { return get("/activity?limit=15"); }, renderActivity),
      section("events", "GET /events", function () { return get("/events?limit=12"); }, renderEvents)
    ]);
    return feeds.then(function () {
      return Promise.all([
        section("totals", "GET /stats/global", function () { return get("/stats/global"); }, renderGlobal),
        section("pipeline", "GET /metrics", function () { return getText("/metrics"); }, renderPipeline),
        section("top-songs", "GET /charts/downloads/{month}",
          function () { return get("/charts/downloads/" + month + "?limit=10"); }, renderTopSongs),
        section("downloads", "GET /stats/downloads/days",
          function () { return get("/stats/downloads/days?from=" + utcDay(from) + "&to=" + utcDay(to)); },
          function (body) { vbars($("downloads-chart"), body.days || [], "#13a383"); }),
        section("selectors", "GET /selectors/{selector}", function () {
          return Promise.all(selectors.map(function (selector) {
            return get("/selectors/" + encodeURIComponent(selector) + "?limit=5")
              .then(function (page) { return { selector: selector, page: page }; });
          }));
        }, renderSelectors),
        section("orgs", "GET /stats/orgs/{orgId}", function () {
          return Promise.all(knownOrgs.map(function (orgId) {
            return get("/stats/orgs/" + encodeURIComponent(orgId)).then(function (body) { return { body: body }; });
          }));
        }, renderOrgs)
      ]);
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

  get("/dashboard/routes.json").then(function (body) {
    routes = body.routes;
    loop();
  }, function (error) {
    $("status").textContent = "cannot read the routes: " + error.message;
  });
})();
