// Runs site/assets/javascripts/search-exact.js in a minimal fake DOM (mkdocs-material's result list) and types
// each query of argv[4] (a JSON array) into the search box; prints [[query, {error, inserted}], ...] as JSON.
"use strict";
const fs = require("fs");
const vm = require("vm");
const [script, indexJson, queriesJson] = process.argv.slice(2);

function element() {
  return {
    children: [], className: "", textContent: "",
    append() {}, appendChild() {}, remove() {}, setAttribute() {}, hasAttribute() { return false; },
    querySelector() { return null; }, querySelectorAll() { return []; },
    insertBefore(child) { this.children.unshift(child); this.inserted = (this.inserted || 0) + 1; },
  };
}

const input = { value: "" };
const list = element();
const handlers = {};
const document = {
  currentScript: { src: "https://example.test/site/assets/javascripts/search-exact.js" },
  readyState: "complete",
  body: { children: [] },
  querySelector(selector) {
    if (selector === "input.md-search__input") return input;
    if (selector === ".md-search-result__list") return list;
    return null;
  },
  querySelectorAll() { return []; },
  addEventListener(name, handler) { (handlers[name] = handlers[name] || []).push(handler); },
  createElement() { return element(); },
};
const context = {
  document, URL, location: { href: "https://example.test/site/" },
  MutationObserver: class { observe() {} disconnect() {} },
  fetch: () => Promise.resolve({ ok: true, json: () => Promise.resolve(JSON.parse(indexJson)) }),
  console,
};
vm.createContext(context);
vm.runInContext(fs.readFileSync(script, "utf8"), context);

setTimeout(() => {
  const results = [];
  for (const query of JSON.parse(queriesJson)) {
    input.value = query;
    list.children = [];
    list.inserted = 0;
    let error = null;
    try { handlers.input.forEach((handler) => handler()); } catch (caught) { error = String(caught); }
    results.push([query, { error, inserted: list.inserted }]);
  }
  process.stdout.write(JSON.stringify(results));
}, 50);
