"""Model sizing from a transformers config dict: parameter counts, weight bytes, KV-cache bytes per token and
tensor-parallel degrees. Standard library only; imports nothing else from neuron_compat."""

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
