"""Audio-language models: Qwen2-Audio and Qwen3-ASR. A Whisper-style audio encoder (audio_config), a projector and
the text decoder of text_config (a decoder family), whose output head the outer tie_word_embeddings ties. Counts
follow transformers 5.25."""

from __future__ import annotations

from collections.abc import Callable, Mapping

from neuron_compat.sizing.counts import PartList
from neuron_compat.sizing.decoder import FAMILIES, count_decoder
from neuron_compat.sizing.fields import exact_div, read_int, read_str, sub_config

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


def _qwen2_audio(config: Mapping[str, object], parts: PartList) -> None:
    count_audio_lm(config, parts, "qwen2_audio")


def _qwen3_asr(config: Mapping[str, object], parts: PartList) -> None:
    count_audio_lm(config, parts, "qwen3_asr")


AUDIO_LM_COUNTERS: dict[str, Callable[[Mapping[str, object], PartList], None]] = {"qwen2_audio": _qwen2_audio, "qwen3_asr": _qwen3_asr}
"""model_type -> counter, for dispatch by sizing.models."""
