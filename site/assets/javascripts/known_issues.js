// The known-issues page's filters: stack, component, hardware, release (listed in, or fixed in) and kind, over
// entries folded by component and release (<details>): each fold counts what the filters keep.
(function () {
  "use strict";
  function key(v) { return v ? v.split(".").map(function (p) { return ("000" + p).slice(-3); }).join(".") : ""; }
  function setup() {
    var form = document.querySelector("form[data-nc-known-issues]");
    if (!form || form.dataset.ncReady) { return; }
    form.dataset.ncReady = "1";
    var items = Array.prototype.slice.call(document.querySelectorAll(".nc-known-issues .nc-issue"));
    var count = form.querySelector(".nc-ki-count");
    var groups = Array.prototype.slice.call(document.querySelectorAll(".nc-known-issues details.nc-ki-group, .nc-known-issues details.nc-ki-release"));
    var FEW = 30;  // a filter leaving at most this many entries opens the folds that hold them
    function apply() {
      var f = {};
      ["stack", "component", "hardware", "release", "kind"].forEach(function (n) { f[n] = form.elements[n].value; });
      var shown = 0;
      items.forEach(function (el) {
        var d = el.dataset;
        var ok = (!f.stack || (" " + d.stacks + " ").indexOf(" " + f.stack + " ") >= 0)
          && (!f.component || d.component === f.component)
          && (!f.hardware || !d.hardware || (" " + d.hardware + " ").indexOf(" " + f.hardware + " ") >= 0)
          && (!f.kind || d.kind === f.kind);
        if (ok && f.release) {
          var r = key(f.release);
          ok = d.fixed === f.release || (d.first !== "" && key(d.first) <= r && r <= key(d.last));
        }
        el.hidden = !ok;
        if (ok) { shown += 1; }
      });
      count.textContent = shown + " shown";
      var filtered = ["stack", "component", "hardware", "release", "kind"].some(function (n) { return f[n]; });
      groups.forEach(function (group) {  // each fold says how many of its entries the filters keep; empty ones go
        var kept = group.querySelectorAll(".nc-issue:not([hidden])").length;
        group.hidden = kept === 0;
        var label = group.querySelector(":scope > summary .nc-ki-group-count");
        if (label) { label.textContent = "(" + kept + ")"; }
        if (filtered && shown <= FEW) { group.open = kept > 0; }
      });
    }
    function reveal() {  // a permalink to an entry the filters hide clears the filters
      var id = location.hash.slice(1);
      try { id = decodeURIComponent(id); } catch (error) { /* a malformed escape: the fragment as written */ }
      var target = id ? document.getElementById(id) : null;
      if (target && target.closest(".nc-issue") && target.closest(".nc-issue").hidden) {
        Array.prototype.forEach.call(form.querySelectorAll("select"), function (s) { s.value = ""; });
        apply();
      }
      if (target && target.closest(".nc-issue")) {  // the folds that hold it open (neuron-compat.js opens them too)
        for (var node = target; node; node = node.parentElement) { if (node.tagName === "DETAILS") { node.open = true; } }
        target.scrollIntoView();
      }
    }
    form.addEventListener("change", apply);
    window.addEventListener("hashchange", reveal);
    apply();
    reveal();
  }
  if (window.document$ && window.document$.subscribe) { window.document$.subscribe(setup); } else { document.addEventListener("DOMContentLoaded", setup); }
})();
