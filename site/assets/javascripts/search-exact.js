/* Exact identifiers first in the header search, on mkdocs-material and Zensical.
 *
 * The full-text search ranks by word statistics (`gemma` can rank Gemma 3 above Gemma). When the query, after
 * `normalize`, equals a family's model_type, class name, checkpoint id, repo name, id, name or alias (listed in
 * api/search-identifiers.json, written by src/neuron_compat/site/search_identifiers.py), that family's page is
 * moved to the top of the result list, or added there when the search did not return it. Other queries are
 * left as the engine ranked them. Nothing here touches the engine's index or worker.
 */
(function () {
  "use strict";

  var script = document.currentScript;
  if (!script || !script.src) return;
  var base = new URL("../../", script.src); // this file is assets/javascripts/search-exact.js
  var index = null;
  var loading = null;
  var MARK = "data-nc-exact";

  /* The same as search_identifiers.normalize in Python. */
  function normalize(text) {
    return String(text || "").trim().toLowerCase().replace(/[\s_-]+/g, "");
  }

  function load() {
    if (!loading) {
      loading = fetch(new URL("api/search-identifiers.json", base).toString())
        .then(function (response) { return response.ok ? response.json() : null; })
        .then(function (data) { index = data && data.identifiers ? data : { families: {}, identifiers: {} }; })
        .catch(function () { index = { families: {}, identifiers: {} }; });
    }
    return loading;
  }

  /* A key of the index as data only: `constructor`, `__proto__` or `toString` typed as a query is no entry. */
  function own(map, key) {
    return map && typeof map === "object" && Object.prototype.hasOwnProperty.call(map, key) ? map[key] : undefined;
  }

  function targets(query) {
    if (!index) return [];
    var ids = own(index.identifiers, normalize(query));
    if (!Array.isArray(ids)) return [];
    return ids.map(function (id) { return own(index.families, id); })
      .filter(function (family) { return family && typeof family.page === "string"; });
  }

  function pathOf(href) {
    try { return new URL(href, location.href).pathname; } catch (error) { return null; }
  }

  /* Where a link goes, as the re-ranking compares it: its path, and its #fragment when it has one. */
  function keyOf(href) {
    try { var url = new URL(href, location.href); return url.pathname + url.hash; } catch (error) { return null; }
  }

  /* The engine's own item for the page at `path` (an item of ours for it goes once the engine draws one). A target
   * inside a page (`hash`: an entry of the known-issues page, an instance) is always an item of ours, linking there:
   * the engine's item for that page is the whole page. */
  function itemFor(list, path, hash) {
    var ours = null;
    for (var i = 0; i < list.children.length; i++) {
      var item = list.children[i];
      var link = item.querySelector("a[href]");
      if (!link || pathOf(link.getAttribute("href")) !== path) continue;
      if (hash) {
        if (item.hasAttribute(MARK) && keyOf(link.getAttribute("href")) === path + hash) return item;
        continue;
      }
      if (!item.hasAttribute(MARK)) {
        if (ours) ours.remove();
        return item;
      }
      ours = ours || item;
    }
    return ours;
  }

  /* One engine's result list: where it is, the query, and how to draw an item the search did not return. */
  var material = {
    input: function () { return document.querySelector("input.md-search__input"); },
    list: function () { return document.querySelector(".md-search-result__list"); },
    container: function () { return document.querySelector(".md-search-result__list"); },
    item: function (family, href) {
      var li = document.createElement("li");
      li.className = "md-search-result__item";
      var a = document.createElement("a");
      a.className = "md-search-result__link";
      a.href = href;
      a.tabIndex = -1;
      var article = document.createElement("article");
      article.className = "md-search-result__article md-typeset";
      var icon = document.createElement("div");
      icon.className = "md-search-result__icon md-icon";
      var title = document.createElement("h1");
      title.textContent = family.title;
      var text = document.createElement("p");
      text.textContent = family.kind || "Model family page";
      article.append(icon, title, text);
      a.appendChild(article);
      li.appendChild(a);
      return li;
    },
  };

  function zensicalRoot() {
    var hosts = document.body ? document.body.children : [];
    for (var i = 0; i < hosts.length; i++) {
      var root = hosts[i].shadowRoot;
      if (root && root.querySelector("input[role=combobox]")) return root;
    }
    return null;
  }

  var zensical = {
    input: function () { var root = zensicalRoot(); return root && root.querySelector("input[role=combobox]"); },
    list: function () { var root = zensicalRoot(); return root && root.querySelector("ol"); },
    container: zensicalRoot, // its dialog redraws the list element itself
    ownsEnter: true,
    item: function (family, href, list) {
      // Drawn like the engine's own items: a copy of the first one with its texts replaced.
      var model = list.querySelector(":scope > li:not([" + MARK + "])");
      if (!model) return null;
      var li = model.cloneNode(true);
      var a = li.querySelector("a");
      if (!a) return null;
      a.href = href;
      a.classList.remove("h");
      var heading = li.querySelector("h2");
      if (heading) heading.textContent = family.title; else a.textContent = family.title;
      Array.prototype.forEach.call(li.querySelectorAll("menu li"), function (crumb, n) {
        crumb.textContent = n === 0 ? family.title : "";
      });
      Array.prototype.forEach.call(li.querySelectorAll("div"), function (div) {
        if (!div.querySelector("*") && div.textContent.trim()) div.textContent = family.kind || "Model family page";
      });
      return li;
    },
  };

  function apply(engine) {
    var input = engine.input();
    var list = engine.list();
    if (!input || !list) return;
    var wantedKeys = Object.create(null);
    // One item per place: two targets on one page without a #fragment are one item (moving it twice, to two
    // positions, made each redraw move it again, without end).
    var wanted = targets(input.value).filter(function (family) {
      var key = keyOf(new URL(family.page, base).toString());
      if (wantedKeys[key]) return false;
      wantedKeys[key] = true;
      return true;
    });
    // Items added for an earlier query go when they are not wanted now.
    Array.prototype.slice.call(list.querySelectorAll("[" + MARK + "]")).forEach(function (li) {
      var link = li.querySelector("a[href]");
      if (!link || !wantedKeys[keyOf(link.getAttribute("href"))]) li.remove();
    });
    if (!wanted.length) return;
    var query = encodeURIComponent(input.value.trim());
    var placed = 0;
    var moved = [];
    wanted.forEach(function (family) {
      var href = new URL(family.page, base);
      var li = itemFor(list, href.pathname, href.hash);
      if (!li) {
        href.search = "?h=" + query;
        li = engine.item(family, href.toString(), list);
        if (!li) return;
        li.setAttribute(MARK, "");
      }
      if (moved.indexOf(li) >= 0) return;  // the engine's item for a page two targets share: placed once
      moved.push(li);
      if (list.children[placed] !== li) list.insertBefore(li, list.children[placed] || null);
      placed += 1;
    });
  }

  /* Re-rank whenever the engine redraws its results (its own drawing, or ours: `apply` changes nothing when the
   * wanted items are already first, so the observer settles). */
  function watch(engine) {
    var observed = null;
    var observer = new MutationObserver(function () { apply(engine); });
    function attach() {
      var container = engine.container();
      if (container && container !== observed) {
        observer.disconnect();
        observer.observe(container, { childList: true, subtree: true });
        observed = container;
      }
      if (index) apply(engine); else load().then(function () { apply(engine); });
    }
    document.addEventListener("input", attach, true);
    document.addEventListener("keyup", attach, true);
    document.addEventListener("focusin", function () { load(); }, true);
    if (engine.ownsEnter) followTopOnEnter(engine);
    attach();
  }

  /* Zensical keeps its own keyboard selection (its first item, before the move): Enter in the search box,
   * before any arrow key since the last edit, opens the item now on top, as a click on it would. */
  function followTopOnEnter(engine) {
    var arrowed = false;
    document.addEventListener("keydown", function (event) {
      var input = engine.input();
      if (!input || event.composedPath()[0] !== input) return;
      if (/^Arrow(Up|Down)$/.test(event.key)) { arrowed = true; return; }
      if (event.key !== "Enter") { arrowed = false; return; }
      var list = engine.list();
      var top = list && list.querySelector(":scope > li > a[href]");
      if (arrowed || !top || !targets(input.value).length) return;
      event.preventDefault();
      event.stopPropagation();
      location.href = top.href;
    }, true);
  }

  function start() {
    watch(document.querySelector(".md-search-result__list") ? material : zensical);
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
