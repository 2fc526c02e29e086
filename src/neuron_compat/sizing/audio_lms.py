"""Audio-language models: Qwen2-Audio and Qwen3-ASR (a Whisper-style audio encoder, a projector and the text decoder
of text_config, whose output head the outer tie_word_embeddings ties) and Phi-4-multimodal (a Phi-3 decoder with a
SigLIP image embedder and a Conformer audio encoder). Counts follow transformers 5.25."""

from __future__ import annotations

from collections.abc import Callable, Mapping

from neuron_compat.sizing.counts import PartList
from neuron_compat.sizing.decoder import FAMILIES, count_decoder
from neuron_compat.sizing.encoders import count_siglip_vision
from neuron_compat.sizing.fields import FieldError, exact_div, read_int, read_str, sub_config

__all__ = ["AUDIO_LM_COUNTERS"]


def _linear(fan_in: int, fan_out: int, bias: bool = True) -> int:
    return fan_in * fan_out + (fan_out if bias else 0)


def _audio_layers(audio: Mapping[str, object], key_bias: bool) -> int:
    """Pre-LayerNorm encoder layers: q, k (biased or not), v, out, two LayerNorms, fc1 and fc2."""
    width, inner = read_int(audio, "d_model"), read_int(audio, "encoder_ffn_dim")
    exact_div(width, read_int(audio, "encoder_attention_heads"), "d_model / encoder_attention_heads")
    layer = 4 * width * width + (4 if key_bias else 3) * width + 2 * 2 * width + _linear(width, inner) \
        + _linear(inner, width)
    return read_int(audio, "encoder_layers") * layer


def _qwen2_audio_encoder(audio: Mapping[str, object]) -> int:
    """Two Conv1d over mel bins, a learned position table (max_source_positions), the layers and a LayerNorm."""
    width = read_int(audio, "d_model")
    return read_int(audio, "num_mel_bins") * width * 3 + width + width * width * 3 + width \
        + read_int(audio, "max_source_positions") * width + _audio_layers(audio, key_bias=False) + 2 * width


