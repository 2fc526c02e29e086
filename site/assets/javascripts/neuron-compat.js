/* neuron-compat site behaviour: copy-link buttons and the matrix filters / release selector.
 * No dependencies, no network except the matrix's own api/matrix.json (only when another release is chosen).
 * Filtering reads an index built once from the rows' data attributes and only toggles `hidden`. */
(function () {
  "use strict";

  var STATUS_CSS = {
    "supported": "supported",
    "supported-with-requirements": "requirements",
    "partial": "partial",
    "unsupported": "unsupported",
    "unknown": "unknown",
    "none": "none"
  };

  function words(value) {
    return value ? value.split(" ").filter(Boolean) : [];
  }

  function debounce(fn, ms) {
    var timer = null;
    return function () {
      clearTimeout(timer);
      timer = setTimeout(fn, ms);
    };
  }

  /* ---- copy link -------------------------------------------------------------------------- */
  function initCopyLinks() {
    document.addEventListener("click", function (event) {
      var link = event.target.closest ? event.target.closest("[data-nc-copy]") : null;
      if (!link) return;
      event.preventDefault();
      var anchor = link.getAttribute("data-nc-copy");
      var url = location.origin + location.pathname + "#" + anchor;
      history.replaceState(null, "", "#" + anchor);
      var target = document.getElementById(anchor);
      if (target) target.scrollIntoView({ block: "start" });
      var label = link.textContent;
      function done(text) {
        link.textContent = text;
        link.classList.add("nc-copied");
        setTimeout(function () { link.textContent = label; link.classList.remove("nc-copied"); }, 1500);
      }
      if (navigator.clipboard && navigator.clipboard.writeText) {
        navigator.clipboard.writeText(url).then(function () { done("Copied"); }, function () { done("Link in address bar"); });
      } else {
        done("Link in address bar");
      }
    });
  }

  /* ---- matrix ----------------------------------------------------------------------------- */
  function initMatrix(root) {
    var rows = Array.prototype.slice.call(root.querySelectorAll("tr.nc-row"));
    var index = rows.map(function (el) {
      return {
        el: el,
        stack: el.getAttribute("data-stack"),
        workload: el.getAttribute("data-workload"),
        status: words(el.getAttribute("data-status")),
        hardware: words(el.getAttribute("data-hardware")),
        dtype: words(el.getAttribute("data-dtype")),
        attention: words(el.getAttribute("data-attention")),
        text: el.getAttribute("data-text") || "",
        stale: el.hasAttribute("data-stale"),
        shown: true
      };
    });
    var controls = {};
    Array.prototype.forEach.call(root.querySelectorAll("[data-nc-filter]"), function (control) {
      controls[control.getAttribute("data-nc-filter")] = control;
    });
    var countEl = root.querySelector("[data-nc-count]");
    var releaseEl = root.querySelector("[data-nc-release]");
    var newest = root.getAttribute("data-nc-newest");
    var dataUrl = root.getAttribute("data-nc-data");
    var data = null;
    var currentRelease = newest;

    function value(name) {
      var control = controls[name];
      if (!control) return "";
      if (control.type === "checkbox") return control.checked ? "1" : "";
      return control.value.trim();
    }

    function apply() {
      var stack = value("stack"), workload = value("workload"), hardware = value("hardware");
      var status = value("status"), dtype = value("dtype"), attention = value("attention");
      var withData = value("with_data"), onlyStale = value("stale");
      var terms = words(value("q").toLowerCase());
      var shown = 0;
      for (var i = 0; i < index.length; i++) {
        var row = index[i];
        var match = (!stack || row.stack === stack) &&
          (!workload || row.workload === workload) &&
          (!hardware || row.hardware.indexOf(hardware) >= 0) &&
          (!status || row.status.indexOf(status) >= 0) &&
          (!dtype || row.dtype.indexOf(dtype) >= 0) &&
          (!attention || row.attention.indexOf(attention) >= 0) &&
          (!withData || row.status.indexOf("none") < 0) &&
          (!onlyStale || row.stale);
        for (var t = 0; match && t < terms.length; t++) {
          if (row.text.indexOf(terms[t]) < 0) match = false;
        }
        if (match !== row.shown) {
          row.el.hidden = !match;
          row.shown = match;
        }
        if (match) shown++;
      }
      if (countEl) countEl.textContent = String(shown);
      saveState();
    }

    function saveState() {
      var params = new URLSearchParams(location.search);
      Object.keys(controls).forEach(function (name) {
        var v = value(name);
        if (name === "release" && v === newest) v = "";
        if (v) params.set(name, v); else params.delete(name);
      });
      var query = params.toString();
      history.replaceState(null, "", location.pathname + (query ? "?" + query : "") + location.hash);
    }

    function loadState() {
      var params = new URLSearchParams(location.search);
      Object.keys(controls).forEach(function (name) {
        if (!params.has(name)) return;
        var control = controls[name];
        if (control.type === "checkbox") control.checked = params.get(name) === "1";
        else control.value = params.get(name);
      });
    }

    function badge(status) {
      var span = document.createElement("span");
      span.className = "nc-status nc-status--" + (STATUS_CSS[status] || "none");
      span.textContent = (data && data.statuses[status]) || status;
      return span;
    }

    function setCell(row, css, text) {
      var cell = row.el.querySelector(css);
      if (cell && cell.textContent !== text) cell.textContent = text;
    }

    function union(list, key) {
      var seen = {};
      list.forEach(function (s) { (s[key] || []).forEach(function (v) { seen[v] = true; }); });
      return Object.keys(seen).sort();
    }

    function drawRelease(release) {
      var position = data.releases.indexOf(release);
      var order = Object.keys(data.statuses);
      var held = index.map(function () { return []; });
      function at(version, missing) {
        return version === null || version === undefined ? missing : data.releases.indexOf(version);
      }
      data.statements.forEach(function (s) {
        if (position < at(s.since, -1) || position >= at(s.until, Infinity)) return;
        // Drawn as views.cells_at draws it: nothing when the stack is not shipped at this release,
        // "unknown" past the release that a separately released stack's newest version targets.
        var stack = data.stacks[s.stack] || {};
        if (position < at(stack.since, -1) || position >= at(stack.end_of_support, Infinity)) return;
        var status = s.status;
        if (position > at(stack.horizon, Infinity) && status !== "unknown") status = "unknown";
        held[s.row].push({ status: status, hardware: s.hardware, dtypes: s.dtypes, attention: s.attention, since: s.since, stale: !!s.stale });
      });
      for (var i = 0; i < index.length; i++) {
        var row = index[i], list = held[i];
        var statuses = list.length ? union(list.map(function (s) { return { v: [s.status] }; }), "v") : ["none"];
        statuses.sort(function (a, b) { return order.indexOf(a) - order.indexOf(b); });
        var key = statuses.join(" ");
        if (key !== row.status.join(" ")) {
          row.status = statuses;
          row.el.setAttribute("data-status", key);
          row.el.className = "nc-row nc-row--" + (STATUS_CSS[statuses[0]] || "none");
          var cell = row.el.querySelector(".nc-cell-status");
          cell.textContent = "";
          statuses.forEach(function (s, n) { if (n) cell.appendChild(document.createTextNode(" ")); cell.appendChild(badge(s)); });
        }
        row.stale = list.some(function (s) { return s.stale; });
        if (row.stale) row.el.setAttribute("data-stale", "1"); else row.el.removeAttribute("data-stale");
        row.hardware = union(list, "hardware");
        row.dtype = union(list, "dtypes");
        row.attention = union(list, "attention");
        row.el.setAttribute("data-hardware", row.hardware.join(" "));
        row.el.setAttribute("data-dtype", row.dtype.join(" "));
        row.el.setAttribute("data-attention", row.attention.join(" "));
        setCell(row, ".nc-cell-hardware", row.hardware.join(", "));
        setCell(row, ".nc-cell-dtype", row.dtype.join(", "));
        setCell(row, ".nc-cell-attention", row.attention.join(", "));
        var sinces = {};
        list.forEach(function (s) { if (s.since) sinces[s.since] = true; });
        setCell(row, ".nc-cell-since", Object.keys(sinces).sort().join(", "));
      }
      currentRelease = release;
      if (releaseEl) releaseEl.textContent = release;
      apply();
    }

    function selectRelease() {
      var release = value("release") || newest;
      if (release === currentRelease) { apply(); return; }
      if (data) { drawRelease(release); return; }
      root.classList.add("nc-loading");
      fetch(dataUrl).then(function (response) {
        if (!response.ok) throw new Error(response.status);
        return response.json();
      }).then(function (json) {
        data = json;
        root.classList.remove("nc-loading");
        drawRelease(release);
      }).catch(function () {
        root.classList.remove("nc-loading");
        if (controls.release) controls.release.value = currentRelease;
        if (releaseEl) releaseEl.textContent = currentRelease + " (could not load other releases)";
      });
    }

    var form = root.querySelector("form.nc-filters");
    if (form) form.addEventListener("submit", function (event) { event.preventDefault(); apply(); });
    loadState();
    Object.keys(controls).forEach(function (name) {
      var control = controls[name];
      if (name === "q") control.addEventListener("input", debounce(apply, 150));
      else if (name === "release") control.addEventListener("change", selectRelease);
      else control.addEventListener("change", apply);
    });
    root.classList.add("nc-ready");
    if (value("release") && value("release") !== newest) selectRelease(); else apply();
  }

  function init() {
    initCopyLinks();
    Array.prototype.forEach.call(document.querySelectorAll("[data-nc-matrix]"), initMatrix);
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init);
  else init();
})();
