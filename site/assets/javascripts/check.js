/*
 * neuron-compat: the "Check a model" page.
 *
 * The core (normaliseConfig, resolve, checkConfig) is a pure port of src/neuron_compat/model_config.py and
 * src/neuron_compat/resolve.py: same rules, same field names, same messages. tests/check runs it with node on
 * every fixture config and requires exactly the JSON that `neuron-compat check --json` prints, so change the
 * two together. The page part renders with textContent only: registry and config text is never HTML.
 */
(function (root, factory) {
  "use strict";
  var api = factory();
  if (typeof module === "object" && module.exports) {
    module.exports = api;
  } else {
    root.NeuronCompatCheck = api;
    api.startPage();
  }
})(typeof self !== "undefined" ? self : this, function () {
  "use strict";

  // The constant tables (dtype names, config keys, status ranks, exit codes, ...) are not copied here: they come
  // from the Python constants, published as the compiled document's `check_tables` (src/neuron_compat/check_tables.py).
  var T = null;

  function useTables(registry) {
    if (!registry || !isObject(registry.check_tables)) {
      throw new Error("this registry.json has no check_tables section; rebuild it with a newer neuron-compat");
    }
    T = registry.check_tables;
    return T;
  }

  function has(object, key) {
    return Object.prototype.hasOwnProperty.call(object, key);
  }

  function get(object, key) {
    return has(object, key) ? object[key] : undefined;
  }

  function isObject(value) {
    return value !== null && typeof value === "object" && !Array.isArray(value);
  }

  function codePoints(text) {
    return Array.from(text);
  }

  // --- model_config.py -------------------------------------------------------------------------------

  function text(value) {
    if (typeof value === "string" && value.length > 0 && codePoints(value).length <= T.max_text &&
        value.indexOf("\n") < 0) {
      return value;
    }
    return null;
  }

  function positiveInt(value) {
    if (typeof value !== "number" || !Number.isInteger(value)) return null;
    return value > 0 && value < Math.pow(2, 53) ? value : null;
  }

  function number(value) {
    return typeof value === "number" ? value : null;
  }

  function first(sources, keys, read) {
    for (var i = 0; i < sources.length; i++) {
      for (var j = 0; j < keys.length; j++) {
        var value = read(get(sources[i], keys[j]));
        if (value !== null) return value;
      }
    }
    return null;
  }

  function dtypeOf(sources) {
    var raw = first(sources, ["dtype", "torch_dtype"], text);
    if (raw === null) return [null, null];
    var name = raw.indexOf("torch.") === 0 ? raw.slice(6) : raw;
    return [has(T.dtype_names, name) ? T.dtype_names[name] : null, raw];
  }

  function ropeOf(sources) {
    for (var i = 0; i < sources.length; i++) {
      var keys = ["rope_scaling", "rope_parameters"];
      for (var j = 0; j < keys.length; j++) {
        var value = get(sources[i], keys[j]);
        if (!isObject(value)) continue;
        var kind = text(get(value, "rope_type")) || text(get(value, "type"));
        if (kind === null || kind === "default") continue;
        return {
          type: kind,
          factor: number(get(value, "factor")),
          original_max_position_embeddings: positiveInt(get(value, "original_max_position_embeddings"))
        };
      }
    }
    return null;
  }

  function quantizationOf(config) {
    var value = get(config, "quantization_config");
    if (!isObject(value)) return null;
    var method = text(get(value, "quant_method"));
    if (method === null && ["load_in_4bit", "load_in_8bit", "_load_in_4bit", "_load_in_8bit"].some(function (k) {
      return get(value, k) === true;
    })) {
      method = "bitsandbytes";
    }
    if (method === null) method = "unknown";
    var lower = method.toLowerCase();
    return { method: method, id: has(T.quant_methods, lower) ? T.quant_methods[lower] : null };
  }

  function moeOf(sources) {
    var experts = first(sources, T.expert_keys, positiveInt);
    if (experts === null || experts < 2) return null;
    return {
      experts: experts,
      experts_per_token: first(sources, T.experts_per_token_keys, positiveInt),
      shared_experts: first(sources, T.shared_expert_keys, positiveInt)
    };
  }

  function slidingWindowOf(sources) {
    for (var i = 0; i < sources.length; i++) {
      if (get(sources[i], "use_sliding_window") === false) return null;
      var window = positiveInt(get(sources[i], "sliding_window"));
      if (window !== null) return window;
    }
    return null;
  }

  function sortedKeys(object) {
    return Object.keys(object).sort(function (a, b) { return a < b ? -1 : a > b ? 1 : 0; });
  }

  function stringMap(value) {
    var result = {};
    if (!isObject(value)) return result;
    sortedKeys(value).forEach(function (key) {
      var name = text(key);
      var item = value[key];
      if (Array.isArray(item)) {
        var found = item.filter(function (part) { return text(part) !== null; });
        item = found.length ? found[0] : null;
      }
      if (name && text(item)) result[name] = item;
    });
    return result;
  }

  function facts(fields) {
    var base = {
      kind: "transformers", model_type: null, architectures: [], pipeline_class: null, components: {},
      text_model_type: null, dtype: null, dtype_raw: null, attn_implementation: null, sliding_window: null,
      rope_scaling: null, max_position_embeddings: null, quantization: null, moe: null, remote_code: false,
      auto_map: {}, transformers_version: null
    };
    Object.keys(fields).forEach(function (key) { base[key] = fields[key]; });
    return base;
  }

  function jsonKind(value) {
    if (Array.isArray(value)) return "an array";
    if (value === null) return "null";
    if (typeof value === "boolean") return "a boolean";
    if (typeof value === "number") return "a number";
    return "a string";
  }

  function ConfigError(message) {
    var error = new Error(message);
    error.name = "ConfigError";
    return error;
  }

  function diffusersFacts(config) {
    var components = {};
    sortedKeys(config).forEach(function (name) {
      var value = config[name];
      if (name.charAt(0) === "_" || !Array.isArray(value) || value.length !== 2) return;
      var library = text(value[0]);
      var className = text(value[1]);
      if (library && className) components[name] = library + "." + className;
    });
    return facts({ kind: "diffusers", pipeline_class: text(get(config, "_class_name")), components: components });
  }

  function normaliseConfig(config) {
    if (!isObject(config)) throw ConfigError("expected a JSON object, found " + jsonKind(config));
    if (!has(config, "model_type") && !has(config, "architectures")) {
      if (has(config, "_class_name")) {
        if (text(config._class_name) === null) {
          throw ConfigError("_class_name must be a pipeline class name such as 'StableDiffusionXLPipeline'");
        }
        return diffusersFacts(config);
      }
      throw ConfigError("not a transformers config.json or a diffusers model_index.json " +
        "(no model_type, architectures or _class_name)");
    }
    var textConfig = isObject(get(config, "text_config")) ? config.text_config : null;
    var sources = textConfig ? [config, textConfig] : [config];
    var architectures = get(config, "architectures");
    var dtype = dtypeOf(sources);
    var autoMap = stringMap(get(config, "auto_map"));
    return facts({
      kind: "transformers",
      model_type: text(get(config, "model_type")),
      architectures: Array.isArray(architectures) ? architectures.filter(function (a) { return text(a) !== null; }) : [],
      text_model_type: textConfig ? text(get(textConfig, "model_type")) : null,
      dtype: dtype[0],
      dtype_raw: dtype[1],
      attn_implementation: first(sources, ["attn_implementation", "_attn_implementation"], text),
      sliding_window: slidingWindowOf(sources),
      rope_scaling: ropeOf(sources),
      max_position_embeddings: first(sources, T.context_keys, positiveInt),
      quantization: quantizationOf(config),
      moe: moeOf(sources),
      remote_code: Object.keys(autoMap).length > 0,
      auto_map: autoMap,
      transformers_version: text(get(config, "transformers_version"))
    });
  }

  function parseConfigText(source, where) {
    var size = typeof TextEncoder !== "undefined" ? new TextEncoder().encode(source).length : source.length;
    if (size > T.max_config_bytes) {
      throw ConfigError(where + ": " + size + " bytes is too large for a config (limit " + T.max_config_bytes + " bytes)");
    }
    try {
      return JSON.parse(source);
    } catch (error) {
      throw ConfigError(where + ": malformed JSON: " + error.message);
    }
  }

  // --- resolve.py ------------------------------------------------------------------------------------

  function versionKey(version) {
    return version.split(".").map(function (piece) {
      var digits = /^\d+/.exec(piece);
      return digits ? parseInt(digits[0], 10) : -1;
    });
  }

  function compareVersions(a, b) {
    var x = versionKey(a);
    var y = versionKey(b);
    for (var i = 0; i < Math.min(x.length, y.length); i++) {
      if (x[i] !== y[i]) return x[i] < y[i] ? -1 : 1;
    }
    return x.length - y.length;
  }

  function covers(statement, release) {
    if (statement.since !== null && statement.since !== undefined && compareVersions(release, statement.since) < 0) {
      return false;
    }
    return statement.until === null || statement.until === undefined || compareVersions(release, statement.until) < 0;
  }

  function stackAvailable(stack, release) {
    if (stack.since && compareVersions(release, stack.since) < 0) return false;
    return !stack.end_of_support || compareVersions(release, stack.end_of_support) < 0;
  }

  // views.beyond_horizon / horizon_note: a separately released stack's claims are unknown past the newest
  // Neuron release one of its versions targets.
  function beyondHorizon(stack, release) {
    if (!stack.separate_releases || !stack.versions || !stack.versions.length) return false;
    var horizon = stack.versions.reduce(function (best, v) {
      return best === null || compareVersions(v.neuron, best) > 0 ? v.neuron : best;
    }, null);
    return compareVersions(release, horizon) > 0;
  }

  function horizonNote(stack, release) {
    var newest = stack.versions[stack.versions.length - 1];
    return "no " + stack.name + " release targets Neuron " + release + " yet; its newest, " + newest.version +
      ", targets Neuron " + newest.neuron;
  }

  function levenshtein(a, b) {
    var left = codePoints(a);
    var right = codePoints(b);
    var previous = [];
    for (var k = 0; k <= right.length; k++) previous.push(k);
    for (var i = 1; i <= left.length; i++) {
      var current = [i];
      for (var j = 1; j <= right.length; j++) {
        current.push(Math.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (left[i - 1] !== right[j - 1] ? 1 : 0)));
      }
      previous = current;
    }
    return previous[previous.length - 1];
  }

  function compareStrings(a, b) {
    return a < b ? -1 : a > b ? 1 : 0;
  }

  function nearestFamilies(name, pairs) {
    var limit = Math.max(2, Math.floor(codePoints(name).length / 3));
    var best = {};
    var order = [];
    pairs.forEach(function (pair) {
      var distance = levenshtein(name.toLowerCase(), pair[0].toLowerCase());
      var current = has(best, pair[1]) ? best[pair[1]] : limit + 1;
      if (distance <= limit && distance < current) {
        if (!has(best, pair[1])) order.push(pair[1]);
        best[pair[1]] = distance;
      }
    });
    return order.sort(function (a, b) { return best[a] - best[b] || compareStrings(a, b); }).slice(0, T.nearest_limit);
  }

  function formatValue(value) {
    if (typeof value === "boolean") return value ? "true" : "false";
    if (Array.isArray(value)) return value.map(formatValue).join(", ");
    return String(value);
  }

  function caveat(kind, limits, message) {
    return { kind: kind, limits: limits, message: message };
  }

  function unknownCaveat(what, nearest) {
    var tail = nearest.length ? "; nearest covered families: " + nearest.join(", ") : "; no covered family is close";
    return caveat("unknown-model-type", true, what + tail);
  }

  function unique(values) {
    var seen = {};
    return values.filter(function (value) {
      if (has(seen, value)) return false;
      seen[value] = true;
      return true;
    });
  }

  function findFamily(model, families) {
    var i, j;
    if (model.kind === "diffusers") {
      var pipeline = model.pipeline_class || "";
      for (i = 0; i < families.length; i++) {
        if (families[i].pipelines.indexOf(pipeline) >= 0) {
          return [families[i], { id: families[i].id, name: families[i].name, matched_by: "pipeline", value: pipeline }, [], []];
        }
      }
      var pipelinePairs = [];
      families.forEach(function (f) { f.pipelines.forEach(function (p) { pipelinePairs.push([p, f.id]); }); });
      var nearestPipelines = nearestFamilies(pipeline, pipelinePairs);
      return [null, null, [unknownCaveat("pipeline class '" + pipeline + "' is not in the registry", nearestPipelines)], nearestPipelines];
    }
    var modelType = model.model_type;
    if (modelType !== null) {
      for (i = 0; i < families.length; i++) {
        if (families[i].model_types.indexOf(modelType) >= 0) {
          return [families[i], { id: families[i].id, name: families[i].name, matched_by: "model_type", value: modelType }, [], []];
        }
      }
    }
    for (j = 0; j < model.architectures.length; j++) {
      var architecture = model.architectures[j];
      for (i = 0; i < families.length; i++) {
        if (families[i].architectures.indexOf(architecture) >= 0) {
          var said = modelType !== null ? "model_type '" + modelType + "' is not listed by family '" + families[i].id + "'"
            : "the config names no model_type";
          var matched = caveat("matched-by-architecture", true, said + "; matched by the architecture " + architecture +
            ", and stacks usually dispatch on model_type");
          return [families[i], { id: families[i].id, name: families[i].name, matched_by: "architectures", value: architecture },
            [matched], []];
        }
      }
    }
    var covered = [];
    families.forEach(function (f) { f.model_types.forEach(function (m) { covered.push([m, f.id]); }); });
    var siblings = [];
    if (model.text_model_type !== null) {
      covered.forEach(function (pair) { if (pair[0] === model.text_model_type) siblings.push(pair); });
    }
    if (modelType !== null) {
      covered.forEach(function (pair) {
        var m = pair[0];
        if (m !== modelType && (m.indexOf(modelType + "_") === 0 || modelType.indexOf(m + "_") === 0)) siblings.push(pair);
      });
    }
    var seen = {};
    siblings = siblings.filter(function (pair) {
      var key = JSON.stringify(pair);
      if (has(seen, key)) return false;
      seen[key] = true;
      return true;
    }).sort(function (a, b) { return compareStrings(a[0], b[0]) || compareStrings(a[1], b[1]); });
    if (siblings.length) {
      var listed = siblings.map(function (pair) { return pair[0] + " (family " + pair[1] + ")"; }).join(", ");
      var siblingFamilies = unique(siblings.map(function (pair) { return pair[1]; }));
      var subject = modelType !== null ? "model_type '" + modelType + "' is not covered" : "the config names no model_type";
      return [null, null, [caveat("sibling-covered", true, subject + ", but its sibling " + listed +
        " is; an answer for a sibling does not carry over")], siblingFamilies];
    }
    if (modelType === null) {
      var names = model.architectures.join(", ") || "none";
      return [null, null, [unknownCaveat("the config names no model_type and no known architecture (" + names + ")", [])], []];
    }
    var nearest = nearestFamilies(modelType, covered);
    return [null, null, [unknownCaveat("model_type '" + modelType + "' is not in the registry", nearest)], nearest];
  }

  // A statement's effective values as export.py wrote them (capabilities.py: own values, else its stack's).
  function effectiveOf(statement) {
    var none = { values: [], origin: null };
    var effective = statement.effective || {};
    return {
      attention: effective.attention || none, dtypes: effective.dtypes || none,
      quantization: effective.quantization || none, capability_sources: effective.capability_sources || []
    };
  }

  // The same words as `check`'s table (capabilities.ORIGIN_LABELS).
  var ORIGIN_LABELS = { stack: "from the stack", family: "stated for this family" };

  function valuesLine(answer) {
    return ["attention", "dtypes", "quantization"].filter(function (name) { return answer[name].length; })
      .map(function (name) {
        return name + ": " + answer[name].join(", ") + " (" + (ORIGIN_LABELS[answer[name + "_origin"]] || "not stated") + ")";
      }).join("; ");
  }

  function whose(origin) {
    return origin === "stack" ? "this stack's" : "this statement's";
  }

  function rowCaveats(model, statement, effective) {
    var caveats = [];
    var dtypes = effective.dtypes;
    if (model.dtype_raw !== null && dtypes.values.length && dtypes.values.indexOf(model.dtype) < 0) {
      caveats.push(caveat("dtype-not-listed", false, "checkpoint dtype " + (model.dtype || model.dtype_raw) +
        " is not among " + whose(dtypes.origin) + " dtypes (" + dtypes.values.join(", ") + "); the stack may cast it"));
    }
    var attention = model.attn_implementation;
    var listedAttention = effective.attention;
    if (attention !== null && listedAttention.values.length && listedAttention.values.indexOf("native") < 0 &&
        listedAttention.values.indexOf(attention) < 0) {
      caveats.push(caveat("attention-not-listed", true, "attn_implementation " + attention +
        " is not among " + whose(listedAttention.origin) + " attention implementations (" +
        listedAttention.values.join(", ") + ")"));
    }
    var quantization = model.quantization;
    var methods = effective.quantization;
    if (quantization !== null && (quantization.id === null || methods.values.indexOf(quantization.id) < 0)) {
      var listed = methods.values.join(", ") || "none listed";
      caveats.push(caveat("quantization-not-listed", true, "quantization " + (quantization.id || quantization.method) +
        " is not among " + whose(methods.origin) + " quantization methods (" + listed + ")"));
    }
    statement.constraints.forEach(function (constraint) {
      var kind = constraint.kind;
      if (kind === "max-sequence-length" && model.max_position_embeddings !== null &&
          Number.isInteger(constraint.value) && model.max_position_embeddings > constraint.value) {
        caveats.push(caveat("context-beyond-verified", false, "max_position_embeddings " + model.max_position_embeddings +
          " is beyond the " + constraint.value + " tokens this statement was verified with"));
      } else if (T.requirement_kinds.indexOf(kind) >= 0) {
        var value = constraint.value === null || constraint.value === undefined ? "" : " = " + formatValue(constraint.value);
        caveats.push(caveat("requires", false, "requires " + kind + " " + constraint.name + value));
      }
    });
    return caveats;
  }

  function nullable(value) {
    return value === undefined ? null : value;
  }

  function answerFor(stack, statement, model, familyCaveats, release) {
    var effective = effectiveOf(statement);
    var caveats = rowCaveats(model, statement, effective);
    var status = statement.status;
    var verdict = status;
    if (status === "supported" && caveats.concat(familyCaveats).some(function (c) { return c.limits; })) verdict = "partial";
    if (status !== "unknown" && beyondHorizon(stack, release)) {
      caveats.push(caveat("beyond-horizon", true, horizonNote(stack, release)));
      verdict = "unknown";
    }
    var requirements = statement.constraints.some(function (c) { return T.requirement_kinds.indexOf(c.kind) >= 0; });
    return {
      stack: stack.id, stack_name: stack.name, workload: statement.workload, hardware: statement.hardware.slice(),
      status: status, verdict: verdict,
      display_status: verdict === "supported" && requirements ? "supported-with-requirements" : verdict,
      since: nullable(statement.since), until: nullable(statement.until),
      stack_since: nullable(statement.stack_since), stack_until: nullable(statement.stack_until),
      attention: effective.attention.values.slice(), dtypes: effective.dtypes.values.slice(),
      quantization: effective.quantization.values.slice(), attention_origin: effective.attention.origin,
      dtypes_origin: effective.dtypes.origin, quantization_origin: effective.quantization.origin,
      constraints: statement.constraints.map(function (c) {
        return { kind: c.kind, name: nullable(c.name), value: nullable(c.value), note: nullable(c.note) };
      }),
      notes: statement.notes.filter(function (n) {
        return n.release === null || n.release === undefined || compareVersions(n.release, release) <= 0;
      }).map(function (n) { return { release: nullable(n.release), text: n.text }; }),
      caveats: caveats, anchor: statement.stack + "-" + statement.workload,
      sources: statement.sources.map(function (s) { return s.url; }),
      capability_sources: effective.capability_sources.slice()
    };
  }

  function absentAnswer(stack, workload, statements, release, family) {
    var later = statements.filter(function (s) { return s.since && compareVersions(s.since, release) > 0; })
      .sort(function (a, b) { return compareVersions(a.since, b.since); });
    var ended = statements.filter(function (s) { return s.until && compareVersions(s.until, release) <= 0; })
      .sort(function (a, b) { return compareVersions(a.until, b.until); });
    var group = [];
    var status;
    var kind;
    var message;
    if (later.length) {
      group = later.filter(function (s) { return s.since === later[0].since; });
      status = "unsupported";
      kind = "not-yet";
      message = "no statement holds at " + release + "; the first one starts at " + later[0].since + " (" + later[0].status + ")";
    } else if (ended.length) {
      var last = ended[ended.length - 1];
      group = ended.filter(function (s) { return s.until === last.until; });
      status = "unsupported";
      kind = "ended";
      message = "no statement holds at " + release + "; the last one ended at " + last.until;
    } else {
      status = "unknown";
      kind = "no-statement";
      message = "the registry has no statement for " + family.id + " on " + stack.id + " (" + workload + ")";
    }
    var hardware = [];
    var sources = [];
    group.forEach(function (s) {
      s.hardware.forEach(function (h) { hardware.push(h); });
      s.sources.forEach(function (src) { sources.push(src.url); });
    });
    return {
      stack: stack.id, stack_name: stack.name, workload: workload, hardware: unique(hardware),
      status: status, verdict: status, display_status: status, since: null, until: null, stack_since: null,
      stack_until: null, attention: [], dtypes: [], quantization: [], attention_origin: null, dtypes_origin: null,
      quantization_origin: null, constraints: [], notes: [], caveats: [caveat(kind, false, message)],
      anchor: group.length ? group[0].stack + "-" + group[0].workload : null,
      sources: unique(sources), capability_sources: []
    };
  }

  function ResolveError(message) {
    var error = new Error(message);
    error.name = "ResolveError";
    return error;
  }

  function releaseVersions(registry) {
    return registry.releases.map(function (r) { return r.version; }).sort(compareVersions);
  }

  function summaryOf(model, family, status, answers, release) {
    if (family === null) {
      var label = model.kind === "diffusers" ? model.pipeline_class : model.model_type;
      return (label || "this config") + ": unknown at Neuron " + release + " (not in the registry)";
    }
    if (!answers.length) return family.name + ": unknown at Neuron " + release + " (no statement for this stack or workload)";
    var result = family.name + ": " + status + " at Neuron " + release;
    if (status === "supported" || status === "partial") {
      result += " on " + unique(answers.filter(function (a) { return a.verdict === status; })
        .map(function (a) { return a.stack; })).join(", ");
    }
    return result;
  }

  function resolve(model, registry, options) {
    useTables(registry);
    options = options || {};
    var versions = releaseVersions(registry);
    if (!versions.length) throw ResolveError("the registry lists no Neuron releases");
    var release = options.release || versions[versions.length - 1];
    var stackId = options.stack || null;
    var workload = options.workload || null;
    if (versions.indexOf(release) < 0) {
      throw ResolveError("Neuron release '" + release + "' is not in the registry; known releases: " + versions.join(", "));
    }
    if (stackId !== null && !registry.stacks.some(function (s) { return s.id === stackId; })) {
      throw ResolveError("unknown stack '" + stackId + "'; known stacks: " + registry.stacks.map(function (s) { return s.id; }).join(", "));
    }
    if (workload !== null && T.workloads.indexOf(workload) < 0) {
      throw ResolveError("unknown workload '" + workload + "'; use inference or training");
    }
    var workloads = workload ? [workload] : T.workloads.slice();
    var found = findFamily(model, registry.families);
    var family = found[0];
    var caveats = found[2];
    if (model.remote_code) {
      caveats.push(caveat("remote-code", false, "config.json has auto_map: the checkpoint ships its own modeling code " +
        "(trust_remote_code); Neuron stacks run their own implementation of the family, so " +
        "check that the custom code does not change the architecture"));
    }
    var answers = [];
    var noStatement = [];
    if (family !== null) {
      var familyCaveats = caveats.filter(function (c) { return c.limits; });
      registry.stacks.forEach(function (candidate) {
        if (stackId !== null && candidate.id !== stackId) return;
        workloads.forEach(function (wanted) {
          var statements = family.support.filter(function (s) { return s.stack === candidate.id && s.workload === wanted; });
          var shipped = stackAvailable(candidate, release);
          var holding = shipped ? statements.filter(function (s) { return covers(s, release); }) : [];
          if (holding.length) {
            holding.forEach(function (s) { answers.push(answerFor(candidate, s, model, familyCaveats, release)); });
          } else if (statements.length || (stackId !== null && candidate.workloads.indexOf(wanted) >= 0)) {
            answers.push(absentAnswer(candidate, wanted, statements, release, family));
          }
        });
      });
      noStatement = registry.stacks.filter(function (s) {
        return stackId === null && stackAvailable(s, release) &&
          workloads.some(function (w) { return s.workloads.indexOf(w) >= 0; }) &&
          !family.support.some(function (st) { return st.stack === s.id && workloads.indexOf(st.workload) >= 0; });
      }).map(function (s) { return s.id; });
    }
    var status = "unknown";
    answers.forEach(function (a) { if (T.status_rank[a.verdict] > T.status_rank[status]) status = a.verdict; });
    return {
      format: T.verdict_format, release: release, stack: stackId, workload: workload, model: model, family: found[1],
      status: status, summary: summaryOf(model, family, status, answers, release),
      caveats: caveats, answers: answers, no_statement: noStatement, nearest: found[3]
    };
  }

  function checkConfig(config, registry, options) {
    useTables(registry);
    return resolve(normaliseConfig(config), registry, options);
  }

  // --- the page --------------------------------------------------------------------------------------

  var HUB_ID = /^(?:[A-Za-z0-9][A-Za-z0-9._-]{0,95}\/)?[A-Za-z0-9][A-Za-z0-9._-]{0,95}$/;

  function isValidRepoId(value) {
    return HUB_ID.test(value) && value.indexOf("..") < 0 && value.indexOf("--") < 0 && !/[.-]$/.test(value);
  }

  function element(tag, className, content) {
    var node = document.createElement(tag);
    if (className) node.className = className;
    if (content !== undefined && content !== null) node.textContent = String(content);
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

  function renderVerdict(container, result, verdict) {
    result.replaceChildren();
    var heading = element("p", "nc-check-summary nc-status-" + verdict.status);
    heading.appendChild(element("strong", null, verdict.status));
    heading.appendChild(document.createTextNode(" \u2014 " + verdict.summary));
    result.appendChild(heading);
    result.setAttribute("data-status", verdict.status);
    result.setAttribute("data-exit-code", String(T.exit_for_status[verdict.status]));  // what `check` would exit with

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
    if (verdict.answers.length) {
      var table = element("table", "nc-check-table");
      var head = element("tr");
      ["Stack", "Workload", "Hardware", "Verdict", "Since", "Until", "Attention / dtypes", "Caveats"].forEach(function (h) { head.appendChild(element("th", null, h)); });
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
        row.appendChild(element("td", "nc-verdict", a.display_status));
        row.appendChild(element("td", null, a.since || "\u2014"));
        row.appendChild(element("td", null, a.until || "\u2014"));
        row.appendChild(element("td", "nc-check-values", valuesLine(a) || "\u2014"));
        var notes = element("td");
        if (a.caveats.length) {
          var ul = element("ul");
          a.caveats.forEach(function (c) { ul.appendChild(element("li", "nc-caveat nc-caveat-" + c.kind, c.message)); });
          notes.appendChild(ul);
        }
        row.appendChild(notes);
        body.appendChild(row);
      });
      table.appendChild(body);
      result.appendChild(table);
    }
    if (verdict.no_statement.length) {
      result.appendChild(element("p", "nc-check-none", "No statement for: " + verdict.no_statement.join(", ")));
    }
    var details = element("details", "nc-check-json");
    details.appendChild(element("summary", null, "The same answer as JSON (neuron-compat check --json)"));
    details.appendChild(element("pre", null, JSON.stringify(checkDocument(verdict), null, 1)));
    result.appendChild(details);
  }

  // What `check --json` prints (commands/check.py verdict_document): the verdict with the command's exit code
  // after `status` (the registry origin is the CLI's own).
  function checkDocument(verdict) {
    var shown = {};
    Object.keys(verdict).forEach(function (name) {
      shown[name] = verdict[name];
      if (name === "status") shown.exit_code = T.exit_for_status[verdict.status];
    });
    return shown;
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
      var result = container.querySelector("#nc-check-result");
      var fetchButton = container.querySelector("#nc-check-fetch");
      var registry = null;

      function run() {
        if (!registry) return renderError(result, "The registry has not loaded yet.");
        var source = textarea.value.trim();
        if (!source) return renderError(result, "Paste a config.json or model_index.json first.");
        try {
          var config = parseConfigText(source, "pasted text");
          var verdict = checkConfig(config, registry, {
            release: releaseSelect.value || null, stack: stackSelect.value || null, workload: workloadSelect.value || null
          });
          renderVerdict(container, result, verdict);
        } catch (error) {
          renderError(result, error.message);
        }
      }

      form.addEventListener("submit", function (event) { event.preventDefault(); run(); });
      // The home page's "check" box sends ?q=<id>. Material also reads ?q= and opens its search dialog with it;
      // here the id belongs in the Hub field, so the dialog is closed again (Material then drops q from the URL).
      var params = new URLSearchParams(window.location.search);
      var asked = params.get("model") || params.get("q");
      if (asked && hubInput) {
        hubInput.value = asked.trim();
        showHubHint(container, hubInput.value);
        if (params.get("q")) closeSearchDialog(params.get("q"));
      }
      if (fetchButton) {
        fetchButton.addEventListener("click", function () {
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
        container.setAttribute("data-ready", "yes");
      }).catch(function (error) {
        container.setAttribute("data-ready", "failed");
        renderError(result, "Could not load the registry (" + error.message + ").");
      });
    };
    if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", boot);
    else boot();
  }

  return {
    normaliseConfig: normaliseConfig,
    parseConfigText: parseConfigText,
    resolve: resolve,
    checkConfig: checkConfig,
    checkDocument: checkDocument,
    compareVersions: compareVersions,
    isValidRepoId: isValidRepoId,
    startPage: startPage,
    useTables: useTables
  };
});
