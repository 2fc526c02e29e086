/* neuron-compat: the tested-configurations page. Reads api/configurations.json once, filters its rows by family,
 * instance, stack, release and dtype, and sorts them by any column (measured columns by their value in one unit
 * per metric, `sort` in the JSON). Rows without a value sort last whatever the direction. Text goes in with
 * textContent only, and links only to https URLs. */
(function () {
  "use strict";

  function compareValues(a, b) {
    if (typeof a === "number" && typeof b === "number") return a - b;
    return String(a).localeCompare(String(b), undefined, { numeric: true });
  }

  function sortKey(row, key) {
    if (key.indexOf("m:") === 0) {
      var cells = row.measured[key.slice(2)];
      return cells && cells.length ? cells[0].sort : null;
    }
    var value = row[key];
    return value === undefined ? null : value;
  }

  function initConfigurations(root) {
    var controls = {};
    Array.prototype.forEach.call(root.querySelectorAll("[data-nc-cfilter]"), function (control) {
      controls[control.getAttribute("data-nc-cfilter")] = control;
    });
    var body = root.querySelector("[data-nc-crows]");
    var countEl = root.querySelector("[data-nc-ccount]");
    var siteRoot = root.getAttribute("data-nc-root") || "";
    var data = null;
    var sort = { key: "family", descending: false };

    function keep(row) {
      for (var name in controls) {
        var wanted = controls[name].value;
        if (!wanted) continue;
        var value = row[name];
        if (name === "release" && wanted === "(unknown)") { if (value !== null) return false; continue; }
        if (value !== wanted) return false;
      }
      return true;
    }

    function cell(tr, text) {
      var td = document.createElement("td");
      td.textContent = text === null || text === undefined ? "–" : String(text);
      tr.appendChild(td);
      return td;
    }

    function link(td, href, text) {
      td.textContent = "";
      var a = document.createElement("a");
      a.href = href;
      a.textContent = text;
      td.appendChild(a);
    }

    function draw() {
      var rows = data.configurations.filter(keep);
      rows.sort(function (a, b) {
        var x = sortKey(a, sort.key), y = sortKey(b, sort.key);
        if (x === null && y === null) return compareValues(a.id, b.id);
        if (x === null) return 1;
        if (y === null) return -1;
        var order = compareValues(x, y);
        if (order === 0) return compareValues(a.id, b.id);
        return sort.descending ? -order : order;
      });
      body.textContent = "";
      rows.forEach(function (row) {
        var tr = document.createElement("tr");
        tr.setAttribute("data-nc-id", row.id);
        link(cell(tr, ""), siteRoot + row.family_url, row.family_name);
        cell(tr, row.checkpoint);
        cell(tr, row.stack + (row.stack_version ? " " + row.stack_version : ""));
        cell(tr, row.release === null ? "not stated" : row.release);
        cell(tr, row.instance === null ? "not stated" : row.instance);
        cell(tr, row.tp);
        cell(tr, row.batch_size);
        cell(tr, row.sequence_length);
        cell(tr, row.dtype);
        cell(tr, row.outcome);
        data.metrics.forEach(function (metric) {
          var cells = row.measured[metric.id] || [];
          var td = cell(tr, cells.length ? cells.map(function (c) { return c.text; }).join("; ") : null);
          td.setAttribute("data-nc-metric", metric.id);
        });
        cell(tr, row.validated);
        var source = cell(tr, "");
        if (/^https:\/\//.test(row.source_url)) link(source, row.source_url, row.evidence);
        else source.textContent = row.evidence;
        body.appendChild(tr);
      });
      if (countEl) countEl.textContent = String(rows.length);
      Array.prototype.forEach.call(root.querySelectorAll("[data-nc-sort]"), function (button) {
        var active = button.getAttribute("data-nc-sort") === sort.key;
        button.parentNode.setAttribute("aria-sort", active ? (sort.descending ? "descending" : "ascending") : "none");
      });
    }

    Object.keys(controls).forEach(function (name) { controls[name].addEventListener("change", function () { if (data) draw(); }); });
    Array.prototype.forEach.call(root.querySelectorAll("[data-nc-sort]"), function (button) {
      button.addEventListener("click", function () {
        var key = button.getAttribute("data-nc-sort");
        sort = { key: key, descending: sort.key === key ? !sort.descending : false };
        if (data) draw();
      });
    });
    fetch(root.getAttribute("data-nc-data"))
      .then(function (response) { if (!response.ok) throw new Error(response.status); return response.json(); })
      .then(function (loaded) { data = loaded; draw(); })
      .catch(function () { if (countEl) countEl.textContent = "(could not load the configurations data)"; });
  }

  function start() {
    Array.prototype.forEach.call(document.querySelectorAll("[data-nc-configurations]"), initConfigurations);
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
