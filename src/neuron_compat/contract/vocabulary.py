"""The closed vocabularies of the registry, each defined once with a description per value.

The schema, the JSON Schema, the contributing guide and the site's filters all read these.
"""

from __future__ import annotations

from enum import StrEnum


class DescribedEnum(StrEnum):
    """A string enum whose members carry a one-line description for docs and schemas."""

    @classmethod
    def descriptions(cls) -> dict[str, str]:
        return {member.value: _DESCRIPTIONS[cls.__name__][member.value] for member in cls}


class Status(DescribedEnum):
    SUPPORTED = "supported"
    PARTIAL = "partial"
    UNSUPPORTED = "unsupported"
    NOT_LISTED = "not-listed"
    UNKNOWN = "unknown"


CLAIM_STATUSES = frozenset({"supported", "supported-with-requirements", "partial"})
"""Statuses (registry statuses and drawn ones) that claim the model runs: what inherits values from a stack,
what coverage, counts and advice count. The JS reads it from the published check tables."""


def is_claim(status: str) -> bool:
    """Does this status (a registry status or a drawn one) claim the model runs? The one "is a claim" test."""
    return status in CLAIM_STATUSES


def is_supported(status: str) -> bool:
    """A claim without limits: supported, or supported with settings to set (a claim that is not `partial`)."""
    return is_claim(status) and status != "partial"


class Workload(DescribedEnum):
    INFERENCE = "inference"
    TRAINING = "training"


class Hardware(DescribedEnum):
    INF1 = "inf1"
    INF2 = "inf2"
    TRN1 = "trn1"
    TRN2 = "trn2"
    TRN3 = "trn3"


class Dtype(DescribedEnum):
    FP32 = "fp32"
    BF16 = "bf16"
    FP16 = "fp16"
    FP8 = "fp8"
    INT8 = "int8"
    INT4 = "int4"
    MXFP4 = "mxfp4"
    MXFP8 = "mxfp8"


class Attention(DescribedEnum):
    EAGER = "eager"
    SDPA = "sdpa"
    FLASH_ATTENTION_2 = "flash_attention_2"
    FLEX_ATTENTION = "flex_attention"
    NKI_FLASH = "nki-flash"
    FLASH_DECODING = "flash-decoding"
    NATIVE = "native"


class Quantization(DescribedEnum):
    INT8_WEIGHT = "int8-weight"
    FP8_WEIGHT = "fp8-weight"
    FP8 = "fp8"
    FP8_KV_CACHE = "fp8-kv-cache"
    AWQ = "awq"
    GPTQ = "gptq"
    BITSANDBYTES = "bitsandbytes"
    MXFP4 = "mxfp4"
    COMPRESSED_TENSORS = "compressed-tensors"


class ConstraintKind(DescribedEnum):
    STATIC_SHAPES = "static-shapes"
    STATIC_KV_CACHE = "static-kv-cache"
    PADDING_MULTIPLE = "padding-multiple"
    MAX_SEQUENCE_LENGTH = "max-sequence-length"
    MAX_BATCH_SIZE = "max-batch-size"
    TENSOR_PARALLEL = "tensor-parallel"
    FLAG = "flag"
    ENV = "env"
    SETTING = "setting"
    INSTANCE = "instance"
    OTHER = "other"


class SourceKind(DescribedEnum):
    RELEASE_NOTES = "release-notes"
    VENDOR_DOCS = "vendor-docs"
    SOURCE_CODE = "source-code"
    REPRODUCIBLE_RUN = "reproducible-run"
    COMMUNITY_REPORT = "community-report"


class StackStatus(DescribedEnum):
    ACTIVE = "active"
    BETA = "beta"
    MAINTENANCE = "maintenance"
    DEPRECATED = "deprecated"
    END_OF_SUPPORT = "end-of-support"


class ModelClass(DescribedEnum):
    """What kind of network a family is: decides which of a stack's capability ranges apply to it."""

    DECODER_LM = "decoder-lm"
    ENCODER = "encoder"
    ENCODER_DECODER = "encoder-decoder"
    VISION_TRANSFORMER = "vision-transformer"
    CONVOLUTIONAL = "convolutional"
    SPEECH_AUDIO = "speech-audio"
    DIFFUSION = "diffusion"
    MULTIMODAL = "multimodal"
    STATE_SPACE = "state-space"
    HYBRID = "hybrid"


