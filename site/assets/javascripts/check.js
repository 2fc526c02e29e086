/*
 * neuron-compat: the "Check a model" page. It reads a pasted config with check_config.js and answers with
 * check_resolve.js (the ports of check/config_facts.py and check/resolver.py), adds the fit with check_fit.js (check/fit.py and
 * sizing/), then renders with textContent only: registry and config text is never HTML. site/check.md loads the four
 * scripts in that order.
 */
(function (root, factory) {
  "use strict";
  if (typeof module === "object" && module.exports) {
    module.exports = factory(require("./check_config.js"), require("./check_resolve.js"), require("./check_fit.js"), require("./check_recommend.js"));
  } else {
    root.NeuronCompatCheck = factory(root.NeuronCompatConfig, root.NeuronCompatResolve, root.NeuronCompatFit, root.NeuronCompatRecommend);
    root.NeuronCompatCheck.startPage();
  }
})(typeof self !== "undefined" ? self : this, function (config, resolver, fitter, recommender) {
  "use strict";

  var parseConfigText = config.parseConfigText;
  var useTables = resolver.useTables;
  var releaseVersions = resolver.releaseVersions;
  var checkConfig = resolver.checkConfig;
  var checkDocument = resolver.checkDocument;

  // hub_ids.is_valid_repo_id: its pattern comes with the registry's check_tables, its three other rules are ported.
  function isValidRepoId(value) {
    var pattern = new RegExp("^(?:" + config.tables().repo_id_pattern + ")$");
    return pattern.test(value) && value.indexOf("..") < 0 && value.indexOf("--") < 0 && !/[.-]$/.test(value);
  }

  function element(tag, className, content) {
    var node = document.createElement(tag);
    if (className) node.className = className;
    if (content !== undefined && content !== null) node.textContent = String(content);
    return node;
  }

  /* A wrapper that scrolls a wide table sideways: focusable, so that a keyboard can scroll it, and named. */
  function scrollRegion(label) {
    var node = element("div", "nc-scroll");
    node.setAttribute("role", "region");
    node.setAttribute("tabindex", "0");
    node.setAttribute("aria-label", label);
    return node;
  }

  function registryUrl(container) {
    if (container.getAttribute("data-registry")) return new URL(container.getAttribute("data-registry"), document.baseURI).href;
    var script = document.querySelector('script[src*="javascripts/check.js"]');
    return new URL("../../api/registry.json", script ? script.src : document.baseURI).href;
  }

  function familyPageUrl(container, familyId, anchor) {
    var script = document.querySelector('script[src*="javascripts/check.js"]');
    var url = new URL("../../families/" + encodeURIComponent(familyId) + "/", script ? script.src : document.baseURI);
    if (anchor) url.hash = anchor;
    return url.href;
  }

  function valuesLine(answer) {
    return ["attention", "dtypes", "quantization"].filter(function (name) { return answer[name].length; })
      .map(function (name) {
        return name + ": " + answer[name].join(", ") + " (" + (config.tables().origin_labels[answer[name + "_origin"]] || "not stated") + ")";
      }).join("; ");
  }

  // 'What to install': per workload, one line per hardware (hardware with the same line share it), as `check`
  // prints it (commands/check.py recommendation_lines), with the release notes linked.
  function renderRecommendations(verdict) {
    var section = element("div", "nc-check-recommendations");
    var workloads = [];
    verdict.recommendations.forEach(function (r) { if (workloads.indexOf(r.workload) < 0) workloads.push(r.workload); });
    workloads.forEach(function (workload) {
      section.appendChild(element("p", "nc-check-recommend-title", "What to install (" + workload + ", best first)"));
      var list = element("ul", "nc-check-recommend");
      var groups = [];
      verdict.recommendations.forEach(function (r) {
        if (r.workload !== workload) return;
        var also = r.alternatives.map(function (choice) { return recommender.choiceText(config.tables(), choice); }).join(", ");
        var same = groups.filter(function (g) { return g.line === r.line && g.also === also; })[0];
        if (same) same.hardware.push(r.hardware);
        else groups.push({ line: r.line, also: also, hardware: [r.hardware], item: r });
      });
      groups.forEach(function (group) {
        var li = element("li", "nc-status-" + group.item.status);
        li.setAttribute("data-hardware", group.hardware.join(","));
        li.setAttribute("data-workload", workload);
        li.appendChild(element("strong", null, group.hardware.join(", ") + ": "));
        li.appendChild(document.createTextNode(group.line));
        if (group.item.notes_url && /^https:\/\//.test(group.item.notes_url)) {
          var notes = element("a", null, " (release notes)");
          notes.href = group.item.notes_url;
          li.appendChild(notes);
        }
        if (group.also) li.appendChild(element("div", "nc-check-recommend-else", "else: " + group.also));
        list.appendChild(li);
      });
      section.appendChild(list);
    });
    return section;
  }

  function gib(value) {
    return value === null || value === undefined ? "\u2014" : (value / 1073741824).toFixed(2) + " GiB";
  }

  // The fit section: what was assumed and not counted, parameters, bytes, degrees and one row per instance.
  function renderFit(result, fit) {
    var section = element("div", "nc-check-fit");
    section.appendChild(element("h3", null, "Fit (an estimate)"));
    var a = fit.assumptions;
    section.appendChild(element("p", "nc-check-fit-estimate", fit.estimate));
    section.appendChild(element("p", "nc-check-fit-assumed", "Assumed: batch " + a.batch + " (" + a.batch_from + "), seq-len " +
      a.seq_len + " (" + a.seq_len_from + "), dtype " + a.dtype + " (" + a.dtype_from + "), KV cache at " + a.kv_cache_dtype +
      ", stack " + a.stack + " (" + a.stack_from + "). Not counted: " + fit.not_counted.join("; ") + "."));
    var facts = element("ul", "nc-check-fit-facts");
    var parameters = element("li", null, "Parameters: " + (fit.parameters === null ? "not all counted" : fit.parameters.toLocaleString("en-US")));
    parameters.setAttribute("data-parameters", fit.parameters === null ? "" : String(fit.parameters));
    facts.appendChild(parameters);
    fit.parameter_parts.filter(function (p) { return p.count === null; }).forEach(function (p) {
      facts.appendChild(element("li", "nc-check-fit-missing", p.name + ": not counted: " + p.reason));
    });
    facts.appendChild(element("li", null, "Weights: " + Object.keys(fit.weights_bytes).map(function (d) {
      return d + " " + gib(fit.weights_bytes[d]);
    }).join(", ")));
    var kv = fit.kv_cache_bytes_per_token[a.kv_cache_dtype];
    facts.appendChild(element("li", null, "KV cache per token: " + (kv === null ? "none counted (" + fit.kv_cache_reason + ")"
      : kv.toLocaleString("en-US") + " bytes at " + a.kv_cache_dtype)));
    Object.keys(fit.tensor_parallel).forEach(function (stack) {
      var degrees = fit.tensor_parallel[stack];
      if (degrees === null) return;
      var li = element("li", null, "Tensor parallel, " + stack + ": degrees " + degrees[0] + "\u2013" + degrees[degrees.length - 1] + " (");
      fit.tensor_parallel_rules[stack].sources.forEach(function (url, index) {
        var link = element("a", null, "source " + (index + 1));
        link.href = url;
        link.rel = "noopener";
        if (index) li.appendChild(document.createTextNode(", "));
        li.appendChild(link);
      });
      li.appendChild(document.createTextNode("); other stacks: rule not recorded"));
      facts.appendChild(li);
    });
    section.appendChild(facts);
    if (fit.instances.length) {
      var table = element("table", "nc-check-fit-table");
      var head = element("tr");
      ["Instance", "NeuronCores", "Degree", "Fits", "Needed", "Available", "Headroom"].forEach(function (h) {
        head.appendChild(element("th", null, h));
      });
      var thead = element("thead");
      thead.appendChild(head);
      table.appendChild(thead);
      var body = element("tbody");
      fit.instances.forEach(function (e) {
        var row = element("tr");
        row.setAttribute("data-instance", e.name);
        row.setAttribute("data-fits", e.fits === null ? "unknown" : String(e.fits));
        [e.name, e.neuron_cores === null ? "\u2014" : e.neuron_cores + (e.lnc ? " (LNC=" + e.lnc + ")" : ""),
         e.degree === null ? "\u2014" : e.degree, e.fits === null ? "\u2014" : (e.fits ? "yes" : "no"),
         gib(e.bytes_needed), gib(e.bytes_available), gib(e.headroom_bytes)].forEach(function (value) {
          row.appendChild(element("td", null, value));
        });
        body.appendChild(row);
        if (e.reason) {
          var why = element("tr", "nc-check-caveat-row");
          var cell = element("td", null, e.reason);
          cell.colSpan = 7;
          why.appendChild(cell);
          body.appendChild(why);
        }
      });
      table.appendChild(body);
      var scroll = scrollRegion("Fit per instance (scrolls sideways)");
      scroll.appendChild(table);
      section.appendChild(scroll);
    }
    result.appendChild(section);
  }

  function renderVerdict(container, result, verdict, fit) {
    result.replaceChildren();
    var heading = element("p", "nc-check-summary nc-status-" + verdict.status);
    heading.appendChild(element("strong", null, verdict.status));
    heading.appendChild(document.createTextNode(" \u2014 " + verdict.summary));
    result.appendChild(heading);
    result.setAttribute("data-status", verdict.status);
    result.setAttribute("data-exit-code", String(checkDocument(verdict).exit_code));  // what `check` would exit with

    var model = verdict.model;
    var facts = element("ul", "nc-check-facts");
    var items = model.kind === "diffusers" ? [["pipeline", model.pipeline_class]] : [
      ["model_type", model.model_type], ["architectures", model.architectures.join(", ")],
      ["text_config model_type", model.text_model_type], ["dtype", model.dtype || model.dtype_raw],
      ["attention", model.attn_implementation], ["context", model.max_position_embeddings],
      ["sliding window", model.sliding_window], ["rope scaling", model.rope_scaling && model.rope_scaling.type],
      ["quantization", model.quantization && model.quantization.method],
      ["experts", model.moe && model.moe.experts], ["remote code", model.remote_code ? "yes (auto_map)" : null]
    ];
    items.forEach(function (item) {
      if (item[1] === null || item[1] === undefined || item[1] === "") return;
      var li = element("li");
      li.appendChild(element("code", null, item[0]));
      li.appendChild(document.createTextNode(": " + item[1]));
      facts.appendChild(li);
    });
    result.appendChild(facts);
    if (verdict.family) {
      var family = element("p", "nc-check-family");
      family.appendChild(document.createTextNode("Family: "));
      var link = element("a", null, verdict.family.name);
      link.href = familyPageUrl(container, verdict.family.id);
      family.appendChild(link);
      family.appendChild(document.createTextNode(" (matched by " + verdict.family.matched_by + " " + verdict.family.value + ")"));
      result.appendChild(family);
    }
    if (verdict.caveats.length) {
      var list = element("ul", "nc-check-caveats");
      verdict.caveats.forEach(function (c) { list.appendChild(element("li", "nc-caveat nc-caveat-" + c.kind, c.message)); });
      result.appendChild(list);
    }
    if (verdict.recommendations.length) result.appendChild(renderRecommendations(verdict));
    if (verdict.answers.length) {
      var table = element("table", "nc-check-table");
      var head = element("tr");
      var columns = ["Stack", "Workload", "Hardware", "Verdict", "Since", "Until", "Attention / dtypes"];
      columns.forEach(function (h) { head.appendChild(element("th", null, h)); });
      var thead = element("thead");
      thead.appendChild(head);
      table.appendChild(thead);
      var body = element("tbody");
      verdict.answers.forEach(function (a) {
        var row = element("tr", "nc-status-" + a.verdict);
        row.setAttribute("data-stack", a.stack);
        row.setAttribute("data-workload", a.workload);
        var stackCell = element("td");
        if (a.anchor && verdict.family) {
          var stackLink = element("a", null, a.stack_name);
          stackLink.href = familyPageUrl(container, verdict.family.id, a.anchor);
          stackCell.appendChild(stackLink);
        } else {
          stackCell.textContent = a.stack_name;
        }
        row.appendChild(stackCell);
        row.appendChild(element("td", null, a.workload));
        row.appendChild(element("td", null, a.hardware.join(", ") || "\u2014"));
        var verdictCell = element("td", "nc-verdict");
        // a verdict (supported / partial / unsupported / ended / unknown) is its own badge class, as on the family pages
        verdictCell.appendChild(element("span", "nc-status nc-status--" + a.verdict, a.display_status));
        row.appendChild(verdictCell);
        row.appendChild(element("td", null, a.since || "\u2014"));
        row.appendChild(element("td", null, a.until || "\u2014"));
        row.appendChild(element("td", "nc-check-values", valuesLine(a) || "\u2014"));
        body.appendChild(row);
        if (a.caveats.length) {  // on a row of their own under the answer, the table's full width
          var notes = element("tr", "nc-check-caveat-row");
          var cell = element("td");
          cell.colSpan = columns.length;
          var ul = element("ul");
          a.caveats.forEach(function (c) { ul.appendChild(element("li", "nc-caveat nc-caveat-" + c.kind, c.message)); });
          cell.appendChild(ul);
          notes.appendChild(cell);
          body.appendChild(notes);
        }
      });
      table.appendChild(body);
      var scroll = scrollRegion("Verdict per stack (scrolls sideways)");  // a narrow screen scrolls the table sideways
      scroll.appendChild(table);
      result.appendChild(scroll);
    }
    if (verdict.no_statement.length) {
      result.appendChild(element("p", "nc-check-none", "No statement for: " + verdict.no_statement.join(", ")));
    }
    var answer = checkDocument(verdict);
    if (fit) {
      renderFit(result, fit);
      answer.fit = fit;
    }
    var details = element("details", "nc-check-json");
    details.appendChild(element("summary", null, "The same answer as JSON (neuron-compat check --json)"));
    details.appendChild(element("pre", null, JSON.stringify(answer, null, 1)));
    result.appendChild(details);
  }

  function closeSearchDialog(query) {
    // Material opens its search for ?q= when the search component starts, which may be before or after this
    // page starts: close it now if it is open, else once when it opens within the next seconds.
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
    // Material opens it and then focuses its input in the same task: close it in the next one.
    var watch = function () {
      if (!toggle.checked) return;
      toggle.removeEventListener("change", watch);
      setTimeout(close, 0);
    };
    toggle.addEventListener("change", watch);
    setTimeout(function () { toggle.removeEventListener("change", watch); }, 5000);
  }

  function showHubHint(container, id) {
    var hint = container.querySelector("#nc-check-hub-hint");
    if (!hint) return;
    hint.replaceChildren();
    if (!isValidRepoId(id)) {
      hint.appendChild(element("span", "nc-check-error", "'" + id + "' is not a valid Hub repo id (namespace/name)."));
      return;
    }
    hint.appendChild(document.createTextNode("To check " + id + ", paste its config.json below: open "));
    var link = element("a", null, "its config.json on the Hub");
    link.href = "https://huggingface.co/" + id + "/blob/main/config.json";
    link.rel = "noopener";
    hint.appendChild(link);
    hint.appendChild(document.createTextNode(", copy it, and paste it here (or press Fetch if this browser can reach the Hub " +
      "and the repo is public)."));
  }

  function renderError(result, message) {
    result.replaceChildren();
    result.setAttribute("data-status", "error");
    result.removeAttribute("data-exit-code");
    result.appendChild(element("p", "nc-check-error", message));
  }

  function numberValue(container, selector) {
    var input = container.querySelector(selector);
    if (!input || input.value.trim() === "") return null;
    return Number(input.value);
  }

  function selectValue(container, selector) {
    var input = container.querySelector(selector);
    return input && input.value ? input.value : null;
  }

  function fillSelect(select, values, label) {
    select.replaceChildren();
    select.appendChild(element("option", null, label)).value = "";
    values.forEach(function (value) { select.appendChild(element("option", null, value)).value = value; });
  }

  function startPage() {
    if (typeof document === "undefined") return;
    var boot = function () {
      var container = document.getElementById("nc-check");
      if (!container || container.getAttribute("data-ready")) return;
      container.setAttribute("data-ready", "loading");
      var form = container.querySelector("form");
      var textarea = container.querySelector("#nc-check-config");
      var hubInput = container.querySelector("#nc-check-hub-id");
      var releaseSelect = container.querySelector("#nc-check-release");
      var stackSelect = container.querySelector("#nc-check-stack");
      var workloadSelect = container.querySelector("#nc-check-workload");
      var hardwareSelect = container.querySelector("#nc-check-hardware");
      var result = container.querySelector("#nc-check-result");
      var fetchButton = container.querySelector("#nc-check-fetch");
      var registry = null;

      function run() {
        if (!registry) return renderError(result, "The registry has not loaded yet.");
        var source = textarea.value.trim();
        if (!source) return renderError(result, "Paste a config.json or model_index.json first.");
        try {
          var config = parseConfigText(source, "pasted text");
          var options = {
            release: releaseSelect.value || null, stack: stackSelect.value || null, workload: workloadSelect.value || null,
            hardware: hardwareSelect && hardwareSelect.value || null,
            batch: numberValue(container, "#nc-check-batch"), seq_len: numberValue(container, "#nc-check-seq-len"),
            dtype: selectValue(container, "#nc-check-dtype"), instance: selectValue(container, "#nc-check-instance")
          };
          fitter.useTables(registry);
          fitter.checkFitOptions(options, registry.instances);
          var verdict = checkConfig(config, registry, options);
          var fit = fitter.fitDocument(config, registry, options, verdict.model.kind === "diffusers");
          renderVerdict(container, result, verdict, fit);
        } catch (error) {
          renderError(result, error.message);
        }
      }

      form.addEventListener("submit", function (event) { event.preventDefault(); run(); });
      // The home page's "check" box sends ?model=<a Hub id or a pasted config.json>: JSON goes to the config box
      // (and is checked once the registry has loaded), an id to the Hub field. An old link's ?q= is read too;
      // Material also opens its search dialog for ?q=, so that dialog is closed again.
      var params = new URLSearchParams(window.location.search);
      var asked = (params.get("model") || params.get("q") || "").trim();
      var askedConfig = asked.charAt(0) === "{";
      if (askedConfig) {
        textarea.value = asked;
      } else if (asked && hubInput) {
        hubInput.value = asked;
      }
      if (params.get("q")) closeSearchDialog(params.get("q"));
      if (fetchButton) {
        fetchButton.addEventListener("click", function () {
          if (!registry) return renderError(result, "The registry has not loaded yet.");
          var id = hubInput.value.trim();
          if (!isValidRepoId(id)) return renderError(result, "'" + id + "' is not a valid Hub repo id (namespace/name).");
          renderError(result, "Fetching " + id + " from the Hub\u2026");
          fetch("https://huggingface.co/" + id + "/resolve/main/config.json").then(function (response) {
            if (!response.ok) throw new Error("the Hub answered HTTP " + response.status + " (gated, private or missing?)");
            return response.text();
          }).then(function (body) {
            textarea.value = body;
            run();
          }).catch(function (error) {
            renderError(result, "Could not fetch " + id + ": " + error.message +
              ". Open its config.json on the Hub and paste it here, or run: neuron-compat check " + id);
          });
        });
      }
      fetch(registryUrl(container)).then(function (response) {
        if (!response.ok) throw new Error("HTTP " + response.status);
        return response.json();
      }).then(function (data) {
        useTables(data);
        registry = data;
        fillSelect(releaseSelect, releaseVersions(data).reverse(), "newest (" + releaseVersions(data).slice(-1)[0] + ")");
        fillSelect(stackSelect, data.stacks.map(function (s) { return s.id; }), "all stacks");
        fillSelect(workloadSelect, data.check_tables.workloads, "all workloads");
        if (hardwareSelect) fillSelect(hardwareSelect, data.check_tables.hardware_order, "all hardware");
        var dtypeSelect = container.querySelector("#nc-check-dtype");
        if (dtypeSelect) fillSelect(dtypeSelect, Object.keys(data.check_tables.sizing_dtype_bytes), "the config's (else " + data.check_tables.fit_defaults.dtype + ")");
        var instanceSelect = container.querySelector("#nc-check-instance");
        if (instanceSelect) fillSelect(instanceSelect, ((data.instances || {}).instances || []).map(function (i) { return i.name; }), "all instances");
        if (asked && !askedConfig && hubInput) showHubHint(container, hubInput.value);  // the id rule comes with the registry
        container.setAttribute("data-ready", "yes");
        if (askedConfig) run();
      }).catch(function (error) {
        container.setAttribute("data-ready", "failed");
        renderError(result, "Could not load the registry (" + error.message + ").");
      });
    };
    if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", boot);
    else boot();
  }

  return {
    normaliseConfig: config.normaliseConfig,
    parseConfigText: parseConfigText,
    resolve: resolver.resolve,
    checkConfig: checkConfig,
    checkDocument: checkDocument,
    compareVersions: resolver.compareVersions,
    isValidRepoId: isValidRepoId,
    startPage: startPage,
    useTables: useTables
  };
});