def _qwen3_asr_encoder(audio: Mapping[str, object]) -> int:
    """Three stride-2 Conv2d at downsample_hidden_size, a bias-free linear from the downsampled mel axis to d_model,
    sinusoidal positions (no parameters), the layers and a LayerNorm."""
    width, inner = read_int(audio, "d_model"), read_int(audio, "downsample_hidden_size")
    mel = ((read_int(audio, "num_mel_bins") + 1) // 2 + 1) // 2
    mel = (mel + 1) // 2
    return 9 * inner + inner + 2 * (inner * inner * 9 + inner) + inner * mel * width \
        + _audio_layers(audio, key_bias=True) + 2 * width


def count_audio_lm(config: Mapping[str, object], parts: PartList, model_type: str = "qwen2_audio") -> None:
    audio, text = sub_config(config, "audio_config"), sub_config(config, "text_config")
    if audio is None or text is None:
        parts.fail("model", "audio_config or text_config is missing or not an object")
        return
    text_type = read_str(text, "model_type") or ("qwen2" if model_type == "qwen2_audio" else "qwen3")
    if text_type not in FAMILIES:
        parts.fail("text", f"text_config model_type {text_type!r} is not a decoder family this counter knows")
    else:
        tied = {**text, "tie_word_embeddings": config.get("tie_word_embeddings") is True}
        text_parts = PartList("text.")
        count_decoder(tied, text_type, FAMILIES[text_type], text_parts)
        parts.extend(text_parts)

    def projector() -> int:
        width = read_int(audio, "d_model")
        if model_type == "qwen2_audio":
            return _linear(width, read_int(text, "hidden_size"))
        return _linear(width, width) + _linear(width, read_int(audio, "output_dim"))

    def encoder() -> int:
        return _qwen2_audio_encoder(audio) if model_type == "qwen2_audio" else _qwen3_asr_encoder(audio)

    parts.add("audio.encoder", encoder)
    parts.add("projector", projector)


def _phi4_audio_encoder(audio: Mapping[str, object]) -> int:
    """Phi-4-multimodal's Conformer audio encoder: NeMo-style convolutional subsampling (log2(time_reduction) stride-2
    stages, depthwise-separable after the first, then a linear), a relative attention-bias table, and num_blocks
    layers of two gated feed-forwards, biased attention, a GLU/depthwise convolution module and two LayerNorms."""
    width, inner = read_int(audio, "hidden_size"), read_int(audio, "intermediate_size")
    exact_div(width, read_int(audio, "num_attention_heads"), "hidden_size / num_attention_heads")
    channels = read_int(audio, "nemo_conv_channels", default=1024)
    reduction = read_int(audio, "time_reduction", default=8)
    stages = reduction.bit_length() - 1
    if stages < 1 or 1 << stages != reduction:
        raise FieldError(f"time_reduction ({reduction}) is not a power of two of at least 2")
    subsampling = 9 * channels + channels + (stages - 1) * (9 * channels + channels + channels * channels + channels) \
        + _linear(channels * read_int(audio, "nemo_final_size", default=10), width)
    buckets = read_int(audio, "bias_max_distance", default=1000)
    symmetric = audio.get("bias_symmetric") is True
    relative = buckets * (1 if symmetric else 2) * read_int(audio, "num_attention_heads")
    kernel = read_int(audio, "kernel_size", default=3)
    if kernel < 2:
        raise FieldError("kernel_size is below 2: the convolution module without a depthwise convolution is not "
                         "modelled")
    multiplier = read_int(audio, "depthwise_multiplier", default=1)
    separable = read_int(audio, "depthwise_separable_out_channel", default=width)
    extension = read_int(audio, "ext_pw_out_channel", default=width)
    feed_forward = 2 * width + _linear(width, 2 * inner) + _linear(inner, width)
    convolution = 2 * width + _linear(width, 2 * extension) + 2 * extension \
        + width * multiplier * kernel + width * multiplier + _linear(width * multiplier, separable) \
        + _linear(width, extension)
    layer = 2 * feed_forward + 4 * _linear(width, width) + convolution + 2 * 2 * width
    return subsampling + relative + read_int(audio, "num_blocks") * layer


def count_phi4_multimodal(config: Mapping[str, object], parts: PartList) -> None:
    """Phi-4-multimodal (Phi4MultimodalForCausalLM): a Phi-3 text decoder whose embedding carries a SigLIP image
    embedder (with its pooling head) and projections, and the Conformer audio encoder with speech and vision-speech
    projections."""
    vision, audio = sub_config(config, "vision_config"), sub_config(config, "audio_config")
    if vision is None or audio is None:
        parts.fail("model", "vision_config or audio_config is missing or not an object")
        return
    text_parts = PartList()
    count_decoder(config, "phi3", FAMILIES["phi3"], text_parts)
    parts.extend(text_parts)
    vision_parts = PartList("vision.")
    count_siglip_vision(vision, vision_parts)
    parts.extend(vision_parts)

    def image_projection() -> int:
        width, hidden = read_int(vision, "hidden_size"), read_int(config, "hidden_size")
        return _linear(width, hidden) + _linear(hidden, hidden) + 2 * width

    def audio_projection() -> int:
        hidden = read_int(config, "hidden_size")
        fan_in = read_int(audio, "hidden_size") * read_int(audio, "downsample_rate", default=1)
        return 2 * (_linear(fan_in, hidden) + _linear(hidden, hidden))

    parts.add("image_projection", image_projection)
    parts.add("audio.encoder", lambda: _phi4_audio_encoder(audio))
    parts.add("audio_projection", audio_projection)


def _qwen2_audio(config: Mapping[str, object], parts: PartList) -> None:
    count_audio_lm(config, parts, "qwen2_audio")


def _qwen3_asr(config: Mapping[str, object], parts: PartList) -> None:
    count_audio_lm(config, parts, "qwen3_asr")


AUDIO_LM_COUNTERS: dict[str, Callable[[Mapping[str, object], PartList], None]] = {
    "qwen2_audio": _qwen2_audio,
    "qwen3_asr": _qwen3_asr,
    "phi4_multimodal": count_phi4_multimodal,
}
"""model_type -> counter, for dispatch by sizing.models."""
