/*
 * neuron-compat check, in the browser: the fit. A port of src/neuron_compat/sizing/ (parameter counts, weight and
 * KV-cache bytes, tensor-parallel heads) and src/neuron_compat/check/fit.py (the `fit` object of `check --json`):
 * same rules, same field names, same messages. Its constants (model layouts, dtype widths, defaults, the
 * tensor-parallel rules and their sources) come from the document's check_tables, never from a copy here.
 * tests/check runs it with node next to `neuron-compat check --json` and requires identical JSON.
 * Numbers: every count or byte size above 2^53 - 1 is refused by both ports, so doubles here are exact.
 */
(function (root, factory) {
  "use strict";
  if (typeof module === "object" && module.exports) {
    module.exports = factory(require("./check_config.js"));
  } else {
    root.NeuronCompatFit = factory(root.NeuronCompatConfig);
  }
})(typeof self !== "undefined" ? self : this, function (reader) {
  "use strict";

  var T = null;  // reader.useTables's tables: the compiled document's check_tables
  var own = reader.has;
  var isObject = reader.isObject;

  function useTables(registry) {
    T = reader.useTables(registry);
    return T;
  }

  // --- helpers: Python semantics on JSON values ----------------------------------------------------------------

  function get(config, name) {  // dict.get(name): None when absent
    return own(config, name) && config[name] !== undefined ? config[name] : null;
  }

  function inList(list, value) {
    return list.indexOf(value) >= 0;
  }

  function truthy(value) {  // Python truthiness of a JSON value
    if (Array.isArray(value)) return value.length > 0;
    if (isObject(value)) return Object.keys(value).length > 0;
    return Boolean(value);
  }

  var NOT_PRINTABLE = /[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Cn}\p{Zl}\p{Zp}\p{Zs}]/u;

  function hex(code, width) {
    var text = code.toString(16);
    while (text.length < width) text = "0" + text;
    return text;
  }

  function pyRepr(value) {  // repr() of a str, or of None
    if (value === null || value === undefined) return "None";
    var quote = value.indexOf("'") >= 0 && value.indexOf('"') < 0 ? '"' : "'";
    var out = quote;
    for (var i = 0; i < value.length; i++) {
      var code = value.codePointAt(i);
      var ch = String.fromCodePoint(code);
      if (code > 0xffff) i++;
      if (ch === quote || ch === "\\") out += "\\" + ch;
      else if (ch === "\t") out += "\\t";
      else if (ch === "\n") out += "\\n";
      else if (ch === "\r") out += "\\r";
      else if (ch !== " " && NOT_PRINTABLE.test(ch)) {
        out += code < 0x100 ? "\\x" + hex(code, 2) : code < 0x10000 ? "\\u" + hex(code, 4) : "\\U" + hex(code, 8);
      } else out += ch;
    }
    return out + quote;
  }

  var PY_SPACE = /^[\t\n\x0b\x0c\r\x1c-\x1f \x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+|[\t\n\x0b\x0c\r\x1c-\x1f \x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+$/g;

  function pyTypeName(value) {
    if (Array.isArray(value)) return "list";
    if (value === null) return "NoneType";
    if (typeof value === "boolean") return "bool";
    if (typeof value === "number") return Number.isInteger(value) ? "int" : "float";
    return "str";
  }

  // --- sizing/fields.py ----------------------------------------------------------------------------------------

  function FieldError(message) {
    this.message = message;
  }

  function has(config) {
    for (var i = 1; i < arguments.length; i++) {
      if (get(config, arguments[i]) !== null) return true;
    }
    return false;
  }

  function jsonKind(value) {
    if (Array.isArray(value)) return "an array";
    if (value === null) return "null";
    if (typeof value === "boolean") return "a boolean";
    if (typeof value === "number") return Number.isInteger(value) ? "a number" : "a number with a fraction";
    if (isObject(value)) return "an object";
    return "a string";
  }

  function asInt(value) {
    if (typeof value !== "number" || !Number.isInteger(value)) return null;
    return Math.abs(value) <= T.sizing_max_exact ? value : null;
  }

  function absurdText() {  // Python's f"{ABSURD:.0e}"
    var parts = T.sizing_absurd.toExponential(0).split("e");
    var exponent = parts[1].replace(/^([+-])(\d)$/, "$10$2");
    return parts[0] + "e" + exponent;
  }

  // read_int(config, *names, minimum=1, default=None)
  function readInt(config, names, minimum, fallback) {
    if (minimum === undefined) minimum = 1;
    for (var i = 0; i < names.length; i++) {
      var value = get(config, names[i]);
      if (value === null) continue;
      if (typeof value === "number") {
        if (value > T.sizing_absurd) throw new FieldError(names[i] + " is above " + absurdText() + ": not a plausible size");
        if (value < -T.sizing_absurd) throw new FieldError(names[i] + " is below " + minimum);
      }
      var number = asInt(value);
      if (number === null) throw new FieldError(names[i] + " is " + jsonKind(value) + ", not an integer");
      if (number < minimum) throw new FieldError(names[i] + " is " + number + ", below " + minimum);
      return number;
    }
    if (fallback !== undefined && fallback !== null) return fallback;
    throw new FieldError(names.join(" / ") + " is not set");
  }

  function readBool(config, name, fallback) {
    var value = get(config, name);
    if (value === null) return fallback;
    if (typeof value !== "boolean") throw new FieldError(name + " is " + jsonKind(value) + ", not true/false");
    return value;
  }

  function readIntList(config, name) {
    var value = get(config, name);
    if (value === null) return [];
    if (!Array.isArray(value) || value.some(function (v) { return asInt(v) === null; })) {
      throw new FieldError(name + " is " + jsonKind(value) + ", not a list of integers");
    }
    return value.slice();
  }

  function readStr(config, name) {
    var value = get(config, name);
    return typeof value === "string" ? value : null;
  }

  function subConfig(config, name) {
    var value = get(config, name);
    return isObject(value) ? value : null;
  }

  function exactDiv(numerator, denominator, what) {
    if (numerator % denominator) throw new FieldError(what + ": " + numerator + " is not divisible by " + denominator);
    return numerator / denominator;
  }

  // --- sizing/shapes.py ----------------------------------------------------------------------------------------

  function hiddenSize(config) { return readInt(config, T.sizing_hidden_keys); }
  function layers(config) { return readInt(config, T.sizing_layer_keys); }

  function attention(config, kvDefault) {
    var heads = readInt(config, T.sizing_head_keys);
    var kvHeads = readInt(config, ["num_key_value_heads", "num_kv_heads"], 1, kvDefault || heads);
    if (kvHeads > heads) {
      throw new FieldError("num_key_value_heads (" + kvHeads + ") is larger than num_attention_heads (" + heads + ")");
    }
    if (heads % kvHeads) {
      throw new FieldError("num_attention_heads (" + heads + ") is not a multiple of num_key_value_heads (" + kvHeads + ")");
    }
    var headDim = get(config, "head_dim") !== null ? readInt(config, ["head_dim"])
      : exactDiv(hiddenSize(config), heads, "hidden_size / num_attention_heads");
    return { heads: heads, kvHeads: kvHeads, headDim: headDim };
  }

  // --- sizing/counts.py ----------------------------------------------------------------------------------------

  function PartList(prefix) {
    this.prefix = prefix || "";
    this.parts = [];
    this.notes = [];
    this.assumedLayout = false;
  }
  PartList.prototype.add = function (name, compute) {
    try {
      var count = compute();
      if (count > T.sizing_max_exact) throw new FieldError("above 2^53 parameters: not a plausible size");
      this.parts.push({ name: this.prefix + name, count: count, reason: null });
    } catch (error) {
      if (!(error instanceof FieldError)) throw error;
      this.parts.push({ name: this.prefix + name, count: null, reason: error.message });
    }
  };
  PartList.prototype.fail = function (name, reason) {
    this.parts.push({ name: this.prefix + name, count: null, reason: reason });
  };
  PartList.prototype.extend = function (other) {
    this.parts = this.parts.concat(other.parts);
    this.notes = this.notes.concat(other.notes);
    this.assumedLayout = this.assumedLayout || other.assumedLayout;
  };

  function total(parts) {
    return parts.reduce(function (sum, part) { return part.count === null ? sum : sum + part.count; }, 0);
  }

  function complete(parts) {
    return parts.length > 0 && parts.every(function (part) { return part.count !== null; });
  }

  // --- sizing/decoder.py ---------------------------------------------------------------------------------------

  function attentionPerLayer(config, family) {
    var hidden = hiddenSize(config);
    if (has(config, "kv_lora_rank")) return mlaAttentionPerLayer(config, hidden);
    var shape = attention(config);
    var qOut = shape.heads * shape.headDim, kvOut = shape.kvHeads * shape.headDim;
    var count = hidden * qOut + 2 * hidden * kvOut + qOut * hidden;
    if (readBool(config, "attention_bias", false)) count += qOut + 2 * kvOut + hidden;
    else if (family.qkv_bias_always) count += qOut + 2 * kvOut;
    if (family.qk_norm) count += 2 * shape.headDim;
    return count;
  }

  function mlaAttentionPerLayer(config, hidden) {
    var heads = readInt(config, ["num_attention_heads"]);
    var kvRank = readInt(config, ["kv_lora_rank"]);
    var rope = readInt(config, ["qk_rope_head_dim"]);
    var nope = readInt(config, ["qk_nope_head_dim"]);
    var vDim = readInt(config, ["v_head_dim"]);
    var qHead = nope + rope;
    var qRank, count;
    if (get(config, "q_lora_rank") !== null) {
      qRank = readInt(config, ["q_lora_rank"]);
      count = hidden * qRank + qRank + qRank * heads * qHead;
    } else {
      qRank = 0;
      count = hidden * heads * qHead;
    }
    count += hidden * (kvRank + rope) + kvRank;
    count += kvRank * heads * (nope + vDim);
    count += heads * vDim * hidden;
    if (readBool(config, "attention_bias", false)) count += (qRank ? qRank : heads * qHead) + kvRank + rope + hidden;
    return count;
  }

  function mlp(hidden, intermediate, gated, bias) {
    var matrices = gated ? 3 : 2;
    var count = matrices * hidden * intermediate;
    if (bias) count += (matrices - 1) * intermediate + hidden;
    return count;
  }

  function moeLayout(config, modelType) {
    var all = layers(config);
    if (modelType === "mixtral") {
      var experts = readInt(config, [T.sizing_expert_count_key[modelType]]);
      return { experts: experts, expertIntermediate: readInt(config, ["intermediate_size"]), moeLayers: all,
               denseLayers: 0, sharedIntermediate: 0, sharedGate: false, routerBias: false };
    }
    if (modelType === "qwen2_moe" || modelType === "qwen3_moe") {
      var count = readInt(config, [T.sizing_expert_count_key[modelType]], 0);
      if (count === 0) return null;
      var step = readInt(config, ["decoder_sparse_step"], 1, 1);
      var denseOnly = readIntList(config, "mlp_only_layers").filter(function (v, i, list) { return list.indexOf(v) === i; });
      var moe = Math.floor(all / step) - denseOnly.filter(function (i) { return i >= 0 && i < all && (i + 1) % step === 0; }).length;
      var shared = modelType === "qwen2_moe" ? readInt(config, ["shared_expert_intermediate_size"], 0, 0) : 0;
      return { experts: count, expertIntermediate: readInt(config, ["moe_intermediate_size"]), moeLayers: moe,
               denseLayers: all - moe, sharedIntermediate: shared, sharedGate: shared > 0, routerBias: false };
    }
    if (modelType === "deepseek_v2" || modelType === "deepseek_v3") {
      if (get(config, T.sizing_expert_count_key[modelType]) === null) return null;
      var routed = readInt(config, [T.sizing_expert_count_key[modelType]]);
      var firstDense = readInt(config, ["first_k_dense_replace"], 0, 0);
      var freq = readInt(config, ["moe_layer_freq"], 1, 1);
      var moeLayers = firstDense >= all ? 0
        : Math.floor((all - 1) / freq) - Math.floor((firstDense + freq - 1) / freq) + 1;
      var expertIntermediate = readInt(config, ["moe_intermediate_size"]);
      var sharedWidth = readInt(config, ["n_shared_experts"], 0, 0) * expertIntermediate;
      var corrected = modelType === "deepseek_v3" && readStr(config, "topk_method") === "noaux_tc";
      return { experts: routed, expertIntermediate: expertIntermediate, moeLayers: moeLayers, denseLayers: all - moeLayers,
               sharedIntermediate: sharedWidth, sharedGate: false, routerBias: corrected };
    }
    return null;
  }

  function addLmHead(config, parts, tieDefault, untied) {
    var tied;
    try {
      tied = readBool(config, "tie_word_embeddings", tieDefault);
    } catch (error) {
      if (!(error instanceof FieldError)) throw error;
      parts.fail("lm_head", error.message);
      return;
    }
    if (tied) {
      parts.add("lm_head", function () { return 0; });
      parts.notes.push("lm_head is tied to the input embeddings (tie_word_embeddings)");
    } else {
      parts.add("lm_head", untied);
    }
  }

  function countDecoder(config, modelType, family, parts) {
    function hidden() { return hiddenSize(config); }
    function vocab() { return readInt(config, ["vocab_size"]); }
    parts.add("embeddings", function () { return vocab() * hidden(); });
    parts.add("attention", function () { return layers(config) * attentionPerLayer(config, family); });
    parts.add("mlp", function () {
      var layout = moeLayout(config, modelType);
      var dense = layout === null ? layers(config) : layout.denseLayers;
      if (dense === 0) return 0;
      return dense * mlp(hidden(), readInt(config, ["intermediate_size"]), family.gated_mlp,
                         readBool(config, "mlp_bias", false));
    });
    var moe;
    try {
      moe = moeLayout(config, modelType);
    } catch (error) {
      if (!(error instanceof FieldError)) throw error;
      parts.fail("experts", error.message);
      moe = null;
    }
    if (moe !== null) {
      parts.add("experts", function () { return moe.moeLayers * moe.experts * mlp(hidden(), moe.expertIntermediate, true, false); });
      if (moe.sharedIntermediate) {
        parts.add("shared_experts", function () {
          return moe.moeLayers * (mlp(hidden(), moe.sharedIntermediate, true, false) + (moe.sharedGate ? hidden() : 0));
        });
      }
      parts.add("router", function () { return moe.moeLayers * moe.experts * (hidden() + (moe.routerBias ? 1 : 0)); });
    }
    parts.add("norms", function () { return layers(config) * family.norms_per_layer * hidden() + hidden(); });
    addLmHead(config, parts, family.tie_default, function () { return vocab() * hidden(); });
    if (truthy(get(config, "num_nextn_predict_layers"))) {
      parts.notes.push("num_nextn_predict_layers: the multi-token-prediction module shipped in the " +
                       "checkpoint is not counted (it is not part of the model's forward pass)");
    }
  }

  // --- sizing/classic.py ---------------------------------------------------------------------------------------

  function layerNorm(width) { return 2 * width; }
  function linear(inputs, outputs, bias) { return inputs * outputs + (bias === false ? 0 : outputs); }
  function intermediateOf(config, names) { return readInt(config, names, 1, 4 * hiddenSize(config)); }

  function countGpt2(config, parts, multiQueryField) {
    function hidden() { return hiddenSize(config); }
    function kvWidth() {
      if (multiQueryField && readBool(config, "multi_query", true)) return attention(config).headDim;
      return hidden();
    }
    parts.add("embeddings", function () { return readInt(config, ["vocab_size"]) * hidden(); });
    parts.add("position_embeddings", function () { return readInt(config, ["n_positions", "max_position_embeddings"]) * hidden(); });
    parts.add("attention", function () {
      return layers(config) * (linear(hidden(), hidden() + 2 * kvWidth()) + linear(hidden(), hidden()));
    });
    parts.add("mlp", function () {
      return layers(config) * (linear(hidden(), intermediateOf(config, ["n_inner"])) + linear(intermediateOf(config, ["n_inner"]), hidden()));
    });
    parts.add("norms", function () { return (2 * layers(config) + 1) * layerNorm(hidden()); });
    addLmHead(config, parts, true, function () { return readInt(config, ["vocab_size"]) * hidden(); });
  }

  function countOpt(config, parts) {
    function hidden() { return hiddenSize(config); }
    function projection() { return readInt(config, ["word_embed_proj_dim"], 1, hidden()); }
    function ffn() { return readInt(config, ["ffn_dim"]); }
    var bias = get(config, "enable_bias") !== false;
    parts.add("embeddings", function () {
      return readInt(config, ["vocab_size"]) * projection() + (projection() !== hidden() ? 2 * projection() * hidden() : 0);
    });
    parts.add("position_embeddings", function () { return (readInt(config, ["max_position_embeddings"]) + 2) * hidden(); });
    parts.add("attention", function () { return layers(config) * 4 * linear(hidden(), hidden(), bias); });
    parts.add("mlp", function () { return layers(config) * (linear(hidden(), ffn(), bias) + linear(ffn(), hidden(), bias)); });
    parts.add("norms", function () {
      var final = readBool(config, "do_layer_norm_before", true) && !readBool(config, "_remove_final_layer_norm", false);
      return (2 * layers(config) + (final ? 1 : 0)) * layerNorm(hidden());
    });
    addLmHead(config, parts, true, function () { return readInt(config, ["vocab_size"]) * projection(); });
  }

  function countBloom(config, parts) {
    function hidden() { return hiddenSize(config); }
    parts.add("embeddings", function () { return readInt(config, ["vocab_size"]) * hidden() + layerNorm(hidden()); });
    parts.add("attention", function () { return layers(config) * (linear(hidden(), 3 * hidden()) + linear(hidden(), hidden())); });
    parts.add("mlp", function () { return layers(config) * (linear(hidden(), 4 * hidden()) + linear(4 * hidden(), hidden())); });
    parts.add("norms", function () { return (2 * layers(config) + 1) * layerNorm(hidden()); });
    addLmHead(config, parts, true, function () { return readInt(config, ["vocab_size"]) * hidden(); });
  }

  function countFalcon(config, parts) {
    function hidden() { return hiddenSize(config); }
    function kvHeads() {
      if (readBool(config, "new_decoder_architecture", false)) return readInt(config, ["num_kv_heads", "num_key_value_heads"]);
      if (readBool(config, "multi_query", true)) return 1;
      return readInt(config, T.sizing_falcon_head_keys);
    }
    parts.add("embeddings", function () { return readInt(config, ["vocab_size"]) * hidden(); });
    parts.add("attention", function () {
      var heads = readInt(config, T.sizing_falcon_head_keys);
      if (kvHeads() > heads) throw new FieldError("num_kv_heads (" + kvHeads() + ") is larger than num_attention_heads (" + heads + ")");
      var headDim = readInt(config, ["head_dim"], 1, 0) || Math.floor(hidden() / heads);
      var bias = readBool(config, "bias", false);
      var qkv = linear(hidden(), (heads + 2 * kvHeads()) * headDim, bias);
      return layers(config) * (qkv + linear(heads * headDim, hidden(), bias));
    });
    function ffn() { return intermediateOf(config, ["ffn_hidden_size"]); }
    parts.add("mlp", function () {
      return layers(config) * (linear(hidden(), ffn(), readBool(config, "bias", false)) + linear(ffn(), hidden(), readBool(config, "bias", false)));
    });
    parts.add("norms", function () {
      var perLayer;
      if (readBool(config, "new_decoder_architecture", false)) perLayer = readInt(config, ["num_ln_in_parallel_attn"], 1, 2);
      else perLayer = readBool(config, "parallel_attn", true) ? 1 : 2;
      return (perLayer * layers(config) + 1) * layerNorm(hidden());
    });
    addLmHead(config, parts, true, function () { return readInt(config, ["vocab_size"]) * hidden(); });
  }

  // --- sizing/encoders.py --------------------------------------------------------------------------------------

  function encoderLayers(config, qkvBias) {
    if (qkvBias === undefined) qkvBias = true;
    var hidden = hiddenSize(config);
    var heads = readInt(config, ["num_attention_heads"]);
    exactDiv(hidden, heads, "hidden_size / num_attention_heads");
    var intermediate = readInt(config, ["intermediate_size"]);
    var attn = 3 * (hidden * hidden + (qkvBias ? hidden : 0)) + hidden * hidden + hidden;
    var ffn = hidden * intermediate + intermediate + intermediate * hidden + hidden;
    return layers(config) * (attn + ffn + 2 * 2 * hidden);
  }

  function countBert(config, parts) {
    function hidden() { return hiddenSize(config); }
    parts.add("embeddings", function () {
      return (readInt(config, ["vocab_size"]) + readInt(config, ["type_vocab_size"], 0, 2)) * hidden() + 2 * hidden();
    });
    parts.add("position_embeddings", function () { return readInt(config, ["max_position_embeddings"]) * hidden(); });
    parts.add("encoder", function () { return encoderLayers(config); });
    parts.add("pooler", function () { return hidden() * hidden() + hidden(); });
    parts.notes.push("counted as the bare encoder with pooler (BertModel/RobertaModel); task heads not counted");
  }

  function numLabels(config) {
    var labels = get(config, "id2label");
    if (isObject(labels) && Object.keys(labels).length) return Object.keys(labels).length;
    return readInt(config, ["num_labels"], 1, 2);
  }

  function patches(config) {
    var side = exactDiv(readInt(config, ["image_size"]), readInt(config, ["patch_size"]), "image_size / patch_size");
    return side * side;
  }

  function countVit(config, parts) {
    function hidden() { return hiddenSize(config); }
    parts.add("patch_embedding", function () {
      return readInt(config, ["num_channels"], 1, 3) * Math.pow(readInt(config, ["patch_size"]), 2) * hidden() + hidden();
    });
    parts.add("cls_token", function () { return hidden(); });
    parts.add("position_embeddings", function () { return (patches(config) + 1) * hidden(); });
    parts.add("encoder", function () { return encoderLayers(config, readBool(config, "qkv_bias", true)); });
    parts.add("final_norm", function () { return 2 * hidden(); });
    var architectures = get(config, "architectures");
    if (Array.isArray(architectures) && inList(architectures, "ViTForImageClassification")) {
      parts.add("classifier", function () { return hidden() * numLabels(config) + numLabels(config); });
      parts.notes.push("ViTForImageClassification: classifier counted, no pooler");
    } else {
      parts.add("pooler", function () { return hidden() * hidden() + hidden(); });
    }
  }

  function countClipVision(config, parts) {
    function hidden() { return hiddenSize(config); }
    parts.add("patch_embedding", function () {
      return readInt(config, ["num_channels"], 1, 3) * Math.pow(readInt(config, ["patch_size"]), 2) * hidden();
    });
    parts.add("cls_token", function () { return hidden(); });
    parts.add("position_embeddings", function () { return (patches(config) + 1) * hidden(); });
    parts.add("encoder", function () { return encoderLayers(config); });
    parts.add("norms", function () { return 2 * 2 * hidden(); });
  }

  function countClipText(config, parts) {
    function hidden() { return hiddenSize(config); }
    parts.add("embeddings", function () { return readInt(config, ["vocab_size"]) * hidden(); });
    parts.add("position_embeddings", function () { return readInt(config, ["max_position_embeddings"]) * hidden(); });
    parts.add("encoder", function () { return encoderLayers(config); });
    parts.add("final_norm", function () { return 2 * hidden(); });
  }

  // --- sizing/seq2seq.py ---------------------------------------------------------------------------------------

  function countT5(config, parts) {
    function dModel() { return readInt(config, ["d_model"]); }
    function inner() { return readInt(config, ["num_heads"]) * readInt(config, ["d_kv"]); }
    function attn() { return 4 * dModel() * inner(); }
    function feedForward() {
      var gated = (readStr(config, "feed_forward_proj") || "relu").indexOf("gated") === 0;
      return (gated ? 3 : 2) * dModel() * readInt(config, ["d_ff"]);
    }
    function relativeBias() { return readInt(config, ["relative_attention_num_buckets"], 1, 32) * readInt(config, ["num_heads"]); }
    function encoderLayerCount() { return readInt(config, ["num_layers"]); }
    function decoderLayerCount() { return readInt(config, ["num_decoder_layers"], 1, encoderLayerCount()); }
    parts.add("embeddings", function () { return readInt(config, ["vocab_size"]) * dModel(); });
    parts.add("encoder", function () {
      return encoderLayerCount() * (attn() + feedForward() + 2 * dModel()) + relativeBias() + dModel();
    });
    parts.add("decoder", function () {
      return decoderLayerCount() * (2 * attn() + feedForward() + 3 * dModel()) + relativeBias() + dModel();
    });
    parts.notes.push("decoder includes cross-attention over the encoder output");
    addLmHead(config, parts, true, function () { return readInt(config, ["vocab_size"]) * dModel(); });
  }

  function countBart(config, parts) {
    function dModel() { return readInt(config, ["d_model"]); }
    function attn() { return 4 * (dModel() * dModel() + dModel()); }
    function ffn(name) {
      var width = readInt(config, [name]);
      return dModel() * width + width + width * dModel() + dModel();
    }
    function positions() { return (readInt(config, ["max_position_embeddings"]) + 2) * dModel(); }
    parts.add("embeddings", function () { return readInt(config, ["vocab_size"]) * dModel(); });
    parts.add("encoder", function () {
      return positions() + 2 * dModel() + readInt(config, ["encoder_layers"]) * (attn() + ffn("encoder_ffn_dim") + 2 * 2 * dModel());
    });
    parts.add("decoder", function () {
      return positions() + 2 * dModel() + readInt(config, ["decoder_layers"]) * (2 * attn() + ffn("decoder_ffn_dim") + 3 * 2 * dModel());
    });
    parts.notes.push("decoder includes cross-attention over the encoder output; final_logits_bias is a buffer");
    addLmHead(config, parts, true, function () { return readInt(config, ["vocab_size"]) * dModel(); });
  }

  // --- sizing/models.py ----------------------------------------------------------------------------------------

  function countParameters(config) {
    if (!isObject(config)) {
      return { modelType: null, parts: [{ name: "model", count: null, reason: "config is a " + pyTypeName(config) + ", not an object" }], notes: [] };
    }
    var modelType = readStr(config, "model_type");
    var parts = new PartList();
    count(config, modelType, parts, 0);
    return { modelType: modelType, parts: parts.parts, notes: parts.notes };
  }

  function count(config, modelType, parts, depth) {
    if (modelType !== null && own(T.sizing_families, modelType)) countDecoder(config, modelType, T.sizing_families[modelType], parts);
    else if (modelType === "gpt2") countGpt2(config, parts, false);
    else if (modelType === "gpt_bigcode") countGpt2(config, parts, true);
    else if (modelType === "opt") countOpt(config, parts);
    else if (modelType === "bloom") countBloom(config, parts);
    else if (modelType === "falcon") countFalcon(config, parts);
    else if (inList(T.sizing_encoders, modelType)) countBert(config, parts);
    else if (modelType === "vit") countVit(config, parts);
    else if (modelType === "clip_vision_model") countClipVision(config, parts);
    else if (modelType === "clip_text_model") countClipText(config, parts);
    else if (modelType === "t5") countT5(config, parts);
    else if (modelType === "bart") countBart(config, parts);
    else if (inList(T.sizing_attention_free, modelType)) {
      parts.fail("model", "model_type " + pyRepr(modelType) + " (state-space / recurrent) is not modelled by this counter");
    } else if (subConfig(config, "text_config") !== null || subConfig(config, "vision_config") !== null) {
      countMultimodal(config, modelType, parts, depth);
    } else countGeneric(config, modelType, parts);
  }

  function countMultimodal(config, modelType, parts, depth) {
    if (depth >= T.sizing_max_nesting) {
      parts.fail("model", "text_config/vision_config nested too deeply");
      return;
    }
    var defaults = own(T.sizing_multimodal_defaults, modelType || "") ? T.sizing_multimodal_defaults[modelType] : [null, null];
    [["text_config", defaults[0]], ["vision_config", defaults[1]]].forEach(function (pair) {
      var key = pair[0], base = key.slice(0, key.length - "_config".length);
      var sub = subConfig(config, key);
      if (sub === null) {
        parts.fail(base, key + " is missing or not an object");
        return;
      }
      var subType = readStr(sub, "model_type") || pair[1];
      var subParts = new PartList(base + ".");
      if (subType === null || subType === undefined) subParts.fail("model", key + " has no model_type");
      else count(sub, subType, subParts, depth + 1);
      parts.extend(subParts);
    });
    var text = subConfig(config, "text_config"), vision = subConfig(config, "vision_config");
    if (text === null || vision === null) return;
    if (modelType === "clip") {
      parts.add("projections", function () { return readInt(config, ["projection_dim"]) * (hiddenSize(text) + hiddenSize(vision)) + 1; });
    } else if (modelType === "llava") {
      parts.add("projector", function () {
        return hiddenSize(vision) * hiddenSize(text) + hiddenSize(text) + hiddenSize(text) * hiddenSize(text) + hiddenSize(text);
      });
    } else {
      parts.fail("projector", "the vision-to-text connector of model_type " + pyRepr(modelType) + " is not modelled");
    }
  }

  function countGeneric(config, modelType, parts) {
    var missing = T.sizing_generic_needs.filter(function (names) { return !has.apply(null, [config].concat(names)); })
      .map(function (names) { return names[0]; });
    var label = modelType ? pyRepr(modelType) : "(none)";
    if (missing.length) {
      parts.fail("model", "model_type " + label + " is not known, and a generic decoder count needs " +
                          missing.join(", ") + ", which the config does not set");
      return;
    }
    if (has.apply(null, [config].concat(T.sizing_expert_fields))) {
      parts.fail("model", "model_type " + label + " is not known and has experts: its MoE layout is not assumed");
      return;
    }
    var activation = readStr(config, "hidden_act") || readStr(config, "hidden_activation") || null;
    var gated = activation !== null && inList(T.sizing_gated_activations, activation);
    var family = {};
    Object.keys(T.sizing_generic_family).forEach(function (key) { family[key] = T.sizing_generic_family[key]; });
    family.gated_mlp = gated;
    countDecoder(config, "", family, parts);
    parts.assumedLayout = true;
    parts.notes.push("model_type " + label + " is not known: assumed a generic pre-norm decoder (RMSNorm, no biases, " +
      (gated ? "gated gate/up/down" : "plain up/down") + " MLP from hidden_act=" + pyRepr(activation) + ", " +
      "tied embeddings unless tie_word_embeddings is false)");
  }

  // --- sizing/bytes.py -----------------------------------------------------------------------------------------

  function normaliseDtype(dtype) {
    var name = dtype.replace(PY_SPACE, "").toLowerCase();
    if (name.indexOf("torch.") === 0) name = name.slice("torch.".length);
    if (own(T.sizing_dtype_aliases, name)) name = T.sizing_dtype_aliases[name];
    return own(T.sizing_dtype_bytes, name) ? name : null;
  }

  function scaled(value, dtype) {  // ceil(value x width) for a dtype width [numerator, denominator]
    var width = T.sizing_dtype_bytes[dtype];
    return Math.ceil(value * width[0] / width[1]);
  }

  function declaredDtype(config) {
    var quant = subConfig(config, "quantization_config");
    if (quant !== null) {
      var method = readStr(quant, "quant_method") || "";
      var bits = get(quant, "bits");
      var fmt = readStr(quant, "fmt");
      if (method === "fp8" || fmt === "e4m3" || fmt === "e5m2") return ["fp8", "quantization_config.quant_method=" + pyRepr(method)];
      if (get(quant, "load_in_4bit") === true || get(quant, "_load_in_4bit") === true || bits === 4) {
        return ["int4", "quantization_config (" + (method || "bitsandbytes") + ") 4-bit"];
      }
      if (get(quant, "load_in_8bit") === true || get(quant, "_load_in_8bit") === true || bits === 8) {
        return ["int8", "quantization_config (" + (method || "bitsandbytes") + ") 8-bit"];
      }
      return [null, "quantization_config with quant_method=" + pyRepr(method) + " is not one this reads"];
    }
    var keys = ["dtype", "torch_dtype"];
    for (var i = 0; i < keys.length; i++) {
      var value = readStr(config, keys[i]);
      if (value !== null) {
        var name = normaliseDtype(value);
        return [name, name ? keys[i] + "=" + pyRepr(value) : keys[i] + "=" + pyRepr(value) + " is not a known dtype"];
      }
    }
    return [null, "the config declares no dtype"];
  }

  // --- sizing/kv_cache.py --------------------------------------------------------------------------------------

  function kvCache(config, dtype) {
    var result = kvCacheInner(config, dtype);
    if (result.bytes !== null && result.bytes > T.sizing_max_exact) {
      return { bytes: null, reason: "above 2^53 bytes per token: not a plausible size", notes: [] };
    }
    return result;
  }

  function windowNotes(config) {
    var windowSize = asInt(get(config, "sliding_window"));
    if (get(config, "use_sliding_window") === false || windowSize === null) return [];
    if (Array.isArray(get(config, "layer_types"))) {
      return ["sliding window of " + windowSize + " tokens on the layers marked sliding in layer_types"];
    }
    var pattern = asInt(get(config, "sliding_window_pattern"));
    if (pattern !== null) {
      return ["sliding window of " + windowSize + " tokens on all but every " + pattern + "th layer: beyond it those " +
              "layers stop growing"];
    }
    if (readStr(config, "model_type") === "gemma2") {
      return ["sliding window of " + windowSize + " tokens on every other layer: beyond it those layers stop growing"];
    }
    return ["sliding window of " + windowSize + " tokens: the cache stops growing past it (per-token figure holds " +
            "up to the window)"];
  }

  function kvCacheInner(config, dtype) {
    if (!isObject(config)) return { bytes: null, reason: "config is not an object", notes: [] };
    var modelType = readStr(config, "model_type");
    if (inList(T.sizing_encoder_only, modelType)) {
      return { bytes: null, reason: modelType + " is encoder-only: it keeps no KV cache between steps", notes: [] };
    }
    if (inList(T.sizing_attention_free, modelType)) {
      return { bytes: null, reason: modelType + " has no attention KV cache (recurrent state instead)", notes: [] };
    }
    var text = subConfig(config, "text_config");
    if (text !== null && !has(config, "num_hidden_layers")) {
      var inner = kvCache(text, dtype);
      return { bytes: inner.bytes, reason: inner.reason, notes: ["from text_config"].concat(inner.notes) };
    }
    try {
      if (modelType === "t5") {
        var t5Layers = readInt(config, ["num_decoder_layers", "num_layers"]);
        var t5Inner = readInt(config, ["num_heads"]) * readInt(config, ["d_kv"]);
        return { bytes: scaled(2 * t5Layers * t5Inner, dtype), reason: null, notes: [seq2seqNote()] };
      }
      if (modelType === "bart") {
        var bartLayers = readInt(config, ["decoder_layers"]);
        var bartInner = readInt(config, ["d_model"]);
        return { bytes: scaled(2 * bartLayers * bartInner, dtype), reason: null, notes: [seq2seqNote()] };
      }
      if (has(config, "kv_lora_rank")) {
        var latent = readInt(config, ["kv_lora_rank"]) + readInt(config, ["qk_rope_head_dim"]);
        return { bytes: scaled(latent * layers(config), dtype), reason: null,
                 notes: ["MLA: one compressed latent (kv_lora_rank + qk_rope_head_dim) per layer"] };
      }
      var multiQuery = own(config, "multi_query") ? config.multi_query : true;
      var kvDefault = modelType === "falcon" && multiQuery === true && get(config, "new_decoder_architecture") !== true ? 1 : null;
      if (modelType === "gpt_bigcode" && multiQuery === true) kvDefault = 1;
      var shape = attention(config, kvDefault);
      var kvHeads = kvDefault && !has(config, "num_key_value_heads", "num_kv_heads") ? kvDefault : shape.kvHeads;
      var cache = 2 * layers(config) * kvHeads * shape.headDim;
      return { bytes: scaled(cache, dtype), reason: null, notes: windowNotes(config) };
    } catch (error) {
      if (!(error instanceof FieldError)) throw error;
      return { bytes: null, reason: error.message, notes: [] };
    }
  }

  function seq2seqNote() {
    return "decoder self-attention per generated token; cross-attention also caches the same amount per " +
           "encoder input token";
  }

  // --- sizing/tensor_parallel.py (the heads it reads) ----------------------------------------------------------

  function attentionHeads(config) {
    if (!isObject(config)) return { heads: null, kvHeads: null, reason: "config is not an object" };
    var text = subConfig(config, "text_config");
    var source = text !== null && !has(config, "num_attention_heads") ? text : config;
    try {
      if (has(source, "kv_lora_rank")) {
        var heads = readInt(source, ["num_attention_heads"]);
        return { heads: heads, kvHeads: heads, reason: null };
      }
      var shape = attention(source);
      return { heads: shape.heads, kvHeads: shape.kvHeads, reason: null };
    } catch (error) {
      if (!(error instanceof FieldError)) throw error;
      return { heads: null, kvHeads: null, reason: error.message };
    }
  }

  // --- check/fit.py --------------------------------------------------------------------------------------------

  function FitOptionError(message) {
    var error = new Error(message);
    error.name = "FitOptionError";
    return error;
  }

  function checkFitOptions(options, instances) {
    [[options.batch, "--batch", T.fit_max_batch], [options.seq_len, "--seq-len", T.fit_max_seq_len]].forEach(function (flag) {
      if (flag[0] !== undefined && flag[0] !== null && !(flag[0] >= 1 && flag[0] <= flag[2])) {
        throw FitOptionError(flag[1] + " " + flag[0] + ": use a whole number from 1 to " + flag[2]);
      }
    });
    var dtypes = Object.keys(T.sizing_dtype_bytes);
    if (options.dtype && !inList(dtypes, options.dtype)) {
      throw FitOptionError("unknown --dtype '" + options.dtype + "'; use one of: " + dtypes.join(", "));
    }
    var names = ((instances || {}).instances || []).map(function (i) { return i.name; });
    if (options.instance && !inList(names, options.instance)) {
      var valid = names.length ? names.join(", ") : "none (this registry lists no instances)";
      throw FitOptionError("unknown --instance '" + options.instance + "'; use one of: " + valid);
    }
  }

  function rules(stacks) {
    var result = {};
    stacks.forEach(function (stack) {
      var rule = own(T.fit_tp_rules, stack) ? T.fit_tp_rules[stack] : null;
      result[stack] = rule ? { rule: rule.rule, text: rule.text, sources: rule.sources.slice() }
        : { rule: null, text: T.fit_tp_not_recorded, sources: [] };
    });
    return result;
  }

  function degreesOf(stack, heads, maxDegree) {
    if (!own(T.fit_tp_rules, stack) || heads === null) return null;
    var list = [];
    for (var d = 1; d <= maxDegree; d++) list.push(d);
    return list;
  }

  function kvHeadsAt(degree, heads, kvHeads) {
    var padded = Math.ceil(heads / degree) * degree;
    if (heads === kvHeads) return padded;
    if (kvHeads >= degree && kvHeads % degree === 0) return kvHeads;
    if (degree % kvHeads === 0) return degree;
    return padded;
  }

  function kvAt(perToken, heads, degree) {
    if (heads === null || perToken % heads[1]) return perToken;
    return perToken / heads[1] * kvHeadsAt(degree, heads[0], heads[1]);
  }

  function chosen(instances, name) {
    return ((instances || {}).instances || []).filter(function (i) { return !name || i.name === name; });
  }

  function tpCores(instance, instances) {
    var generation = ((instances || {}).generations || []).filter(function (g) { return g.hardware === instance.hardware; })[0];
    var lnc = generation && generation.lnc_default !== undefined ? generation.lnc_default : null;
    var logical = instance.logical_neuron_cores || {};
    if (lnc !== null && own(logical, String(lnc))) return [logical[String(lnc)], lnc];
    return [instance.neuron_cores === undefined ? null : instance.neuron_cores, null];
  }

  function instanceEntry(instance, instances, stack, valid, load, why) {
    var cores = tpCores(instance, instances);
    var entry = {
      name: instance.name, hardware: instance.hardware, neuron_cores: cores[0], lnc: cores[1], stack: stack,
      degree: null, fits: null, bytes_needed: null, bytes_available: null, headroom_bytes: null, reason: null
    };
    var memory = instance.device_memory_gib;
    if (cores[0] === null || memory === null || memory === undefined) {
      entry.reason = "the instance's NeuronCores or device memory are not recorded";
      return entry;
    }
    if (!own(T.fit_tp_rules, stack)) {
      entry.reason = stack + ": " + T.fit_tp_not_recorded;
      return entry;
    }
    if (load === null || valid === null) {
      entry.reason = why;
      return entry;
    }
    var usable = valid.filter(function (d) { return d <= cores[0]; });
    if (!usable.length) {
      entry.reason = "no valid tensor-parallel degree up to its " + cores[0] + " NeuronCores";
      return entry;
    }
    var perCore = Math.floor(memory * 1073741824 / cores[0]);
    var degree, needed, available;
    for (var i = 0; i < usable.length; i++) {
      degree = usable[i];
      needed = load.weights + load.batch * load.seqLen * kvAt(load.kvPerToken, load.heads, degree);
      available = perCore * degree;
      if (needed <= available) break;
    }
    if (needed > T.sizing_max_exact) {
      entry.reason = "above 2^53 bytes: not a plausible size";
      return entry;
    }
    entry.degree = degree;
    entry.fits = needed <= available;
    entry.bytes_needed = needed;
    entry.bytes_available = available;
    entry.headroom_bytes = available - needed;
    if (needed > available) {
      entry.reason = "does not fit even at degree " + degree + ", the largest valid one on its " + cores[0] + " NeuronCores";
    }
    return entry;
  }

  function perDtype(make) {
    var result = {};
    Object.keys(T.sizing_dtype_bytes).forEach(function (dtype) { result[dtype] = make(dtype); });
    return result;
  }

  // The `fit` object of `check --json` (check/fit.py fit_document), for a config read as JSON.
  function fitDocument(config, registry, options, pipeline) {
    useTables(registry);
    options = options || {};
    var instances = isObject(registry.instances) ? registry.instances : null;
    checkFitOptions(options, instances);
    var stacks = (registry.stacks || []).map(function (s) { return s.id; });
    var defaults = T.fit_defaults;
    var declared = isObject(config) ? declaredDtype(config) : [null, ""];
    var dtype, dtypeFrom;
    if (options.dtype) { dtype = options.dtype; dtypeFrom = "--dtype"; }
    else if (declared[0] !== null) { dtype = declared[0]; dtypeFrom = "the config (" + declared[1] + ")"; }
    else { dtype = defaults.dtype; dtypeFrom = declared[1] ? "default (" + declared[1] + ")" : "default"; }
    var kvDtype = inList(T.fit_kv_cache_dtypes, dtype) ? dtype : defaults.dtype;
    var stack = options.stack || defaults.stack;
    var batch = options.batch || defaults.batch;
    var seqLen = options.seq_len || defaults.seq_len;
    var document = {
      estimate: T.fit_estimate,
      not_counted: T.fit_not_counted.slice(),
      assumptions: {
        batch: batch, batch_from: options.batch ? "--batch" : "default",
        seq_len: seqLen, seq_len_from: options.seq_len ? "--seq-len" : "default",
        dtype: dtype, dtype_from: dtypeFrom, kv_cache_dtype: kvDtype,
        stack: stack, stack_from: options.stack ? "--stack" : "default"
      }
    };
    var nulls = perDtype(function () { return null; });
    if (pipeline) {
      var reason = "a diffusers pipeline (model_index.json): its components' configs are not read";
      document.parameters = null;
      document.parameter_parts = [{ name: "model", count: null, reason: reason }];
      document.parameter_notes = [];
      document.weights_bytes = nulls;
      document.kv_cache_bytes_per_token = perDtype(function () { return null; });
      document.kv_cache_reason = reason;
      document.kv_cache_notes = [];
      var none = {};
      stacks.forEach(function (s) { none[s] = null; });
      document.tensor_parallel = none;
      document.tensor_parallel_rules = rules(stacks);
      document.instances = chosen(instances, options.instance).map(function (i) {
        return instanceEntry(i, instances, stack, null, null, "the weights could not be counted");
      });
      return document;
    }
    var counted = countParameters(config);
    var sum = total(counted.parts);
    var whole = complete(counted.parts) && sum <= T.sizing_max_exact;
    document.parameters = whole ? sum : null;
    document.parameter_parts = counted.parts;
    document.parameter_notes = counted.notes.slice();
    if (complete(counted.parts) && !whole) document.parameter_notes.push("the parts add up to more than 2^53: not a plausible size");
    document.weights_bytes = perDtype(function (d) {
      if (!whole) return null;
      var size = scaled(sum, d);
      return size > T.sizing_max_exact ? null : size;
    });
    var modelType = isObject(config) ? readStr(config, "model_type") : null;
    var noCache = inList(T.sizing_encoder_only, modelType) || inList(T.sizing_attention_free, modelType);
    var kv = perDtype(function (d) { return kvCache(config, d); });
    document.kv_cache_bytes_per_token = perDtype(function (d) { return kv[d].bytes; });
    document.kv_cache_reason = kv[kvDtype].reason;
    document.kv_cache_notes = kv[kvDtype].notes.slice();
    var all = chosen(instances, null);
    var maxDegree = all.length ? Math.max.apply(null, all.map(function (i) { return tpCores(i, instances)[0] || 1; })) : T.fit_max_degree;
    var heads = attentionHeads(config);
    var tp = {};
    stacks.forEach(function (s) { tp[s] = degreesOf(s, heads.heads, maxDegree); });
    document.tensor_parallel = tp;
    document.tensor_parallel_rules = rules(stacks);
    var weights = document.weights_bytes[dtype];
    var kvBytes = noCache ? 0 : kv[kvDtype].bytes;
    var why = null;
    if (weights === null) why = "the weights could not be counted (see parameter_parts)";
    else if (kvBytes === null) why = "the KV cache could not be counted: " + kv[kvDtype].reason;
    else if (heads.heads === null) why = "the attention heads could not be read: " + heads.reason;
    var mla = isObject(config) && get(config, "kv_lora_rank") !== null;
    var replicated = mla || noCache || heads.heads === null || heads.kvHeads === null ? null : [heads.heads, heads.kvHeads];
    var load = why ? null : { weights: weights || 0, kvPerToken: kvBytes || 0, heads: replicated, batch: batch, seqLen: seqLen };
    var valid = degreesOf(stack, heads.heads, maxDegree);
    document.instances = chosen(instances, options.instance).map(function (i) {
      return instanceEntry(i, instances, stack, valid, load, why);
    });
    return document;
  }

  return {
    useTables: useTables,
    countParameters: countParameters,
    checkFitOptions: checkFitOptions,
    fitDocument: fitDocument,
    pyRepr: pyRepr
  };
});
