/*
 * neuron-compat: the "Check a model" page. It computes nothing: the answer comes from the package's own Python
 * (neuron_compat.check.page, the functions of `neuron-compat check --json` and `explain --json`), run by
 * Pyodide in check-worker.js, started when the visitor first types a question. The answer is drawn as a page from
 * the JSON answer (headline, a table of stacks, install lines to copy, the fit as a table, evidence and known
 * issues as linked lists), with textContent only: pasted and registry text never becomes HTML. Only the newest
 * question of each box is drawn (an answer to an earlier press is dropped). A worker that takes too long is
 * stopped; one whose Python broke is replaced for the next question; a runtime that cannot be downloaded is named,
 * with the offline route.
 */
(function () {
  "use strict";

  var LOAD_LIMIT_MS = 120000;  // the first answer loads Python (about 6 MB) first
  var ANSWER_LIMIT_MS = 20000;  // an answer once Python is loaded
  var script = document.currentScript;

  function element(tag, className, content) {
    var node = document.createElement(tag);
    if (className) node.className = className;
    if (content !== undefined && content !== null) node.textContent = String(content);
    return node;
  }

  function fillSelect(select, values, label) {
    if (!select) return;
    select.replaceChildren();
    select.appendChild(element("option", null, label)).value = "";
    values.forEach(function (value) { select.appendChild(element("option", null, value)).value = value; });
  }

  // A conservative shape for the hint's link only; `check` itself validates the id when it answers.
  function looksLikeRepoId(id) {
    return /^[A-Za-z0-9][A-Za-z0-9._-]{0,95}\/[A-Za-z0-9][A-Za-z0-9._-]{0,95}$/.test(id) && id.indexOf("..") < 0;
  }

  function assetUrl(path) {
    return new URL(path, script ? script.src : document.baseURI).href;
  }

  /* The worker: one at a time, started when a question is typed or asked, stopped (and forgotten) when it overruns or
   * its Python breaks. Questions queue in the worker; each has its own deadline. */
  var worker = null, booted = false, requests = {}, counter = 0;

  function failure(message, stage, from) {
    var error = new Error(message);
    error.stage = stage || "page";
    error.from = from || "";
    return error;
  }

  function startWorker() {
    worker = new Worker(assetUrl("check-worker.js"), { type: "module" });
    booted = false;
    worker.onmessage = function (event) {
      var data = event.data, request = requests[data.id];
      if (!request) return;  // a question already given up on
      if (data.progress) { request.onProgress(data.progress); return; }
      delete requests[data.id];
      clearTimeout(request.timer);
      if (data.failure) {
        if (data.stage === "fatal") restart();  // this Python is gone: the questions after it go to a new one
        request.reject(failure(data.failure, data.stage, data.from));
      } else { booted = true; request.resolve(data.result); }
    };
    worker.onerror = function (event) {
      event.preventDefault();
      stop("the Python worker failed (" + (event.message || "no message") + ")", "fatal");
    };
  }

  // Python starts loading once the visitor types or pastes a question (never on page load).
  function warm(runtime) {
    if (worker || !runtime) return;
    startWorker();
    worker.postMessage({ id: 0, kind: "warm", runtime: runtime });
  }

  function ask(message, runtime, onProgress) {
    return new Promise(function (resolve, reject) {
      if (!worker) startWorker();
      var container = document.getElementById("nc-check");
      var queued = Object.keys(requests).length;
      var limit = Number(container && container.getAttribute("data-limit-ms")) || (booted ? ANSWER_LIMIT_MS : LOAD_LIMIT_MS);
      counter += 1;
      message.id = counter;
      message.runtime = runtime;
      var request = { resolve: resolve, reject: reject, onProgress: onProgress, message: message };
      requests[counter] = request;
      request.timer = setTimeout(function () {
        stop("no answer within " + limit / 1000 + " s: the Python worker was stopped. Try again, or run neuron-compat check on your machine.", "timeout");
      }, limit * (queued + 1));
      worker.postMessage(message);
    });
  }

  // A new worker (loading Python again, from the browser's cache) for the questions still waiting.
  function restart() {
    var waiting = requests;
    if (worker) worker.terminate();
    worker = null;
    booted = false;
    if (!Object.keys(waiting).length) return;
    startWorker();
    requests = waiting;
    Object.keys(waiting).forEach(function (id) { worker.postMessage(waiting[id].message); });
  }

  // Stop the worker; every question still waiting is answered with `reason`.
  function stop(reason, stage) {
    if (worker) worker.terminate();
    worker = null;
    booted = false;
    var waiting = requests;
    requests = {};
    Object.keys(waiting).forEach(function (id) {
      clearTimeout(waiting[id].timer);
      waiting[id].reject(failure(reason, stage));
    });
  }

  /* Text from a link (?model=, a Hub id) shown as text: control, bidirectional and invisible characters as escapes,
   * never applied. As JSON's \uXXXX in a config (the same string inside a JSON string; outside one JSON refuses them
   * either way), as \u{...} in a Hub id, cut at 200 characters. */
  var HIDDEN = /[\u0000-\u001f\u007f-\u009f\u00ad\u061c\u180e\u200b-\u200f\u2028-\u202e\u2060-\u206f\ufeff\ufff9-\ufffb]|[\ud800-\udbff](?![\udc00-\udfff])|(?:^|[^\ud800-\udbff])[\udc00-\udfff]/g;
  function shown(text, json) {
    var escaped = String(text).replace(HIDDEN, function (found) {
      return found.split("").map(function (c) {
        var hex = c.charCodeAt(0).toString(16);
        return /[\u0020-\u007e]/.test(c) ? c : json ? "\\u" + ("000" + hex).slice(-4) : "\\u{" + hex + "}";
      }).join("");
    });
    return json || escaped.length <= 200 ? escaped : escaped.slice(0, 200) + "\u2026";
  }

  /* Drawing. */
  function showProgress(result, line) {
    result.setAttribute("data-status", "loading");
    result.replaceChildren(element("p", "nc-check-progress", line));
  }

  function showError(result, message, code, meaning) {
    result.replaceChildren();
    result.setAttribute("data-status", "error");
    if (code === undefined || code === null) result.removeAttribute("data-exit-code");
    else result.setAttribute("data-exit-code", String(code));
    result.appendChild(element("p", "nc-check-error", message));
    if (meaning) result.appendChild(element("p", "nc-check-exit", "neuron-compat check would exit " + code + ": " + meaning));
  }

  function codeBlock(lines, label) {  // lines to copy, with a Copy button
    var box = element("div", "nc-check-copy"), pre = box.appendChild(element("pre"));
    var code = pre.appendChild(element("code", null, lines.join("\n")));
    pre.setAttribute("aria-label", label);
    var button = box.appendChild(element("button", "md-button nc-check-copy-button", "Copy"));
    button.type = "button";
    button.addEventListener("click", function () {
      if (navigator.clipboard) navigator.clipboard.writeText(code.textContent).then(function () { button.textContent = "Copied"; }, function () {});
    });
    return box;
  }

  // What the visitor can do when the Python runtime (or the check code beside it) cannot be downloaded: the page's
  // own text (#nc-check-offline, in check.md) with where it comes from filled in.
  function showRuntimeFailure(result, error, version) {
    var where = new URL(error.from || assetUrl("../../api/check/"), document.baseURI);
    var help = document.getElementById("nc-check-offline").cloneNode(true);
    help.removeAttribute("id");
    help.hidden = false;
    help.querySelector("[data-nc-headline]").className = "nc-check-error";
    help.querySelector("[data-nc-what]").textContent = "Pyodide" + (version ? " " + version : "") + " from " +
      (where.origin === location.origin ? "this site" : where.host) + ": " + error.message;
    var source = help.querySelector("[data-nc-from]");
    source.textContent = source.href = where.href;
    result.replaceChildren(help);
    result.setAttribute("data-status", "error");
    result.setAttribute("data-failure", "runtime");
    result.removeAttribute("data-exit-code");
  }

  function siteUrl(path) {
    return new URL("../../" + path, script ? script.src : document.baseURI).href;
  }

  function familyUrl(familyId, anchor) {
    var url = new URL(siteUrl("families/" + encodeURIComponent(familyId) + "/"));
    if (anchor) url.hash = anchor;
    return url.href;
  }

  function link(text, href) {
    var a = element("a", null, text);
    a.href = href;
    return a;
  }

  /* The answer's blocks (neuron_compat.check.answer_page decides them): headings, paragraphs, tables, lists and
   * code to copy. A part is text, a status badge, an https link or a link to a page of this site. */
  function part(p) {
    if (p.badge) return element("strong", "nc-status nc-status--" + p.badge, p.badge);  // the site's status badge
    if (p.link !== undefined && p.page) return link(p.link, siteUrl(p.page));
    if (p.link !== undefined && /^https:\/\//.test(p.href || "")) {
      var a = link(p.link, p.href);
      a.rel = "noopener";
      return a;
    }
    return document.createTextNode(p.link !== undefined ? p.link : p.text);
  }

  function parts(node, list) {
    (list || []).forEach(function (p) { node.appendChild(part(p)); });
    return node;
  }

  function items(name, list) {
    var ul = element("ul", name ? "nc-answer-" + name : null);
    list.forEach(function (item) { ul.appendChild(parts(element("li"), item)); });
    return ul;
  }

  // A table the site's own code fits (neuron-compat.js): too wide for its column, each row becomes labelled lines.
  function table(block) {
    var wrap = element("div", "nc-answer-table nc-answer-" + block.name);
    var t = element("table");
    var head = t.createTHead().insertRow();
    block.headers.forEach(function (h) { head.appendChild(element("th", null, h)); });
    var body = t.createTBody();
    block.rows.forEach(function (row) {
      var tr = body.insertRow();
      row.forEach(function (content, i) {
        var td = element("td");
        if (content && content.list) td.appendChild(items(null, content.list));
        else parts(td, content);
        if (!td.textContent) td.textContent = "\u2013";
        td.setAttribute("data-label", block.headers[i]);
        tr.appendChild(td);
      });
    });
    wrap.appendChild(t);
    return wrap;
  }

  function drawBlocks(parent, blocks) {
    (blocks || []).forEach(function (block) {
      if (block.kind === "heading") {
        var h = element("h3", "nc-answer-heading", block.text);
        if (block.id) h.id = block.id;
        parent.appendChild(h);
      } else if (block.kind === "paragraph") parent.appendChild(parts(element("p"), block.parts));
      else if (block.kind === "list") parent.appendChild(items(block.name, block.items));
      else if (block.kind === "table") parent.appendChild(table(block));
      else if (block.kind === "code") parent.appendChild(codeBlock(block.lines, block.name));
    });
    document.dispatchEvent(new Event("nc:rows"));  // the site fits the new tables to the column
  }

  function terminalText(lines, summary, label) {
    var details = element("details", "nc-check-terminal");
    details.appendChild(element("summary", null, summary));
    var text = element("pre", "nc-check-text", lines.join("\n"));
    text.setAttribute("aria-label", label);
    text.tabIndex = 0;
    details.appendChild(text);
    return details;
  }

  function jsonText(json, summary) {
    var details = element("details", "nc-check-json");
    details.appendChild(element("summary", null, summary));
    details.appendChild(element("pre", null, json));
    return details;
  }

  function showAnswer(result, answer) {
    var verdict = JSON.parse(answer.json);  // the headline and blocks are Python's, hidden characters escaped
    result.replaceChildren();
    result.removeAttribute("data-failure");
    result.setAttribute("data-status", verdict.status);
    result.setAttribute("data-exit-code", String(answer.exit_code));
    var headline = element("p", "nc-check-summary");
    headline.appendChild(part({ badge: verdict.status }));
    headline.appendChild(document.createTextNode(" \u2014 " + answer.headline));
    result.appendChild(headline);
    result.appendChild(element("p", "nc-check-exit", "neuron-compat check would exit " + answer.exit_code + ": " + answer.meaning));
    if (verdict.family) {
      var family = element("p", "nc-check-family", "Family: ");
      family.appendChild(link(verdict.family.name, familyUrl(verdict.family.id)));
      (verdict.answers || []).forEach(function (a) {
        if (!a.anchor) return;
        var row = link(a.stack_name + " (" + a.workload + ")", familyUrl(verdict.family.id, a.anchor));
        row.className = "nc-check-row-link";
        row.setAttribute("data-stack", a.stack);
        row.setAttribute("data-workload", a.workload);
        family.appendChild(document.createTextNode(" \u00b7 "));
        family.appendChild(row);
      });
      result.appendChild(family);
    }
    drawBlocks(result, answer.blocks);
    result.appendChild(terminalText(answer.lines, "As neuron-compat check prints it", "The answer as neuron-compat check prints it"));
    result.appendChild(jsonText(answer.json, "The same answer as JSON (neuron-compat check --json)"));
  }

  function showExplain(out, answer) {
    out.replaceChildren();
    out.removeAttribute("data-failure");
    out.setAttribute("data-status", answer.meaning);
    out.setAttribute("data-exit-code", String(answer.exit_code));
    drawBlocks(out, answer.blocks);
    out.appendChild(terminalText(answer.lines, "As neuron-compat explain prints it", "The answer as neuron-compat explain prints it"));
    out.appendChild(jsonText(answer.json, "As JSON (neuron-compat explain --json)"));
  }

  function value(container, selector) {
    var input = container.querySelector(selector);
    return input && input.value.trim() ? input.value.trim() : null;
  }

  function start() {
    var container = document.getElementById("nc-check");
    if (!container || container.getAttribute("data-ready")) return;
    container.setAttribute("data-ready", "loading");
    var result = container.querySelector("#nc-check-result");
    var textarea = container.querySelector("#nc-check-config");
    var hubInput = container.querySelector("#nc-check-hub-id");
    var runtimeUrl = container.getAttribute("data-runtime") || assetUrl("../../api/check/runtime.json");
    var runtime = null;
    var fetchedId = null;  // the Hub id whose config.json the box holds (the tested configurations match it)

    // Each box draws only its newest question's answer: an earlier press's answer (or error) arriving later is
    // dropped, never painted over the newer one.
    var newest = { check: 0, explain: 0 };

    function failed(box, out, error) {
      if (error.stage === "runtime") showRuntimeFailure(out, error, runtime && runtime.pyodide && runtime.pyodide.version);
      else if (error.stage === "fatal") showError(out, "The page's Python stopped (" + error.message + "); it starts again for your next question. The same input on your machine: neuron-compat " + box + ".");
      else showError(out, error.message);
    }

    function run(checkpoint) {
      if (!runtime) return showError(result, "The page has not loaded yet.");
      var text = textarea.value;
      if (!text.trim()) return showError(result, "Paste a config.json or model_index.json first.");
      var options = { neuron: value(container, "#nc-check-release"), stack: value(container, "#nc-check-stack"),
        workload: value(container, "#nc-check-workload"), hardware: value(container, "#nc-check-hardware"),
        task: value(container, "#nc-check-task"), batch: value(container, "#nc-check-batch"),
        seq_len: value(container, "#nc-check-seq-len"), dtype: value(container, "#nc-check-dtype"),
        instance: value(container, "#nc-check-instance"), environment: value(container, "#nc-check-environment") };
      var ticket = newest.check += 1;
      showProgress(result, booted ? "checking\u2026" : "loading Python, about 6 MB, once\u2026");
      ask({ kind: "check", text: text, options: options, checkpoint: checkpoint || null }, runtime,
        function (line) { if (ticket === newest.check) showProgress(result, line); })
        .then(function (answer) {
          if (answer.boot_ms) container.setAttribute("data-boot-ms", JSON.stringify(answer.boot_ms));
          if (ticket !== newest.check) return;
          if (answer.error) showError(result, answer.error, answer.exit_code, answer.meaning);
          else showAnswer(result, answer);
        })
        .catch(function (error) { if (ticket === newest.check) failed("check", result, error); });
    }

    container.querySelector("#nc-check-form").addEventListener("submit", function (event) {
      event.preventDefault();
      run(fetchedId);
    });
    textarea.addEventListener("input", function () { fetchedId = null; warm(runtime); });

    var explainForm = container.querySelector("#nc-explain-form");
    if (explainForm) {
      container.querySelector("#nc-explain-text").addEventListener("input", function () { warm(runtime); });
      explainForm.addEventListener("submit", function (event) {
        event.preventDefault();
        var out = container.querySelector("#nc-explain-result");
        if (!runtime) return showError(out, "The page has not loaded yet.");
        var ticket = newest.explain += 1;
        showProgress(out, booted ? "matching\u2026" : "loading Python, about 6 MB, once\u2026");
        ask({ kind: "explain", text: container.querySelector("#nc-explain-text").value }, runtime,
          function (line) { if (ticket === newest.explain) showProgress(out, line); })
          .then(function (answer) {
            if (ticket !== newest.explain) return;
            if (answer.error) return showError(out, answer.error, answer.exit_code);
            showExplain(out, answer);
          })
          .catch(function (error) { if (ticket === newest.explain) failed("explain", out, error); });
      });
    }

    // The home page's "check" box sends ?model=<a Hub id or a pasted config.json> (an old link ?q=): JSON goes to
    // the config box and is checked, an id to the Hub field. Material opens its search for ?q=: closed again.
    var params = new URLSearchParams(window.location.search);
    var asked = (params.get("model") || params.get("q") || "").trim();
    var askedConfig = asked.charAt(0) === "{";
    // Text from a link is shown as text: hidden and bidirectional characters as escapes (a config's as JSON's
    // \uXXXX, the same string inside a JSON string), never applied to what the page shows.
    if (askedConfig) textarea.value = shown(asked, true);
    else if (asked && hubInput) hubInput.value = shown(asked);
    if (params.get("q")) closeSearchDialog(params.get("q"));

    var hint = container.querySelector("#nc-check-hub-hint");
    function showHubHint(id) {
      if (!hint) return;
      hint.replaceChildren();
      if (!looksLikeRepoId(id)) {
        hint.appendChild(element("span", "nc-check-error", "'" + shown(id) + "' is not a valid Hub repo id (namespace/name)."));
        return;
      }
      hint.appendChild(document.createTextNode("To check " + id + ", paste its config.json below: open "));
      var link = element("a", null, "its config.json on the Hub");
      link.href = "https://huggingface.co/" + id + "/blob/main/config.json";
      link.rel = "noopener";
      hint.appendChild(link);
      hint.appendChild(document.createTextNode(", copy it, and paste it here (or press Fetch if this browser can reach the Hub and the repo is public)."));
    }
    if (asked && !askedConfig) showHubHint(asked);

    var fetchButton = container.querySelector("#nc-check-fetch");
    if (fetchButton) {
      fetchButton.addEventListener("click", function () {
        var id = hubInput.value.trim();
        if (!looksLikeRepoId(id)) return showError(result, "'" + shown(id) + "' is not a valid Hub repo id (namespace/name).");
        showError(result, "Fetching " + id + " from the Hub\u2026");
        fetch("https://huggingface.co/" + id + "/resolve/main/config.json").then(function (response) {
          if (!response.ok) throw new Error("the Hub answered HTTP " + response.status + " (gated, private or missing?)");
          return response.text();
        }).then(function (body) {
          textarea.value = body;
          fetchedId = id;
          run(id);
        }).catch(function (error) {
          showError(result, "Could not fetch " + id + ": " + error.message +
            ". Open its config.json on the Hub and paste it here, or run: neuron-compat check " + id);
        });
      });
    }

    fetch(runtimeUrl).then(function (response) {
      if (!response.ok) throw new Error("HTTP " + response.status);
      return response.json();
    }).then(function (data) {
      runtime = { url: runtimeUrl, pyodide: data.pyodide, files: data.files };
      var lists = data.lists;
      fillSelect(container.querySelector("#nc-check-release"), lists.releases, "newest (" + lists.releases[0] + ")");
      fillSelect(container.querySelector("#nc-check-stack"), lists.stacks, "all stacks");
      fillSelect(container.querySelector("#nc-check-workload"), lists.workloads, "all workloads");
      fillSelect(container.querySelector("#nc-check-hardware"), lists.hardware, "all hardware");
      fillSelect(container.querySelector("#nc-check-task"), lists.tasks, "the config's class names say");
      fillSelect(container.querySelector("#nc-check-dtype"), lists.dtypes, "the config's (else " + lists.default_dtype[0] + ")");
      fillSelect(container.querySelector("#nc-check-instance"), lists.instances, "all instances");
      container.setAttribute("data-ready", "yes");
      if (askedConfig) run(null);
    }).catch(function (error) {
      container.setAttribute("data-ready", "failed");
      showRuntimeFailure(result, failure("could not read " + runtimeUrl + " (" + error.message + ")", "runtime", runtimeUrl));
    });
  }

  function closeSearchDialog(query) {
    // Material opens its search for ?q= when its search starts, before or after this page: close it now if it
    // is open, else once when it opens within the next seconds.
    var toggle = document.querySelector('input[data-md-toggle="search"]');
    if (!toggle) return;
    var close = function () {
      if (!toggle.checked) return false;
      toggle.click();
      var box = document.querySelector("input.md-search__input");
      if (box && document.activeElement === box) box.blur();
      if (box && box.value === query) box.value = "";
      return true;
    };
    if (close()) return;
    var watch = function () {
      if (!toggle.checked) return;
      toggle.removeEventListener("change", watch);
      setTimeout(close, 0);
    };
    toggle.addEventListener("change", watch);
    setTimeout(function () { toggle.removeEventListener("change", watch); }, 5000);
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
