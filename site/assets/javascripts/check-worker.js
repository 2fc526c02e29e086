/*
 * neuron-compat: the check page's Web Worker. It loads Python (Pyodide, pinned, every file checked against its
 * integrity hash) and the package's own check code (api/check/python.zip, written by `neuron-compat site`), then
 * answers with neuron_compat.commands.check_page: the functions `neuron-compat check --json` and `explain --json`
 * run. It computes nothing itself. Messages in: {id, kind: "check"|"explain", runtime, ...}; out: {id, progress}
 * while loading, then {id, result} or {id, failure}.
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
    text(api("registry.json")), text(api("configurations.json"))
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
  pyodide.globals.set("nc_registry_text", loaded[1]);
  pyodide.globals.set("nc_configurations_text", loaded[2]);
  pyodide.globals.set("nc_api_url", api("."));
  pyodide.runPython(BOOT_PYTHON);
  stages.imports_and_registry = performance.now() - begun - stages.python - stages.downloads_waited;
  bootMs = stages;
  return pyodide;
}

// The glue: the archive on sys.path, the registry as the CLI reads a document, the probe read per model type.
var BOOT_PYTHON = [
  "import json, re, sys",
  "sys.path.insert(0, '/neuron_compat_page/python.zip')",
  "import js",
  "from neuron_compat.check.compiled_view import CompiledRegistry",
  "from neuron_compat.commands import check_page",
  "class PageRegistry(CompiledRegistry):",
  "    def probe_for(self, model_type):",
  "        if not model_type or not re.fullmatch(r'[A-Za-z0-9_][A-Za-z0-9_.-]{0,127}', model_type):",
  "            return None",
  "        text = js.ncFetchTextSync(nc_api_url + 'probe/' + model_type + '.json')",
  "        found = json.loads(text) if text else None",
  "        return found if isinstance(found, dict) else None",
  "nc_document = json.loads(nc_registry_text)",
  "nc_document['configurations'] = json.loads(nc_configurations_text)",
  "nc_registry = PageRegistry(nc_document)",
  "del nc_registry_text, nc_configurations_text",
  "nc_known_issues = None",
  "def nc_check(config_text, options_json, checkpoint):",
  "    answer = check_page.check_answer(config_text, nc_registry, json.loads(options_json), nc_api_url + 'registry.json', checkpoint or None)",
  "    return json.dumps(answer)",
  "def nc_explain(error_text, stack, issues_text):",
  "    global nc_known_issues",
  "    if nc_known_issues is None:",
  "        nc_known_issues = json.loads(issues_text)",
  "        nc_document['known_issues'] = nc_known_issues",
  "    return json.dumps(check_page.explain_answer(error_text, nc_registry, nc_api_url + 'registry.json', stack or None))",
].join("\n");

var knownIssues = null;

self.onmessage = async function (event) {
  var message = event.data;
  var post = function (line) { self.postMessage({ id: message.id, progress: line }); };
  try {
    if (!ready) ready = boot(message.runtime, post).catch(function (error) { ready = null; throw error; });
    if (message.kind === "warm") { ready.catch(function () {}); return; }  // the question follows; it reports a failure
    var pyodide = await ready;
    var started = performance.now();
    var answer;
    if (message.kind === "explain") {
      if (knownIssues === null) knownIssues = await text(new URL("known-issues.json", message.runtime.url).href);
      answer = pyodide.globals.get("nc_explain")(message.text, message.stack || "", knownIssues);
    } else {
      answer = pyodide.globals.get("nc_check")(message.text, JSON.stringify(message.options || {}), message.checkpoint || "");
    }
    var result = JSON.parse(answer);
    if (bootMs) { result.boot_ms = Object.assign({ answer: performance.now() - started }, bootMs); bootMs = null; }
    self.postMessage({ id: message.id, result: result, ms: performance.now() - started });
  } catch (error) {
    self.postMessage({ id: message.id, failure: String(error && error.message || error).split("\n").slice(-2).join(" ") });
  }
};
