/* neuron-compat site behaviour: copy-link buttons and the matrix filters / release selector.
 * No dependencies, no network except the matrix's own api/matrix.json, which the matrix is drawn from. */
(function () {
  "use strict";

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
  /* The rows live in arrays drawn from api/matrix.json; only the first `pageSize` matching rows are
   * in the DOM, so a keystroke costs a filter over arrays plus at most one page of new rows. */
  /* Each row's state at `release` (views.cell_at: holds / not-yet / ended / no-statement), read from the spans
   * [first, last, state] that api/matrix.json precomputes per row; nothing about ranges is worked out here. */
  function statesAt(data, release) {
    var position = data.releases.indexOf(release);
    return data.cells.map(function (spans) {
      for (var i = 0; i < spans.length; i++) {
        if (spans[i][0] <= position && position <= spans[i][1]) return spans[i][2];
      }
      return { kind: "no-statement" };
    });
  }

  /* What holds at `release`, per row: each held statement with the status drawn there and the hardware it holds on. */
  function heldAt(data, release) {
    return statesAt(data, release).map(function (state) {
      if (state.kind !== "holds") return [];
      return state.held.map(function (entry) {
        var s = data.statements[entry[0]];
        return { status: entry[1], hardware: entry[2], dtypes: s.dtypes, attention: s.attention, since: s.since,
          stale: !!s.stale, note: entry[1] === "unknown" ? s.note : null,
          dtypesOrigin: s.dtypes_origin ? [s.dtypes_origin] : [], attentionOrigin: s.attention_origin ? [s.attention_origin] : [] };
      });
    });
  }

  function initMatrix(root) {
    var controls = {};
    Array.prototype.forEach.call(root.querySelectorAll("[data-nc-filter]"), function (control) {
      controls[control.getAttribute("data-nc-filter")] = control;
    });
    var countEl = root.querySelector("[data-nc-count]");
    var totalEl = root.querySelector("[data-nc-total]");
    var shownEl = root.querySelector("[data-nc-shown]");
    var releaseEl = root.querySelector("[data-nc-release]");
    var body = root.querySelector("[data-nc-rows]");
    var more = root.querySelector("[data-nc-more]");
    var sinceHead = root.querySelector("[data-nc-last-column]");
    var newest = root.getAttribute("data-nc-newest");
    var dataUrl = root.getAttribute("data-nc-data");
    var siteRoot = root.getAttribute("data-nc-root") || "";
    var pageSize = parseInt(root.getAttribute("data-nc-page-size"), 10) || 200;
    var data = null;
    var rows = [];       // every row at the current release
    var matches = [];    // the rows the filters keep
    var drawn = 0;       // how many of `matches` are in the DOM
    var currentRelease = null;

    function value(name) {
      var control = controls[name];
      if (!control) return "";
      if (control.type === "checkbox") return control.checked ? "1" : "";
      return control.value.trim();
    }

    function badge(status, row) {
      var span = document.createElement("span");
      span.className = "nc-status nc-status--" + ((data && data.status_css[status]) || "none");
      span.textContent = (data && data.statuses[status]) || status;
      span.setAttribute("data-nc-cell", status);
      if (status === "ended" && row.at) {
        span.textContent = "ended at " + row.at;
        if (row.through) span.title = "held through " + row.through;
      } else if (status === "not-yet") {
        span.textContent = "not yet (from " + row.at + ")";
      } else if (status === "unknown" && row.notes.length) {
        span.title = row.notes.join("\n");  // why it is unknown; the family page (the row's link) has the rest
      }
      return span;
    }

    function cell(tr, css, text) {
      var td = document.createElement("td");
      if (css) td.className = css;
      if (text !== undefined) td.textContent = text;
      tr.appendChild(td);
      return td;
    }

    // Effective values (views/inherited_capabilities.py) and where they come from: the family's statement or the stack.
    function valuesCell(tr, css, values, origins) {
      var td = cell(tr, css, values.join(", "));
      if (values.length && origins.length) {
        var origin = document.createElement("span");
        origin.className = "nc-origin";
        origin.textContent = " (" + origins.map(function (o) { return data.origin_labels[o] || o; }).join("; ") + ")";
        td.appendChild(origin);
      }
      return td;
    }

    function rowElement(row) {
      var tr = document.createElement("tr");
      tr.className = "nc-row nc-row--" + (data.status_css[row.status[0]] || "none");
      tr.setAttribute("data-family", row.family);
      tr.setAttribute("data-stack", row.stack);
      tr.setAttribute("data-workload", row.workload);
      tr.setAttribute("data-status", row.status.join(" "));
      if (row.role) tr.setAttribute("data-role", row.role);
      tr.setAttribute("data-hardware", row.hardware.join(" "));
      tr.setAttribute("data-dtype", row.dtype.join(" "));
      tr.setAttribute("data-attention", row.attention.join(" "));
      if (row.stale) tr.setAttribute("data-stale", "1");
      var link = document.createElement("a");
      link.href = siteRoot + row.url + "#" + row.stack + "-" + row.workload;
      link.textContent = row.name;
      cell(tr).appendChild(link);
      cell(tr, "", row.stackName);
      cell(tr, "", row.workload);
      var status = cell(tr, "nc-cell-status");
      row.status.forEach(function (s, n) {
        if (n) status.appendChild(document.createTextNode(" "));
        if (s === "unknown" && row.notes.length) {  // the reason is one click away: the statement on the family page
          var why = document.createElement("a");
          why.href = link.href;
          why.className = "nc-cell-note";
          why.appendChild(badge(s, row));
          status.appendChild(why);
        } else {
          status.appendChild(badge(s, row));
        }
      });
      cell(tr, "nc-cell-hardware", row.hardware.join(", "));
      valuesCell(tr, "nc-cell-dtype", row.dtype, row.dtypeOrigin);
      valuesCell(tr, "nc-cell-attention", row.attention, row.attentionOrigin);
      cell(tr, "nc-cell-since", row.since.join(", "));
      return tr;
    }

    function drawMore() {
      var end = Math.min(matches.length, drawn + pageSize);
      var fragment = document.createDocumentFragment();
      for (var i = drawn; i < end; i++) fragment.appendChild(rowElement(matches[i]));
      body.appendChild(fragment);
      drawn = end;
      showMoreState();
      document.dispatchEvent(new Event("nc:rows"));  // the table may no longer fit its column
    }

    function showMoreState() {
      if (more) {
        more.hidden = drawn >= matches.length;
        more.textContent = "Show " + Math.min(pageSize, matches.length - drawn) + " more";
      }
      if (shownEl) shownEl.textContent = drawn < matches.length ? " (showing the first " + drawn + ")" : "";
    }

    /* Whether the `count` rows in the DOM (the start of `before`) are still right for `after`: the
     * same rows first, and neither more rows than match nor fewer than a page. */
    function sameStart(before, after, count) {
      if (count > after.length || count < Math.min(pageSize, after.length)) return false;
      for (var i = 0; i < count; i++) if (before[i] !== after[i]) return false;
      return true;
    }

    function apply() {
      if (!data) { saveState(); return; }
      var stack = value("stack"), workload = value("workload"), hardware = value("hardware");
      var status = value("status"), dtype = value("dtype"), attention = value("attention");
      var withData = value("with_data"), onlyStale = value("stale");
      var terms = words(value("q").toLowerCase());
      var textMatch = {};  // family id -> whether its search text holds every term: once per family, not per row
      var before = matches;
      var later = [];  // the rows with no statement, drawn after the others
      matches = [];
      for (var i = 0; i < rows.length; i++) {
        var row = rows[i];
        var match = (!stack || row.stack === stack) &&
          (!workload || row.workload === workload) &&
          (!hardware || row.hardware.indexOf(hardware) >= 0) &&
          (!status || row.status.indexOf(status) >= 0) &&
          (!dtype || row.dtype.indexOf(dtype) >= 0) &&
          (!attention || row.attention.indexOf(attention) >= 0) &&
          (!withData || row.holds) &&
          (!onlyStale || row.stale);
        if (match && terms.length) {
          var known = textMatch[row.family];
          if (known === undefined) {
            known = true;
            for (var t = 0; known && t < terms.length; t++) {
              if (row.text.indexOf(terms[t]) < 0) known = false;
            }
            textMatch[row.family] = known;
          }
          match = known;
        }
        if (match) (row.status.indexOf("none") < 0 ? matches : later).push(row);
      }
      matches = matches.concat(later);  // rows with a statement first: the first screen answers something
      if (!sameStart(before, matches, drawn)) {  // a keystroke that keeps the drawn rows touches no DOM
        body.textContent = "";
        drawn = 0;
        drawMore();
      } else {
        showMoreState();
      }
      if (countEl) countEl.textContent = String(matches.length);
      if (totalEl) totalEl.textContent = String(rows.length);
      saveState();
    }

    function saveState() {
      var params = new URLSearchParams(location.search);
      Object.keys(controls).forEach(function (name) {
        var v = value(name);
        if (name === "release" && v === newest) v = "";
        // a checkbox on by default (only rows with a statement) is in the URL only when turned off: "=0"
        var control = controls[name];
        if (control.type === "checkbox" && control.hasAttribute("data-nc-default")) v = v ? "" : "0";
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
        if (control.type === "checkbox") control.checked = params.get(name) !== "0" && params.get(name) !== "";
        else control.value = params.get(name);
      });
    }

    function unique(values) {
      var seen = {};
      return values.filter(function (v) { if (seen[v]) return false; seen[v] = true; return true; });
    }

    function union(list, key) {
      var seen = {};
      list.forEach(function (s) { (s[key] || []).forEach(function (v) { seen[v] = true; }); });
      return Object.keys(seen).sort();
    }

    /* Today's answer (api/matrix.json `today`, from views.answer): one row per family x workload x hardware with
     * the stack to install, then the other stacks that claim it; a row "holds" when its status comes from a claim.
     * Its dtypes and attention are those of the statements its claim rests on (t[9], chosen by the build): none
     * for an answer no claim backs. The last column is where to install (or, for an ended row, the last release
     * that held). */
    function todayRows() {
      return (data.today || []).map(function (t) {
        var family = data.families[t[0]] || { name: t[0], url: "families/" + t[0] + "/", text: t[0] };
        var stack = t[1] ? (data.stacks[t[1]] || {}).name || t[1] : "–";
        var at = t[5] ? "Neuron " + t[5] + (t[6] ? ", " + t[1] + " " + t[6] : "") : "";
        if (at && t[4] === "ended") at = "last held: " + at;
        var backing = (t[9] || []).map(function (n) {
          var s = data.statements[n];
          return { dtypes: s.dtypes, attention: s.attention,
            dtypesOrigin: s.dtypes_origin ? [s.dtypes_origin] : [], attentionOrigin: s.attention_origin ? [s.attention_origin] : [] };
        });
        return {
          family: t[0], stack: t[1] || "", workload: t[2], name: family.name, url: family.url, text: family.text,
          stackName: t[7] === "alternative" ? stack + " (alternative)" : stack, role: t[7],
          status: [t[4]], holds: Boolean(t[1]), at: null, through: null,  // holds: a stack's statement answers it
          notes: [], hardware: [t[3]], dtype: union(backing, "dtypes"), attention: union(backing, "attention"),
          dtypeOrigin: union(backing, "dtypesOrigin"), attentionOrigin: union(backing, "attentionOrigin"),
          since: at ? [at] : [], stale: Boolean(t[8])
        };
      });
    }

    /* The last column's heading says what it holds: the release to install at (today) or the statements' `since`. */
    function nameLastColumn(release) {
      if (sinceHead) sinceHead.textContent = release === "today" ? "Install at (ended: last held)" : "Since";
    }

    function drawRelease(release) {
      nameLastColumn(release);
      if (release === "today") {
        rows = todayRows();
        currentRelease = release;
        if (releaseEl) releaseEl.textContent = "today (what you can install)";
        apply();
        return;
      }
      var order = Object.keys(data.statuses);
      var held = heldAt(data, release);
      var states = statesAt(data, release);
      rows = data.rows.map(function (key, i) {
        var list = held[i];
        var state = states[i];
        var family = data.families[key[0]] || { name: key[0], url: "families/" + key[0] + "/", text: key[0] };
        var stack = data.stacks[key[1]] || {};
        var statuses = list.length ? union(list.map(function (s) { return { v: [s.status] }; }), "v")
          : [state.kind === "ended" || state.kind === "not-yet" ? state.kind : "none"];
        statuses.sort(function (a, b) { return order.indexOf(a) - order.indexOf(b); });
        var sinces = {};
        list.forEach(function (s) { if (s.since) sinces[s.since] = true; });
        return {
          family: key[0], stack: key[1], workload: key[2],
          name: family.name, url: family.url, text: family.text, stackName: stack.name || key[1],
          status: statuses, holds: list.length > 0, at: state.release || null, through: state.held_through || null,
          notes: unique(list.map(function (s) { return s.note; }).filter(Boolean)),
          hardware: union(list, "hardware"), dtype: union(list, "dtypes"), attention: union(list, "attention"),
          dtypeOrigin: union(list, "dtypesOrigin"), attentionOrigin: union(list, "attentionOrigin"),
          since: Object.keys(sinces).sort(),
          stale: list.some(function (s) { return s.stale; })
        };
      });
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
        if (release !== "today" && data.releases.indexOf(release) < 0) {
          release = newest || data.newest_release;
          if (controls.release) controls.release.value = release;
        }
        drawRelease(release);
        root.classList.add("nc-ready");
      }).catch(function () {
        root.classList.remove("nc-loading");
        if (releaseEl) releaseEl.textContent = release + " (could not load the matrix data)";
      });
    }

    var form = root.querySelector("form.nc-filters");
    if (form) form.addEventListener("submit", function (event) { event.preventDefault(); apply(); });
    if (more) more.addEventListener("click", function () {
      var first = drawn;
      drawMore();
      // The last page hides the button, which would drop keyboard focus to the page: move it to the first new row.
      var row = more.hidden ? body.querySelectorAll("tr.nc-row")[first] : null;
      var link = row ? row.querySelector("a") : null;
      if (link) link.focus();
    });
    loadState();
    Object.keys(controls).forEach(function (name) {
      var control = controls[name];
      if (name === "q") control.addEventListener("input", debounce(apply, 150));
      else if (name === "release") control.addEventListener("change", selectRelease);
      else control.addEventListener("change", apply);
    });
    selectRelease();
  }

  /* ---- folded sections -------------------------------------------------------------------- */
  /* A family page folds its evidence (statements, tested configurations, probe) into <details class="nc-fold">.
   * A permalink (#anchor) or a search hit (?h=words, Material's search.highlight) that lands inside opens it. */
  function openAround(element) {
    for (var node = element; node; node = node.parentElement) {
      if (node.tagName === "DETAILS" && !node.open) node.open = true;
    }
  }

  // A #fragment as an id; a malformed escape (`#%E0%A4%A`) is taken as written, never a URIError that stops the page.
  function fragmentId(hash) {
    try {
      return decodeURIComponent(hash);
    } catch (error) {
      return hash;
    }
  }

  function openTarget() {
    var id = location.hash ? fragmentId(location.hash.slice(1)) : "";
    var target = id ? document.getElementById(id) : null;
    if (!target) return;
    openAround(target);
    target.scrollIntoView({ block: "start" });
  }

  function openSearchHits() {
    var words = (new URLSearchParams(location.search).get("h") || "").toLowerCase().split(/\s+/).filter(Boolean);
    if (!words.length) return;
    Array.prototype.forEach.call(document.querySelectorAll("details.nc-fold"), function (fold) {
      var text = fold.textContent.toLowerCase();
      if (words.every(function (w) { return text.indexOf(w) >= 0; })) fold.open = true;
    });
  }

  function initFolds() {
    if (!document.querySelector("details")) return;
    openSearchHits();
    openTarget();
    window.addEventListener("hashchange", openTarget);
    document.addEventListener("click", function (event) {  // an in-page link to a folded anchor
      var link = event.target.closest ? event.target.closest("a[href^='#']") : null;
      var target = link ? document.getElementById(fragmentId(link.getAttribute("href").slice(1))) : null;
      if (target) openAround(target);
    });
  }

  /* ---- tables that do not fit ------------------------------------------------------------ */
  /* Every content table whose natural width exceeds its column is shown as labelled rows (one block per row,
   * each cell after its column's name, from data-label or else the header cell), re-checked on resize. */
  function labelCells(table) {
    var heads = table.tHead ? table.tHead.rows[table.tHead.rows.length - 1].cells : [];
    Array.prototype.forEach.call(table.tBodies, function (body) {
      Array.prototype.forEach.call(body.rows, function (row) {
        Array.prototype.forEach.call(row.cells, function (cell, i) {
          if (!cell.hasAttribute("data-label") && heads[i]) cell.setAttribute("data-label", heads[i].textContent.trim());
          var text = cell.textContent.trim();  // stacked, an empty cell ("–") is left out: one line less per row
          if (i > 0 && (text === "" || text === "\u2013" || text === "-")) cell.setAttribute("data-nc-empty", "");
          else cell.removeAttribute("data-nc-empty");
          if (!/\s/.test(text) && text.length > 22) cell.setAttribute("data-nc-wide", "");  // a long identifier
        });
      });
    });
  }

  function fitTable(table) {
    var column = document.querySelector(".md-content__inner") || document.body;
    table.classList.remove("nc-stacked");
    if (!table.offsetParent) return;  // folded away: checked again when opened
    // The room is what is left of the column right of the table's left edge (Material's scroll wrapper lets a
    // table reach past the column into the margin; that counts as too wide here).
    var right = column.getBoundingClientRect().right;
    var holder = table.closest(".nc-statement, .nc-fold, .nc-probe, li, td") || column;  // a card or fold it sits in
    if (holder !== column) {
      var style = getComputedStyle(holder);
      right = Math.min(right, holder.getBoundingClientRect().right - parseFloat(style.paddingRight) - parseFloat(style.borderRightWidth));
    }
    var box = table.getBoundingClientRect();
    var room = right - box.left;
    if (box.width > room + 0.5 || table.scrollWidth > room + 0.5 || table.scrollWidth > table.clientWidth + 1) {
      labelCells(table);
      table.classList.add("nc-stacked");
      if (!table.ncObserved && window.MutationObserver) {  // rows redrawn by a page script (sorting) get labels too
        table.ncObserved = true;
        new MutationObserver(function () { labelCells(table); }).observe(table, { childList: true, subtree: true });
      }
    }
  }

  function fitTables() {
    Array.prototype.forEach.call(document.querySelectorAll(".md-typeset table"), fitTable);
  }

  function initTables() {
    fitTables();
    window.addEventListener("resize", debounce(fitTables, 100));
    document.addEventListener("toggle", function (event) {
      if (event.target.open) Array.prototype.forEach.call(event.target.querySelectorAll("table"), fitTable);
    }, true);
    document.addEventListener("nc:rows", function () { fitTables(); });
  }

  function init() {
    initCopyLinks();
    initFolds();
    Array.prototype.forEach.call(document.querySelectorAll("[data-nc-matrix]"), initMatrix);
    initTables();
  }

  if (typeof module === "object" && module.exports) {  // node (the parity test): the pure parts only
    module.exports = { heldAt: heldAt, statesAt: statesAt };
    return;
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init);
  else init();
})();
