"""Model sizing from a transformers config dict: parameter counts, weight bytes, KV-cache bytes per token and
tensor-parallel degrees. Standard library only; imports nothing else from neuron_compat.

- `audio_lms`: Audio-language models (Qwen2-Audio, Qwen3-ASR, Phi-4-multimodal): an audio encoder, projectors and the text decoder.
- `bytes`: Weight bytes of a parameter count at a storage dtype, and the dtype a config declares.
- `config_keys`: A config.json read as transformers reads it: keys a configuration class maps to its attributes filled in (BLOOM's `n_embed` as `hidden_size`).
- `config_key_data`: Generated: each configuration class's attribute_map and legacy keyword arguments, per model_type (transformers 5.25.0).
- `classic`: LayerNorm decoders with biases and (for GPT-2/OPT) learned absolute positions: GPT-2, GPTBigCode, OPT, BLOOM, Falcon. All have plain (up/down) MLPs.
- `convnets`: Staged image backbones: ResNet, ConvNeXt (v1, v2, DINOv3), Swin, SegFormer, MobileNetV2, EfficientNet, CvT, LeViT, MobileViT, and the RT-DETR detector.
- `counts`: The result types: a count per part, each either a number or 'not counted' with the reason.
- `decoder`: Pre-norm decoders with RMSNorm (Llama, Mistral, Qwen2/3, Gemma 1/2/3, Phi-3, DeepSeek V2/V3), dense or MoE.
- `encoders`: Encoder-only models: BERT/RoBERTa, ViT, CLIP text and vision towers (post- or pre-LayerNorm, biased linears).
- `fields`: Reading size fields out of a config dict: integers only (no booleans, strings or fractions), within bounds.
- `kinds`: Model types the vision, encoder, convolutional and speech counters know that keep no KV cache.
- `kv_cache`: KV-cache bytes per token: standard/GQA/MQA attention, DeepSeek MLA latent cache, sliding windows noted.
- `linear_attention`: Qwen3.5's dense text decoder: Gated DeltaNet linear attention and gated full attention, per layer_types.
- `models`: count_parameters: picks the counter for a config's model_type, recursing into nested text/vision configs.
- `moe_layouts`: Mixture-of-experts decoders outside decoder.py's families (OLMoE, Granite-MoE, Phi-MoE, AFMoE, ERNIE 4.5 MoE, GLM-4 MoE, gpt-oss, Llama 4 text, MiniMax, MiniMax-M3 text, DeepSeek-V3.2, GLM-MoE-DSA, Qwen3-VL-MoE text), exact to transformers 5.25.0.
- `one_off_decoders`: Decoders with a layout of their own: MPT, DBRX, Gemma 3n text, HunYuan dense and MoE, Nemotron.
- `protein_encoders`: ESM protein language models (EsmModel: encoder, pooler and contact head).
- `segment_anything`: Segment Anything (SAM, SAM 2 and SAM 2 video): image encoder with neck, prompt encoder, two-way-transformer mask decoder, video memory.
- `seq2seq`: Encoder-decoder models: T5 (RMS-style LayerNorm without bias, relative position buckets) and BART (learned positions, biased linears). The decoder adds cross-attention.
- `shapes`: Shapes shared by the model families: hidden size, layers, attention heads and head size.
- `speech`: Speech models beyond wav2vec 2.0's layout: SEW, SEW-D, wav2vec 2.0 Conformer, Wav2Vec2-BERT, SpeechT5 (speech-to-text), SeamlessM4T (text-to-text).
- `state_space`: State-space and linear-attention decoders: Mamba-2, Bamba, Falcon-H1, Granite-4, Jamba, Qwen3-Next, Qwen3.5-MoE text, RecurrentGemma, Zamba2.
- `tensor_parallel`: Tensor-parallel degrees a model's attention heads allow: the strict set (query and KV heads both split evenly) and the set that also allows replicating KV heads. Each rule is one small named function.
- `text_encoders`: Encoders unlike BERT: ALBERT, XLM/FlauBERT, ModernBERT, LayoutLMv3, ConvBERT, MobileBERT, Perceiver IO.
- `vision_towers`: ViT-style image and audio towers without a vocabulary: BEiT, DINOv3-ViT, DPT, YOLOS, AST, Pixtral, SigLIP2.
- `vlm_towers`: Vision towers and projectors of vision-language models (Qwen-VL, GLM-4V, InternVL, IDEFICS, Mllama, Llama 4, MiniMax-M3-VL, Mistral 3, LLaVA-OneVision) and the text families they name.
"""

from neuron_compat.sizing.bytes import DTYPE_BYTES, WeightsBytes, declared_dtype, weights_bytes
from neuron_compat.sizing.counts import ParameterCount, Part
from neuron_compat.sizing.kv_cache import KvCacheBytes, kv_cache_bytes_per_token
from neuron_compat.sizing.models import count_parameters
from neuron_compat.sizing.tensor_parallel import TensorParallelDegrees, tensor_parallel_degrees

__all__ = [
    "DTYPE_BYTES",
    "KvCacheBytes",
    "ParameterCount",
    "Part",
    "TensorParallelDegrees",
    "WeightsBytes",
    "count_parameters",
    "declared_dtype",
    "kv_cache_bytes_per_token",
    "tensor_parallel_degrees",
    "weights_bytes",
]