ATTENTION_FREE_CLASSES = frozenset({ModelClass.CONVOLUTIONAL, ModelClass.STATE_SPACE})
"""Classes without attention layers: a family all of whose classes are here has attention 'not applicable'."""


class Task(DescribedEnum):
    TEXT_GENERATION = "text-generation"
    FEATURE_EXTRACTION = "feature-extraction"
    FILL_MASK = "fill-mask"
    TEXT_CLASSIFICATION = "text-classification"
    TOKEN_CLASSIFICATION = "token-classification"
    QUESTION_ANSWERING = "question-answering"
    MULTIPLE_CHOICE = "multiple-choice"
    TEXT2TEXT_GENERATION = "text2text-generation"
    SENTENCE_SIMILARITY = "sentence-similarity"
    IMAGE_CLASSIFICATION = "image-classification"
    IMAGE_SEGMENTATION = "image-segmentation"
    OBJECT_DETECTION = "object-detection"
    IMAGE_TEXT_TO_TEXT = "image-text-to-text"
    ZERO_SHOT_IMAGE_CLASSIFICATION = "zero-shot-image-classification"
    TEXT_TO_IMAGE = "text-to-image"
    IMAGE_TO_IMAGE = "image-to-image"
    TEXT_TO_VIDEO = "text-to-video"
    AUTOMATIC_SPEECH_RECOGNITION = "automatic-speech-recognition"
    AUDIO_CLASSIFICATION = "audio-classification"
    AUDIO_FRAME_CLASSIFICATION = "audio-frame-classification"
    AUDIO_XVECTOR = "audio-xvector"
    TEXT_TO_AUDIO = "text-to-audio"
    DEPTH_ESTIMATION = "depth-estimation"
    MASK_GENERATION = "mask-generation"


TASK_BY_ARCHITECTURE_SUFFIX: tuple[tuple[str, str], ...] = (
    ("ForCausalLM", "text-generation"),
    ("LMHeadModel", "text-generation"),
    ("ForMaskedLM", "fill-mask"),
    ("ForSequenceClassification", "text-classification"),
    ("ForTokenClassification", "token-classification"),
    ("ForQuestionAnswering", "question-answering"),
    ("ForMultipleChoice", "multiple-choice"),
    ("ForImageClassification", "image-classification"),
    ("ForSemanticSegmentation", "image-segmentation"),
    ("ForObjectDetection", "object-detection"),
    ("ForSpeechSeq2Seq", "automatic-speech-recognition"),
    ("ForCTC", "automatic-speech-recognition"),
    ("ForAudioClassification", "audio-classification"),
    ("ForDepthEstimation", "depth-estimation"),
)
"""Config class name endings that name the task (`neuron-compat new` and `check` read it; the JS through the
check tables). Names without one of these endings (`...Model`, `...ForConditionalGeneration`) say no task."""


