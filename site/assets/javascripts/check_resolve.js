/*
 * neuron-compat check, in the browser: the answer. A pure port of src/neuron_compat/check/resolver.py (same rules, same
 * field names, same messages) over the registry.json the site publishes, and of `check --json`'s exit code
 * (commands/check.py verdict_document). It reads configs with check_config.js; check.js is the page.
 */
(function (root, factory) {
  "use strict";
  if (typeof module === "object" && module.exports) {
    module.exports = factory(require("./check_config.js"));
  } else {
    root.NeuronCompatResolve = factory(root.NeuronCompatConfig);
  }
})(typeof self !== "undefined" ? self : this, function (reader) {
  "use strict";

  var has = reader.has;
  var codePoints = reader.codePoints;
  var normaliseConfig = reader.normaliseConfig;
  var T = null;  // reader.useTables's tables: the compiled document's check_tables

  function useTables(registry) {
    T = reader.useTables(registry);
    return T;
  }

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

  // Registry JSON as it is (resolve._plain): a field added to a constraint or note needs no change here.
  function copy(value) {
    return JSON.parse(JSON.stringify(value));
  }

  // An answer carries every statement field it does not work out itself, as it is (resolve.carried_fields): a new
  // statement field reaches the answer with no change here. They follow T.carried_after in the answer's JSON.
  function carriedOf(statement, answer) {
    var carried = {};
    Object.keys(statement).forEach(function (key) {
      if (!has(answer, key) && T.not_carried.indexOf(key) < 0) carried[key] = copy(statement[key]);
    });
    return carried;
  }

  // A copy of `object` with the keys of `extra` right after `after` (resolve.insert_after).
  function insertAfter(object, after, extra) {
    var result = {};
    Object.keys(object).forEach(function (key) {
      result[key] = object[key];
      if (key === after) Object.keys(extra).forEach(function (name) { result[name] = extra[name]; });
    });
    return result;
  }

  // The carried fields of a row no statement holds: each empty, named as the registry's first statement names them.
  function carriedWhenAbsent(families, answer) {
    for (var i = 0; i < families.length; i++) {
      if (families[i].support.length) {
        var carried = carriedOf(families[i].support[0], answer);
        Object.keys(carried).forEach(function (name) { carried[name] = Array.isArray(carried[name]) ? [] : null; });
        return carried;
      }
    }
    return {};
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
    var answer = {
      stack: stack.id, stack_name: stack.name, workload: statement.workload, hardware: statement.hardware.slice(),
      status: status, verdict: verdict,
      display_status: verdict === "supported" && requirements ? "supported-with-requirements" : verdict,
      attention: effective.attention.values.slice(), dtypes: effective.dtypes.values.slice(),
      quantization: effective.quantization.values.slice(), attention_origin: effective.attention.origin,
      dtypes_origin: effective.dtypes.origin, quantization_origin: effective.quantization.origin,
      constraints: statement.constraints.map(copy),
      notes: statement.notes.filter(function (n) {
        return n.release === null || n.release === undefined || compareVersions(n.release, release) <= 0;
      }).map(copy),
      caveats: caveats, anchor: statement.stack + "-" + statement.workload,
      sources: statement.sources.map(function (s) { return s.url; }),
      capability_sources: effective.capability_sources.slice()
    };
    return insertAfter(answer, T.carried_after, carriedOf(statement, answer));
  }

  function absentAnswer(stack, workload, statements, release, family, families, versions) {
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
      var heldThrough = versions.filter(function (v) { return compareVersions(v, last.until) < 0; });
      var through = heldThrough.length ? " held through " + heldThrough[heldThrough.length - 1] + " and" : "";
      message = "no statement holds at " + release + "; the last one" + through + " ended at " + last.until;
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
    var answer = {
      stack: stack.id, stack_name: stack.name, workload: workload, hardware: unique(hardware),
      status: status, verdict: status, display_status: status, attention: [], dtypes: [], quantization: [],
      attention_origin: null, dtypes_origin: null, quantization_origin: null, constraints: [], notes: [],
      caveats: [caveat(kind, false, message)], anchor: group.length ? group[0].stack + "-" + group[0].workload : null,
      sources: unique(sources), capability_sources: []
    };
    return insertAfter(answer, T.carried_after, carriedWhenAbsent(families, answer));
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
            answers.push(absentAnswer(candidate, wanted, statements, release, family, registry.families, versions));
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

  // What `check --json` prints (commands/check.py verdict_document): the verdict with the command's exit code
  // after `status` (the registry origin is the CLI's own).
  function checkDocument(verdict) {
    return insertAfter(verdict, "status", { exit_code: T.exit_for_status[verdict.status] });
  }

  return {
    useTables: useTables,
    releaseVersions: releaseVersions,
    compareVersions: compareVersions,
    resolve: resolve,
    checkConfig: checkConfig,
    checkDocument: checkDocument
  };
});
