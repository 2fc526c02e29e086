/*
 * neuron-compat: the check page's Web Worker. It loads Python (Pyodide, pinned, every file checked against its
 * integrity hash) and the package's own check code (api/check/python.zip, written by `neuron-compat site`), then
 * answers with neuron_compat.check.page: the answer pipeline `neuron-compat check --json` and `explain --json`
 * run, over the registry document, its configurations and its known issues. It computes nothing itself: the
 * pasted text goes to Python as the bytes a file of it would hold (UTF-8; a lone surrogate as bytes no UTF-8
 * reader accepts), so the page reads it as `check` and `explain` read a file.
 * Messages in: {id, kind: "warm"|"check"|"explain", runtime, ...}; out: {id, progress} while loading, then
 * {id, result} or {id, failure, stage}: stage "runtime" when Python or the check code could not be downloaded
 * (with `from`, where it comes from), "fatal" when Python itself broke (the worker closes; the page starts a
 * new one for the next question), "answer" otherwise.
 */
"use strict";

var hashes = {};  // absolute URL -> its subresource-integrity hash
var plainFetch = self.fetch.bind(self);
// Every fetch of a pinned file (Pyodide's own, of its wasm, stdlib and lock file) carries the file's hash.
self.fetch = function (input, init) {
  var url = new URL(typeof input === "string" || input instanceof URL ? String(input) : input.url, self.location.href).href;
  if (hashes[url]) init = Object.assign({}, init || {}, { integrity: hashes[url] });
  return plainFetch(input, init);
};

// The probe of one model type is read when an answer asks for it (a synchronous request: workers may).
self.ncFetchTextSync = function (url) {
  var request = new XMLHttpRequest();
  request.open("GET", url, false);
  request.send();
  return request.status === 200 ? request.responseText : null;
};

var ready = null;

// The pasted text as the bytes a UTF-8 file of it holds; a lone surrogate (no file can hold one as UTF-8) as its
// three generalized-UTF-8 bytes, which Python's strict UTF-8 reading refuses as `check` refuses such a file.
function fileBytes(text) {
  if (!/[\uD800-\uDFFF]/.test(text)) return new TextEncoder().encode(text);
  var out = [];
  for (var i = 0; i < text.length; i++) {
    var point = text.codePointAt(i);  // a pair is one code point; a lone surrogate is its own unit
    if (point > 0xFFFF) i += 1;
    if (point < 0x80) out.push(point);
    else if (point < 0x800) out.push(0xC0 | point >> 6, 0x80 | point & 63);
    else if (point < 0x10000) out.push(0xE0 | point >> 12, 0x80 | point >> 6 & 63, 0x80 | point & 63);
    else out.push(0xF0 | point >> 18, 0x80 | point >> 12 & 63, 0x80 | point >> 6 & 63, 0x80 | point & 63);
  }
  return new Uint8Array(out);
}

function lastLines(error) {
  return String(error && error.message || error).split("\n").slice(-2).join(" ");
}

async function importChecked(url) {
  var response = await self.fetch(url);
  if (!response.ok) throw new Error("HTTP " + response.status + " for " + url);
  var blob = new Blob([await response.text()], { type: "text/javascript" });
  var blobUrl = URL.createObjectURL(blob);
  try {
    return await import(blobUrl);
  } finally {
    URL.revokeObjectURL(blobUrl);
  }
}

async function text(url) {
  var response = await self.fetch(url);
  if (!response.ok) throw new Error("HTTP " + response.status + " for " + url);
  return response.text();
}

var bootMs = null;  // where the first answer's time went (scripts/benchmark.py prints it)

async function boot(runtime, post) {
  var begun = performance.now(), stages = {};
  var base = new URL(runtime.pyodide.url, runtime.url).href;
  Object.keys(runtime.pyodide.integrity).forEach(function (name) { hashes[new URL(name, base).href] = runtime.pyodide.integrity[name]; });
  Object.keys(runtime.files).forEach(function (name) { hashes[new URL(name, runtime.url).href] = runtime.files[name]; });
  var api = function (name) { return new URL(name, runtime.url).href; };  // beside runtime.json

  post("loading Python " + runtime.pyodide.version + " (about 6 MB, once; your browser keeps it)\u2026");
  // The check code and the registry download while Python starts (nothing waits for nothing).
  var data = Promise.all([
    self.fetch(api("python.zip")).then(function (r) { if (!r.ok) throw new Error("HTTP " + r.status); return r.arrayBuffer(); }),
    text(api("registry.json")), text(api("configurations.json")), text(api("known-issues.json"))
  ]);
  data.catch(function () {});  // its failure is reported where it is awaited
  var loader = await importChecked(new URL("pyodide.mjs", base).href);
  var asm = await importChecked(new URL("pyodide.asm.mjs", base).href);
  var pyodide = await loader.loadPyodide({ indexURL: base, createPyodideModule: asm.default, packages: [] });
  stages.python = performance.now() - begun;
  post("loading the check code and the registry\u2026");
  var loaded = await data;
  stages.downloads_waited = performance.now() - begun - stages.python;
  pyodide.FS.mkdirTree("/neuron_compat_page");
  pyodide.FS.writeFile("/neuron_compat_page/python.zip", new Uint8Array(loaded[0]));
  pyodide.runPython(BOOT_PYTHON);
  var session = pyodide.globals.get("page").PageSession(loaded[1], loaded[2], loaded[3], api("."), self.ncFetchTextSync);
  stages.imports_and_registry = performance.now() - begun - stages.python - stages.downloads_waited;
  bootMs = stages;
  return session;
}

// The archive on sys.path; the rest is the package's own module (neuron_compat.check.page): no Python here.
var BOOT_PYTHON = "import sys\nsys.path.insert(0, '/neuron_compat_page/python.zip')\nfrom neuron_compat.check import page";

self.onmessage = async function (event) {
  var message = event.data;
  var post = function (line) { self.postMessage({ id: message.id, progress: line }); };
  var session;
  try {
    if (!ready) ready = boot(message.runtime, post).catch(function (error) { ready = null; throw error; });
    if (message.kind === "warm") { ready.catch(function () {}); return; }  // the question follows; it reports a failure
    session = await ready;
  } catch (error) {
    var from = message.runtime && message.runtime.pyodide ? new URL(message.runtime.pyodide.url, message.runtime.url).href : "";
    self.postMessage({ id: message.id, failure: lastLines(error), stage: "runtime", from: from });
    return;
  }
  try {
    var started = performance.now();
    var bytes = fileBytes(String(message.text || ""));
    var answer = message.kind === "explain"
      ? session.explain(bytes, message.stack || "")
      : session.check(bytes, JSON.stringify(message.options || {}), message.checkpoint || "");
    var result = JSON.parse(answer);
    if (bootMs) { result.boot_ms = Object.assign({ answer: performance.now() - started }, bootMs); bootMs = null; }
    self.postMessage({ id: message.id, result: result, ms: performance.now() - started });
  } catch (error) {
    // A Python exception (PythonError, with its `type`) leaves Python usable; anything else (a stack overflow in
    // the wasm, "Pyodide already fatally failed") means this Python is gone: say so and close.
    var fatal = !(error && typeof error.type === "string");
    self.postMessage({ id: message.id, failure: lastLines(error), stage: fatal ? "fatal" : "answer" });
    if (fatal) self.close();
  }
};
