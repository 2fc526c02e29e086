/*
 * neuron-compat check, in the browser: reading a config. A pure port of src/neuron_compat/check/config_facts.py (same
 * rules, same field names, same messages) and the keeper of the constant tables every check_*.js reads.
 * check_resolve.js answers from what this reads; check.js is the page. tests/check runs them with node on every
 * fixture config and requires exactly the JSON that `neuron-compat check --json` prints: change them together.
 */
(function (root, factory) {
  "use strict";
  var api = factory();
  if (typeof module === "object" && module.exports) {
    module.exports = api;
  } else {
    root.NeuronCompatConfig = api;
  }
})(typeof self !== "undefined" ? self : this, function () {
  "use strict";


  // The constant tables (dtype names, config keys, status ranks, exit codes, ...) are not copied here: they come
  // from the Python constants, published as the compiled document's `check_tables` (src/neuron_compat/check/tables.py).
  var T = null;

  function useTables(registry) {
    if (!registry || !isObject(registry.check_tables)) {
      throw new Error("this registry.json has no check_tables section; rebuild it with a newer neuron-compat");
    }
    T = registry.check_tables;
    return T;
  }

  function tables() {
    if (T === null) throw new Error("no registry read yet: call useTables(registry) first");
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

  return {
    useTables: useTables,
    tables: tables,
    has: has,
    isObject: isObject,
    codePoints: codePoints,
    normaliseConfig: normaliseConfig,
    parseConfigText: parseConfigText
  };
});
