/*
 * neuron-compat: the "Check a model" page. It computes nothing: the answer comes from the package's own Python
 * (neuron_compat.check.page, the functions of `neuron-compat check --json` and `explain --json`), run by
 * Pyodide in check-worker.js, started when the visitor first presses Check. Everything is drawn with textContent:
 * pasted and registry text never becomes HTML. A worker that takes too long is stopped and the page says so.
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

  /* The worker: one at a time, started when a question is typed or asked, stopped (and forgotten) when it overruns. */
  var worker = null, booted = false, pending = null, counter = 0;

  function startWorker() {
    worker = new Worker(assetUrl("check-worker.js"), { type: "module" });
    booted = false;
    worker.onmessage = function (event) {
      var data = event.data;
      if (!pending || data.id !== pending.id) return;
      if (data.progress) { pending.onProgress(data.progress); return; }
      var done = pending;
      pending = null;
      clearTimeout(done.timer);
      if (data.failure) done.reject(new Error(data.failure));
      else { booted = true; done.resolve(data.result); }
    };
    worker.onerror = function (event) {
      event.preventDefault();
      stop("the Python worker failed (" + (event.message || "no message") + ")");
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
      if (pending) { reject(new Error("still answering the previous question")); return; }
      if (!worker) startWorker();
      var container = document.getElementById("nc-check");
      var limit = Number(container && container.getAttribute("data-limit-ms")) || (booted ? ANSWER_LIMIT_MS : LOAD_LIMIT_MS);
      counter += 1;
      pending = { id: counter, resolve: resolve, reject: reject, onProgress: onProgress };
      pending.timer = setTimeout(function () {
        stop("no answer within " + limit / 1000 + " s: the Python worker was stopped. Try again, or run neuron-compat check on your machine.");
      }, limit);
      message.id = counter;
      message.runtime = runtime;
      worker.postMessage(message);
    });
  }

  function stop(reason) {
    if (worker) worker.terminate();
    worker = null;
    booted = false;
    if (pending) {
      clearTimeout(pending.timer);
      var failed = pending;
      pending = null;
      failed.reject(new Error(reason));
    }
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

  function familyUrl(familyId, anchor) {
    var url = new URL("../../families/" + encodeURIComponent(familyId) + "/", script ? script.src : document.baseURI);
    if (anchor) url.hash = anchor;
    return url.href;
  }

  function showAnswer(result, answer) {
    var verdict = JSON.parse(answer.json);
    result.replaceChildren();
    result.setAttribute("data-status", verdict.status);
    result.setAttribute("data-exit-code", String(answer.exit_code));
    var heading = element("p", "nc-check-summary");
    heading.appendChild(element("strong", "nc-status nc-status--" + verdict.status, verdict.status));  // the site's badge
    heading.appendChild(document.createTextNode(" \u2014 " + verdict.summary));
    result.appendChild(heading);
    result.appendChild(element("p", "nc-check-exit", "neuron-compat check would exit " + answer.exit_code + ": " + answer.meaning));
    if (verdict.family) {
      var family = element("p", "nc-check-family", "Family: ");
      var link = element("a", null, verdict.family.name);
      link.href = familyUrl(verdict.family.id);
      family.appendChild(link);
      (verdict.answers || []).forEach(function (a) {
        if (!a.anchor) return;
        var row = element("a", "nc-check-row-link", a.stack_name + " (" + a.workload + ")");
        row.href = familyUrl(verdict.family.id, a.anchor);
        row.setAttribute("data-stack", a.stack);
        row.setAttribute("data-workload", a.workload);
        family.appendChild(document.createTextNode(" \u00b7 "));
        family.appendChild(row);
      });
      result.appendChild(family);
    }
    var text = element("pre", "nc-check-text", answer.lines.join("\n"));
    text.setAttribute("aria-label", "The answer as neuron-compat check prints it");
    text.tabIndex = 0;
    result.appendChild(text);
    var details = element("details", "nc-check-json");
    details.appendChild(element("summary", null, "The same answer as JSON (neuron-compat check --json)"));
    details.appendChild(element("pre", null, answer.json));
    result.appendChild(details);
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

    function run(checkpoint) {
      if (!runtime) return showError(result, "The page has not loaded yet.");
      var text = textarea.value;
      if (!text.trim()) return showError(result, "Paste a config.json or model_index.json first.");
      var options = { neuron: value(container, "#nc-check-release"), stack: value(container, "#nc-check-stack"),
        workload: value(container, "#nc-check-workload"), hardware: value(container, "#nc-check-hardware"),
        task: value(container, "#nc-check-task"), batch: value(container, "#nc-check-batch"),
        seq_len: value(container, "#nc-check-seq-len"), dtype: value(container, "#nc-check-dtype"),
        instance: value(container, "#nc-check-instance") };
      showProgress(result, booted ? "checking\u2026" : "loading Python, about 6 MB, once\u2026");
      ask({ kind: "check", text: text, options: options, checkpoint: checkpoint || null }, runtime,
        function (line) { showProgress(result, line); })
        .then(function (answer) {
          if (answer.error) showError(result, answer.error, answer.exit_code, answer.meaning);
          else showAnswer(result, answer);
          if (answer.boot_ms) container.setAttribute("data-boot-ms", JSON.stringify(answer.boot_ms));
        })
        .catch(function (error) { showError(result, error.message); });
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
        showProgress(out, booted ? "matching\u2026" : "loading Python, about 6 MB, once\u2026");
        ask({ kind: "explain", text: container.querySelector("#nc-explain-text").value }, runtime,
          function (line) { showProgress(out, line); })
          .then(function (answer) {
            if (answer.error) return showError(out, answer.error, answer.exit_code);
            out.replaceChildren();
            out.setAttribute("data-status", answer.meaning);
            out.setAttribute("data-exit-code", String(answer.exit_code));
            out.appendChild(element("pre", "nc-check-text", answer.lines.join("\n")));  // what `explain` prints
            var details = element("details", "nc-check-json");
            details.appendChild(element("summary", null, "As JSON (neuron-compat explain --json)"));
            details.appendChild(element("pre", null, answer.json));
            out.appendChild(details);
          })
          .catch(function (error) { showError(out, error.message); });
      });
    }

    // The home page's "check" box sends ?model=<a Hub id or a pasted config.json> (an old link ?q=): JSON goes to
    // the config box and is checked, an id to the Hub field. Material opens its search for ?q=: closed again.
    var params = new URLSearchParams(window.location.search);
    var asked = (params.get("model") || params.get("q") || "").trim();
    var askedConfig = asked.charAt(0) === "{";
    if (askedConfig) textarea.value = asked;
    else if (asked && hubInput) hubInput.value = asked;
    if (params.get("q")) closeSearchDialog(params.get("q"));

    var hint = container.querySelector("#nc-check-hub-hint");
    function showHubHint(id) {
      if (!hint) return;
      hint.replaceChildren();
      if (!looksLikeRepoId(id)) {
        hint.appendChild(element("span", "nc-check-error", "'" + id + "' is not a valid Hub repo id (namespace/name)."));
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
        if (!looksLikeRepoId(id)) return showError(result, "'" + id + "' is not a valid Hub repo id (namespace/name).");
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
      showError(result, "Could not load the check page's data (" + error.message + ").");
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
