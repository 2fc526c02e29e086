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

  /* Text from outside the page (a ?model= link, a Hub id) shown as text: control, bidirectional and invisible
   * characters are written as \u{...} escapes, never applied; long text is cut. */
  var HIDDEN = /[\u0000-\u001f\u007f-\u009f\u00ad\u061c\u180e\u200b-\u200f\u2028-\u202e\u2060-\u206f\ufeff\ufff9-\ufffb]|[\ud800-\udbff](?![\udc00-\udfff])|(?:^|[^\ud800-\udbff])[\udc00-\udfff]/g;
  function shown(text, limit) {
    var escaped = String(text).replace(HIDDEN, function (found) {
      return found.split("").map(function (c) {
        return /[\u0020-\u007e]/.test(c) ? c : "\\u{" + c.charCodeAt(0).toString(16) + "}";
      }).join("");
    });
    return escaped.length > (limit || 200) ? escaped.slice(0, limit || 200) + "\u2026" : escaped;
  }

  // The same text as JSON can hold it: hidden characters as \uXXXX escapes (the same string inside a JSON string;
  // outside one, JSON refuses them either way).
  function jsonEscaped(text) {
    return String(text).replace(HIDDEN, function (found) {
      return found.split("").map(function (c) {
        return /[\u0020-\u007e]/.test(c) ? c : "\\u" + ("000" + c.charCodeAt(0).toString(16)).slice(-4);
      }).join("");
    });
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

  function codeBlock(lines, label) {
    var box = element("div", "nc-check-copy");
    var pre = element("pre");
    var code = element("code", null, lines.join("\n"));
    pre.appendChild(code);
    if (label) pre.setAttribute("aria-label", label);
    var button = element("button", "md-button nc-check-copy-button", "Copy");
    button.type = "button";
    button.addEventListener("click", function () {
      var done = function () { button.textContent = "Copied"; setTimeout(function () { button.textContent = "Copy"; }, 1500); };
      if (navigator.clipboard && navigator.clipboard.writeText) navigator.clipboard.writeText(code.textContent).then(done, function () {});
    });
    box.appendChild(pre);
    box.appendChild(button);
    return box;
  }

  // What the visitor can do when the Python runtime (or the check code beside it) cannot be downloaded.
  function showRuntimeFailure(result, error, version) {
    result.replaceChildren();
    result.setAttribute("data-status", "error");
    result.setAttribute("data-failure", "runtime");
    result.removeAttribute("data-exit-code");
    var from = error.from || "";
    var where = from ? new URL(from, document.baseURI) : null;
    var said = where && where.origin !== location.origin ? where.host : "this site";
    result.appendChild(element("p", "nc-check-error", "The check page could not download the Python it answers with " +
      "(Pyodide" + (version ? " " + version : "") + ", from " + said + "): " + error.message + "."));
    var source = element("p", null, "It is loaded from ");
    if (where) {
      var link = element("a", null, where.href);
      link.href = where.href;
      link.rel = "noopener";
      source.appendChild(link);
    } else source.appendChild(document.createTextNode("the site's api/check/ folder"));
    source.appendChild(document.createTextNode(where && where.origin !== location.origin
      ? " (a CDN). A network that blocks it, or no network, stops the page; nothing was sent anywhere."
      : ". The site may be incomplete or offline."));
    result.appendChild(source);
    result.appendChild(element("p", null, "The same answer on your machine, offline once installed:"));
    result.appendChild(codeBlock(["pip install neuron-compat", "neuron-compat check config.json"], "Check offline"));
    result.appendChild(element("p", null, "To serve the runtime from the site itself (no CDN), build the site with a local copy, from a clone:"));
    result.appendChild(codeBlock(["python scripts/fetch_pyodide.py", "neuron-compat site --pyodide .cache/pyodide/package"],
      "Build the site with a local runtime"));
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

  // An outside link: https only (registry text is data); anything else is shown as text.
  function sourceLink(url, text) {
    if (!/^https:\/\//.test(String(url))) return document.createTextNode(String(text || url));
    var a = link(text || url, url);
    a.rel = "noopener";
    return a;
  }

  function heading(parent, text, id) {
    var h = element("h3", "nc-answer-heading", text);
    if (id) h.id = id;
    parent.appendChild(h);
  }

  function cell(content) {
    var td = element("td");
    if (content instanceof Node) td.appendChild(content);
    else td.textContent = content === null || content === undefined || content === "" ? "\u2013" : String(content);
    return td;
  }

  // A table the site's own code fits (neuron-compat.js): too wide for its column, each row becomes labelled lines.
  function table(headers, rows, className) {
    var wrap = element("div", "nc-answer-table" + (className ? " " + className : ""));
    var t = element("table");
    var head = t.createTHead().insertRow();
    headers.forEach(function (h) { head.appendChild(element("th", null, h)); });
    var body = t.createTBody();
    rows.forEach(function (row) {
      var tr = body.insertRow();
      row.forEach(function (content, i) {
        var td = cell(content);
        td.setAttribute("data-label", headers[i]);
        tr.appendChild(td);
      });
    });
    wrap.appendChild(t);
    return wrap;
  }

  function list(items, className) {
    var ul = element("ul", className);
    items.forEach(function (item) {
      var li = element("li");
      (Array.isArray(item) ? item : [item]).forEach(function (part) {
        li.appendChild(part instanceof Node ? part : document.createTextNode(String(part)));
      });
      ul.appendChild(li);
    });
    return ul;
  }

  function badge(status) {
    return element("strong", "nc-status nc-status--" + status, status);  // the site's status badge
  }

  function gib(bytes) {
    return bytes === null || bytes === undefined ? "\u2013" : (bytes / 1073741824).toFixed(2) + " GiB";
  }

  function stackLink(verdict, stack, name, anchor) {
    if (!verdict.family || !anchor) return document.createTextNode(name || stack);
    var a = link(name || stack, familyUrl(verdict.family.id, anchor));
    a.setAttribute("data-stack", stack);
    return a;
  }

  function drawInstall(result, verdict) {
    var recommendations = verdict.recommendations || [];
    if (!recommendations.length) return;
    heading(result, "What to install", "nc-answer-install");
    result.appendChild(table(["For", "Answer", "Stack", "Version", "Neuron", "Why"],
      recommendations.map(function (r) {
        return [r.workload + " on " + r.hardware, badge(r.status), stackLink(verdict, r.stack, r.stack_name, r.anchor),
          r.stack_version, r.release, r.why];
      }), "nc-answer-install"));
    var lines = [];
    recommendations.forEach(function (r) {
      lines.push("# " + r.workload + " on " + r.hardware + ": " + (r.stack_name || r.stack) + " at Neuron " + r.release);
      (r.install || []).forEach(function (line) { lines.push(line); });
      if (!(r.install || []).length) lines.push("# nothing recorded to install" + ((r.not_recorded || []).length ? " (" + r.not_recorded.join(", ") + ")" : ""));
    });
    result.appendChild(codeBlock(lines, "What to install"));
    var notes = [];
    recommendations.forEach(function (r) {
      if (r.notes_url && notes.indexOf(r.notes_url) < 0) notes.push(r.notes_url);
    });
    if (notes.length) result.appendChild(list(notes.map(function (url) { return ["Release notes: ", sourceLink(url)]; }), "nc-answer-notes"));
  }

  function drawStacks(result, verdict) {
    var answers = verdict.answers || [];
    if (answers.length) {
      heading(result, "Answer per stack", "nc-answer-stacks");
      result.appendChild(table(["Stack", "Workload", "Hardware", "Verdict", "Since", "Until", "Attention", "Dtypes", "Caveats and notes"],
        answers.map(function (a) {
          var said = (a.caveats || []).map(function (c) { return (c.limits ? "limits: " : "") + c.message; })
            .concat((a.notes || []).map(function (n) { return (n.release ? n.release + ": " : "") + n.text; }));
          return [stackLink(verdict, a.stack, a.stack_name, a.anchor), a.workload, (a.hardware || []).join(", "),
            badge(a.display_status || a.status), a.since, a.until, (a.attention || []).join(", "),
            (a.dtypes || []).join(", "), said.length ? list(said) : ""];
        }), "nc-answer-stacks"));
    }
    if ((verdict.no_statement || []).length) result.appendChild(element("p", "nc-answer-none", "No statement for: " + verdict.no_statement.join(", ")));
    if ((verdict.caveats || []).length) result.appendChild(list(verdict.caveats.map(function (c) { return c.message || String(c); })));
    if ((verdict.nearest || []).length) {
      result.appendChild(element("p", null, "Nearest covered families:"));
      result.appendChild(list(verdict.nearest.map(function (n) {
        return n && n.id ? [link(n.name || n.id, familyUrl(n.id)), n.why ? " (" + n.why + ")" : ""] : String(n);
      })));
    }
  }

  function drawFit(result, verdict) {
    var fit = verdict.fit;
    if (!fit || !fit.instances) return;
    heading(result, "Fit (an estimate)", "nc-answer-fit");
    if (fit.estimate) result.appendChild(element("p", "nc-answer-estimate", fit.estimate));
    var a = fit.assumptions || {};
    var facts = [];
    if (fit.parameters) facts.push("Parameters: " + Number(fit.parameters).toLocaleString("en-US"));
    if (a.batch) facts.push("Batch " + a.batch + " (" + a.batch_from + "), sequence length " + a.seq_len + " (" + a.seq_len_from + ")");
    if (a.dtype) facts.push("Weights at " + a.dtype + " (" + a.dtype_from + "), KV cache at " + a.kv_cache_dtype);
    if (a.margin_text) facts.push("Margin: " + a.margin_text);
    if (fit.reason) facts.push(fit.reason);
    if (facts.length) result.appendChild(list(facts, "nc-answer-assumptions"));
    if (fit.instances.length) {
      result.appendChild(table(["Instance", "NeuronCores", "Stack", "Degree", "Fits", "Needed", "Available", "Headroom"],
        fit.instances.map(function (i) {
          return [i.name, String(i.neuron_cores) + (i.lnc ? " (LNC=" + i.lnc + ")" : ""), i.stack,
            i.degree === null || i.degree === undefined ? "" : i.degree + (i.degree_from ? " (" + i.degree_from + ")" : ""),
            i.fits === null || i.fits === undefined ? "" : (i.fits ? "yes" : "no"),
            gib(i.bytes_needed), gib(i.bytes_available), gib(i.headroom_bytes)];
        }), "nc-answer-fit"));
    }
    if ((fit.not_counted || []).length) result.appendChild(element("p", "nc-answer-not-counted", "Not counted: " + fit.not_counted.join("; ") + "."));
  }

  function configurationLine(c) {
    var parts = [c.checkpoint, c.stack, c.release ? "Neuron " + c.release : "release not stated", c.instance || "instance not stated"];
    var p = c.parallelism || {};
    if (p.tensor) parts.push("TP=" + p.tensor);
    if (c.dtype) parts.push(c.dtype);
    parts.push(c.outcome);
    var measured = (c.measurements || []).map(function (m) {
      return m.metric + (m.name ? " [" + m.name + "]" : "") + " " + (m.approximate ? "~" : "") + m.value + " " + m.unit + (m.phase ? " (" + m.phase + ")" : "");
    });
    var line = [parts.join(" \u00b7 ") + (measured.length ? ": " + measured.join("; ") : "") + " \u2014 "];
    line.push(c.source ? sourceLink(c.source.url, c.source.title || c.source.url) : "no source");
    return line;
  }

  function drawEvidence(result, verdict) {
    var tested = verdict.tested_configurations;
    if (tested && tested.total) {
      heading(result, "Tested configurations", "nc-answer-tested");
      var said = element("p", null, tested.total + " recorded" + (tested.matched_by ? " for this " + tested.matched_by : "") + ". ");
      if (tested.checkpoint_page) said.appendChild(link("The checkpoint's page", siteUrl(tested.checkpoint_page)));
      result.appendChild(said);
      result.appendChild(list((tested.configurations || []).map(configurationLine), "nc-answer-configurations"));
      if (tested.other_sizes_total) {
        result.appendChild(element("p", null, "Other sizes or hardware (" + tested.other_sizes_total + "):"));
        result.appendChild(list((tested.other_sizes || []).map(configurationLine), "nc-answer-other-sizes"));
      }
    }
    var issues = verdict.known_issues || [];
    if (issues.length) {
      heading(result, "Known issues", "nc-answer-issues");
      result.appendChild(list(issues.map(function (issue) {
        var parts = [link(issue.title || issue.id, siteUrl("known-issues/") + "#issue-" + encodeURIComponent(issue.id))];
        var where = [];
        if (issue.component) where.push(issue.component);
        if (issue.listed_in && issue.listed_in.first) where.push("listed in the notes of " + issue.listed_in.first +
          (issue.listed_in.last && issue.listed_in.last !== issue.listed_in.first ? "\u2013" + issue.listed_in.last : ""));
        if (issue.fixed_in) where.push("fixed in " + issue.fixed_in);
        if (where.length) parts.push(" (" + where.join("; ") + ")");
        return parts;
      }), "nc-answer-known-issues"));
    }
    var sources = [];
    (verdict.answers || []).forEach(function (a) {
      (a.sources || []).concat(a.capability_sources || []).forEach(function (url) { if (sources.indexOf(url) < 0) sources.push(url); });
    });
    if (sources.length || verdict.family) {
      heading(result, "Evidence", "nc-answer-evidence");
      if (verdict.family) {
        var family = element("p", null, "Every statement, with its sources and history: ");
        family.appendChild(link("the " + verdict.family.name + " family page", familyUrl(verdict.family.id)));
        result.appendChild(family);
      }
      if (sources.length) result.appendChild(list(sources.map(function (url) { return sourceLink(url); }), "nc-answer-sources"));
    }
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
    var verdict = JSON.parse(answer.json);
    result.replaceChildren();
    result.removeAttribute("data-failure");
    result.setAttribute("data-status", verdict.status);
    result.setAttribute("data-exit-code", String(answer.exit_code));
    var headline = element("p", "nc-check-summary");
    headline.appendChild(badge(verdict.status));
    headline.appendChild(document.createTextNode(" \u2014 " + verdict.summary));
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
    drawInstall(result, verdict);
    drawStacks(result, verdict);
    drawFit(result, verdict);
    drawEvidence(result, verdict);
    result.appendChild(terminalText(answer.lines, "As neuron-compat check prints it", "The answer as neuron-compat check prints it"));
    result.appendChild(jsonText(answer.json, "The same answer as JSON (neuron-compat check --json)"));
    document.dispatchEvent(new Event("nc:rows"));  // the site fits the new tables to the column
  }

  function showExplain(out, answer) {
    var found = JSON.parse(answer.json);
    out.replaceChildren();
    out.removeAttribute("data-failure");
    out.setAttribute("data-status", answer.meaning);
    out.setAttribute("data-exit-code", String(answer.exit_code));
    var issues = found.issues || [];
    out.appendChild(element("p", "nc-check-summary", issues.length
      ? issues.length + " known issue" + (issues.length === 1 ? "" : "s") + " match, best first (of " + found.known_issues + " known)."
      : "No known issue matched (" + found.known_issues + " known issues; " + found.browse_only + " of them quote no error text and are listed on the site only)."));
    (found.refusals || []).forEach(function (r) {
      out.appendChild(element("p", "nc-explain-refusal", r.stack + " refused " + ((r.architectures || []).join(", ") || r.model_type) + ": " + r.summary));
    });
    if (issues.length) {
      out.appendChild(list(issues.map(function (m) {
        var issue = m.issue || {};
        var parts = [link(m.title || m.id, siteUrl("known-issues/") + "#issue-" + encodeURIComponent(m.id))];
        if ((m.why || []).length) parts.push(" \u2014 matched by " + m.why.join("; "));
        var more = element("div", "nc-explain-detail");
        if (issue.description) more.appendChild(element("p", null, issue.description));
        if (issue.workaround) more.appendChild(element("p", null, "Workaround: " + issue.workaround));
        if (issue.fixed_in) more.appendChild(element("p", null, "Fixed in " + issue.fixed_in + "."));
        var sources = (m.sources || []);
        if (sources.length) more.appendChild(list(sources.map(function (url) { return sourceLink(url); })));
        parts.push(more);
        return parts;
      }), "nc-explain-issues"));
    }
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
        instance: value(container, "#nc-check-instance") };
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
    if (askedConfig) textarea.value = jsonEscaped(asked);
    else if (asked && hubInput) hubInput.value = shown(asked, 300);
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
