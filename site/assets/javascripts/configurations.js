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

    function cell(tr, text, label) {
      var td = document.createElement("td");
      td.textContent = text === null || text === undefined ? "–" : String(text);
      td.setAttribute("data-label", label);
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
        link(cell(tr, "", "Family"), siteRoot + row.family_url, row.family_name);
        var checkpoint = cell(tr, row.checkpoint, "Checkpoint");
        if (row.checkpoint_url) link(checkpoint, siteRoot + row.checkpoint_url, row.checkpoint);
        cell(tr, row.stack + (row.stack_version ? " " + row.stack_version : ""), "Stack");
        cell(tr, row.release === null ? "release not stated" + (row.derived_release ?
          " (current then: " + row.derived_release + ", derived from the date)" : "") : row.release, "Release");
        cell(tr, row.instance === null ? "not stated" : row.instance, "Instance");
        var layout = [["TP", row.tp], ["PP", row.pp], ["EP", row.ep], ["DP", row.dp], ["LNC", row.lnc]]
          .filter(function (p) { return p[1]; }).map(function (p) { return p[0] + "=" + p[1]; }).join(" ");
        cell(tr, layout || null, "Parallelism");
        cell(tr, row.batch_size, "Batch");
        cell(tr, row.sequence_length, "Seq len");
        cell(tr, row.dtype, "Dtype");
        cell(tr, row.outcome + (row.outcome_qualifier ? " (" + row.outcome_qualifier + ")" : ""), "Outcome");
        data.metrics.forEach(function (metric) {
          var cells = row.measured[metric.id] || [];
          var td = cell(tr, cells.length ? cells.map(function (c) { return c.text; }).join("; ") : null, metric.label);
          td.setAttribute("data-nc-metric", metric.id);
          if (!cells.length) td.className = "nc-cfg-empty";
        });
        cell(tr, row.validated, "Validated");
        var source = cell(tr, "", "Source");
        if (/^https:\/\//.test(row.source_url)) link(source, row.source_url, row.evidence);
        else source.textContent = row.evidence;
        if (row.notes && row.notes.length) {
          var notes = cell(tr, "", "Notes");
          var details = document.createElement("details");
          var summary = document.createElement("summary");
          summary.textContent = row.notes.length + " note" + (row.notes.length === 1 ? "" : "s");
          details.appendChild(summary);
          row.notes.forEach(function (text) {
            var p = document.createElement("p");
            p.textContent = text;
            details.appendChild(p);
          });
          notes.textContent = "";
          notes.appendChild(details);
        }
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
