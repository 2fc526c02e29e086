"""Model types the vision, encoder, convolutional and speech counters know that keep no KV cache: encoder-only
transformers, image backbones and segmenters (their attention, if any, runs once over the whole input)."""

from __future__ import annotations

NO_KV_CACHE = frozenset({
    # text encoders
    "albert", "xlm", "flaubert", "modernbert", "layoutlmv3", "convbert", "mobilebert", "perceiver",
    # ViT-style image and audio towers
    "beit", "dinov3_vit", "dpt", "yolos", "audio-spectrogram-transformer", "pixtral", "siglip", "siglip2",
    "siglip_vision_model", "siglip_text_model", "siglip2_vision_model", "siglip2_text_model",
    # convolutional and windowed image backbones, detectors and segmenters
    "resnet", "convnext", "convnextv2", "dinov3_convnext", "swin", "donut-swin", "segformer", "mobilenet_v2",
    "efficientnet", "cvt", "levit", "mobilevit", "rt_detr", "sam", "sam2", "sam2_video",
    # speech encoders
    "sew", "sew-d", "wav2vec2-conformer", "wav2vec2-bert",
})
"""model_type -> encoder-only or convolutional: no KV cache between generation steps."""