_DESCRIPTIONS: dict[str, dict[str, str]] = {
    "Status": {
        "supported": "Runs on this stack over the release range, per the cited source.",
        "partial": "Runs with limits (beta, a subset of sizes or features); a note must say which.",
        "unsupported": "Stated not to run, or removed; a note should say why.",
        "not-listed": "The stack's own exhaustive list leaves it out: not in <list> at versions X-Y. The statement cites "
        "that list (EXHAUSTIVE_LISTS) and a note names it and the versions read.",
        "unknown": "No source says either way. The honest default.",
    },
    "Workload": {
        "inference": "Serving or offline generation/encoding.",
        "training": "Pre-training or fine-tuning.",
    },
    "Hardware": {
        "inf1": "Inferentia (first generation): Inf1 instances.",
        "inf2": "Inferentia2: Inf2 instances.",
        "trn1": "Trainium (first generation): Trn1 and Trn1n instances.",
        "trn2": "Trainium2: Trn2 instances and UltraServers.",
        "trn3": "Trainium3: Trn3 instances.",
    },
    "Dtype": {
        "fp32": "32-bit float.",
        "bf16": "bfloat16.",
        "fp16": "IEEE half precision.",
        "fp8": "8-bit float (e4m3 / e5m2) compute or weights.",
        "int8": "8-bit integer.",
        "int4": "4-bit integer.",
        "mxfp4": "Microscaling 4-bit float (e.g. GPT-OSS checkpoints).",
        "mxfp8": "Microscaling 8-bit float (e.g. Trn3 compute).",
    },
    "Attention": {
        "eager": "transformers' eager (matmul + softmax) attention.",
        "sdpa": "torch.nn.functional.scaled_dot_product_attention.",
        "flash_attention_2": "transformers' flash_attention_2 implementation (CUDA kernels upstream).",
        "flex_attention": "torch flex_attention.",
        "nki-flash": "A Neuron Kernel Interface (NKI) flash-attention kernel used by the stack.",
        "flash-decoding": "Flash decoding (KV cache split across cores during token generation).",
        "native": "The stack's own re-implementation of the model's attention (e.g. NxD Inference modules).",
    },
    "Quantization": {
        "int8-weight": "int8 weight-only quantization.",
        "fp8-weight": "fp8 weight-only quantization.",
        "fp8": "fp8 weights and activations.",
        "fp8-kv-cache": "fp8 KV cache.",
        "awq": "AWQ checkpoints.",
        "gptq": "GPTQ checkpoints.",
        "bitsandbytes": "bitsandbytes 8/4-bit checkpoints.",
        "mxfp4": "MXFP4 checkpoints.",
        "compressed-tensors": "compressed-tensors checkpoints (e.g. from llm-compressor).",
    },
    "ConstraintKind": {
        "static-shapes": "Input shapes are fixed at compile time (batch size, sequence length, buckets).",
        "static-kv-cache": "A static (pre-allocated) KV cache is required.",
        "padding-multiple": "Sequences must be padded to a multiple of `value` tokens.",
        "max-sequence-length": "Longest sequence length (tokens) the source verified; `value` is an integer.",
        "max-batch-size": "Largest batch size the source verified; `value` is an integer.",
        "tensor-parallel": "Tensor-parallel degree(s) required or tested; `value` lists them.",
        "flag": "A library flag or argument that must be set: `name` = `value`.",
        "env": "An environment variable that must be set: `name` = `value`.",
        "setting": "A configuration setting that must hold: `name` = `value`.",
        "instance": "Only verified on the named instance type(s).",
        "other": "Any other requirement, described in `note`.",
    },
    "SourceKind": {
        "release-notes": "Neuron SDK or library release notes.",
        "vendor-docs": "Vendor documentation page (AWS Neuron docs, Hugging Face docs).",
        "source-code": "A source file at a tag or release.",
        "reproducible-run": "A run someone can repeat: command, versions, instance and log.",
        "community-report": "An issue, forum post or blog naming what was run.",
    },
    "StackStatus": {
        "active": "Maintained and recommended for new work.",
        "beta": "Public beta: usable, may change.",
        "maintenance": "Fixes only; new models go elsewhere.",
        "deprecated": "Announced end of support; still shipped.",
        "end-of-support": "No longer shipped in current Neuron releases.",
    },
    "ModelClass": {
        "decoder-lm": "Autoregressive text decoder (dense or mixture-of-experts), e.g. Llama, Qwen3.",
        "encoder": "Bidirectional text encoder (BERT-style): embeddings, classification, fill-mask.",
        "encoder-decoder": "Sequence-to-sequence transformer with an encoder and a decoder, e.g. T5, BART, Whisper.",
        "vision-transformer": "Image model built on attention (ViT, Swin, DETR-style detectors, SAM).",
        "convolutional": "Convolutional image network without attention (ResNet, ConvNeXt, EfficientNet).",
        "speech-audio": "Model whose input or output is audio (wav2vec2, Whisper, MusicGen).",
        "diffusion": "Diffusers pipeline (UNet or diffusion transformer plus text encoders and VAE).",
        "multimodal": "Model that reads images or audio and generates text (LLaVA, Qwen2-VL, Llama 4).",
        "state-space": "Attention-free state-space decoder (Mamba).",
        "hybrid": "Decoder mixing attention with state-space, recurrent, convolution or linear-attention layers.",
    },
    "Task": {value.value: value.value.replace("-", " ").capitalize() + "." for value in Task},
}
