"""A suite of real-shaped logs, written from the sources' literal messages (error-code pages, troubleshooting pages,
release notes) with other timestamps, pids, ids, numbers and paths, inside Python tracebacks: the expected entry must
come first in at least 90% of them, and the negatives (errors that are not Neuron's) must match nothing."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from neuron_compat.check.explain import match_issues, normalise, refusals

ROOT = Path(__file__).resolve().parents[2]


def _issues() -> list[dict[str, Any]]:
    issues: list[dict[str, Any]] = []
    for path in sorted((ROOT / "registry" / "known-issues").glob("*.yaml")):
        issues.extend(yaml.safe_load(path.read_text(encoding="utf-8"))["issues"])
    return issues


ISSUES = _issues()
TRACE = '''Traceback (most recent call last):
  File "/home/ubuntu/work/run_{n}.py", line {n}, in <module>
    model.compile()
  File "/opt/aws_neuronx_venv_pytorch/lib/python3.10/site-packages/torch_neuronx/xla_impl/trace.py", line 1{n}, in compile
    raise RuntimeError(message)
RuntimeError: {message}
'''

# (log, acceptable first entries)
CASES: list[tuple[str, set[str]]] = [
    (TRACE.format(n=41, message="neuronx-cc failed with [NCC_EOOM001] The combined memory needed for the model tensors "
                  "exceeds the high-bandwidth memory limit."), {"ncc-eoom001", "compiler-hbm-limit"}),
    ("2026-03-14T09:26:53Z 77123 [NCC_EARG001] Unsupported Logical Neuron Core (LNC) configuration.",
     {"ncc-earg001", "compiler-lnc-unsupported"}),
    ("ERROR 12345 [neuronx-cc]: Shift-right-arithmetic operation on non 32-bit inputs is not supported. Cast the "
     "first argument's data type to be S32, U32, or F32.", {"ncc-evrf022"}),
    ("2025-11-02 13:01:07.554 [compiler] error EVRF022 raised while lowering /tmp/x/graph_5512.hlo",
     {"ncc-evrf022"}),
    (TRACE.format(n=7, message="[NCC_EBIR023] MLP kernel intermediate size exceeds the maximum supported value of 4096."),
     {"ncc-ebir023"}),
    ("neuronx-cc: error: The number of instructions generated exceeds\n the limit.", {"ncc-ebvf030",
                                                                                      "compiler-instruction-limit"}),
    ("Dynamic shape is not supported. The Neuron compiler requires all tensor dimensions to be statically sized.",
     {"ncc-emod025"}),
    ("[NCC_ESPP047] Unsupported 8-bit floating-point data type.", {"ncc-espp047"}),
    ("2024-Jan-09 08:15:33.0817 31337:31337 ERROR   NRT:nrt_init      Unable to determine Neuron Driver version. "
     "Please check aws-neuron-dkms package is installed.", {"runtime-ts-application-fails-to-start-66"}),
    ("2023-Feb-21 12:00:01.0001 501:501 ERROR   NRT:nrt_init      This runtime requires Neuron Driver version 2.0 or "
     "greater. Please upgrade aws-neuron-dkms package.", {"runtime-ts-application-fails-to-start-66"}),
    ("2026-Jul-30 22:10:44.0558 4412:4412 ERROR NRT:nrt_load  NEFF version mismatch supported: 2.0 received: 3.0",
     {"runtime-ts-unsupported-neff-version-144"}),
    ("ERROR  NRT: Unsupported hardware operator code 187 found in neff.\nPlease make sure to upgrade to latest "
     "aws-neuronx-runtime-lib and aws-neuronx-collective; for detailed installation instructions visit Neuron "
     "documentation", {"runtime-ts-unsupported-hardware-operator-164"}),
    ("RuntimeError: module compiled against API version 0x10 but this version of numpy is 0xd",
     {"runtime-ts-runtimeerror-module-compiled-245"}),
    ("2026-Apr-01 01:02:03.4 999:1000 ERROR TDRV:tdrv_init nd3 nc1 Timestamp program stop timeout (5000 ms)\n"
     "ERROR TDRV:tdrv_init nd3 nc1 Failed to stop neuron core\nFailed to initialize devices, error:7",
     {"runtime-ts-failure-to-initialize-neuron-252", "nxd-training-ts-tdrv-error-timestamp-pro-500"}),
    ("NCCL init error: Error opening libnccom.so, cannot use collective operations! Please set LD_LIBRARY_PATH to "
     "library location. Error: libnccom.so: cannot open shared object file: No such file or directory",
     {"runtime-ts-missing-aws-neuronx-collectiv-485"}),
    ("[rank 3] Unable to run multi-instance workload.  Ofi plugin is not installed or EFA is not enabled",
     {"runtime-ts-missing-efa-installer-package-507"}),
    ("ip-10-0-1-22:1234:5678 [2] OFI plugin initNet() failed is EFA enabled?",
     {"runtime-ts-efa-is-not-enabled-in-trn1-32-527"}),
    ("2026-01-01 00:00:00 NCCL WARN Timeout waiting for RX (waited 300 sec) - retrying",
     {"runtime-ts-communication-timeout-596", "nxd-training-ts-nccl-warning-nccl-warn-t-382"}),
    ("[12345.678901] efa 0000:b1:1c.0 rdmap17s27: Failed to process command DEREG_MR (opcode 8) comp_status 7 err -22",
     {"runtime-ts-efa-kernel-messages-dmesg-aft-653"}),
    ("2026-May-05 05:05:05.0505 2222:2222 ERROR TDRV:exec  Missing infer_status notification: (end:7)",
     {"runtime-ts-neuron-runtime-timeout-or-gps-708", "nxd-training-ts-runtime-errors-missing-i-443"}),
    ("rmmod: ERROR: Cannot unload neuron module - it is currently in use\ndpkg: error processing package "
     "aws-neuronx-dkms (--remove):", {"runtime-ts-neuron-driver-cannot-be-unins-761"}),
    ("urllib3.exceptions.URLSchemeUnknown: Not supported URL scheme http+unix",
     {"nxd-training-ts-eager-debug-mode-fails-w-105"}),
    ("TypeError: HTTPConnection.request() got an unexpected keyword argument 'chunked'",
     {"nxd-training-ts-eager-debug-mode-fails-w-120"}),
    ("2026-Jun-06 06:06:06.0606 333:333 ERROR NRT:nrt_allocate_neuron_cores NeuronCore(s) not available - "
     "Requested:7 Available:0", {"nxd-training-ts-neuroncore-s-not-availab-251", "runtime-ts-neuron-core-is-in-use-127"}),
    ("ERROR TDRV:kbl_model_add Attempting to load an incompatible model!",
     {"nxd-training-ts-nrt-error-error-tdrv-kbl-353"}),
    ("TypeError: Descriptors cannot not be created directly.\nIf this call came from a _pb2.py file, your generated "
     "code is out of date", {"nxd-training-ts-protobuf-error-typeerror-458"}),
    ("AttributeError: module 'numpy' has no attribute 'asscalar'", {"nxd-training-ts-compiler-error-module-nu-514"}),
    ("ImportError: generic_type: type \"IrValue\" is already registered!",
     {"nxd-training-ts-import-errors-generic-ty-540"}),
    ("W: An error occurred during the signature verification. The repository is not updated and the previous index "
     "files will be used. GPG error: https://apt.repos.neuron.amazonaws.com focal InRelease: The following signatures "
     "were invalid: EXPKEYSIG 5749CAD8646D9185 Amazon AWS Neuron", {"setup-ts-how-to-update-neuron-repository-15"}),
    ("2026-Aug-08 10:11:12.1314 15:16 ERROR TDRV:tdrv_one_tmpbuf_reserve Number of ONE TMPBUF pages requested "
     "exceeded the max number of pages allowed (requested: 42, max allowed: 16).",
     {"nxd-training-ts-tdrv-error-tdrv-tdrv-one-289"}),
    ("nrt_tensor_allocate status=4 message=\"Allocation Failure\" on ND 0:NC 5", {"runtime-device-memory-allocation"}),
    (TRACE.format(n=3, message="neuronx-cc terminated: internal error NCC_IBIR229 (see /tmp/neuroncc_compile_workdir/"
                  "7f3a/log-neuron-cc.txt)"), {"compiler-fixed-compilation-error-fixed-a-01080c",
                                                "compiler-fixed-compilation-error-ncc-ibi-8592bc"}),
    ("2026-02-02 11:11:11 rank 0: nrtucode: internal error: 17 object(s) leaked, improper teardown",
     {"pytorch-fixed-fixed-resource-leaks-and-n-49830b"}),
    ("AttributeError: module 'torch_xla.core.xla_model' has no attribute 'get_ordinal' ... does not have the "
     "attribute 'get_ordinal'", {"pytorch-known-pytorch-v2-7-attributeerro-0445c5",
                                 "pytorch-known-v2-6-attributeerror-module-f87a73"}),
    ("  File \"/opt/venv/lib/python3.10/site-packages/torch_neuronx/__init__.py\", line 2\nImportError: cannot import "
     "name 'builder' from 'google.protobuf.internal' (/opt/venv/lib/python3.10/site-packages/google/protobuf/internal/"
     "__init__.py)", {"pytorch-known-error-cannot-import-name-b-c30fa9"}),
]

NEGATIVES = [
    "Traceback (most recent call last):\n  File \"train.py\", line 3, in <module>\n    import transformers_neuronx\n"
    "ModuleNotFoundError: No module named 'transformers_neuronx'",
    "  File \"x.py\", line 12\n    def f(:\n          ^\nSyntaxError: invalid syntax",
    "I got a timeout",
    "KeyError: 'input_ids'",
    "ValueError: too many values to unpack (expected 2)",
    "OSError: [Errno 2] No such file or directory: '/home/ubuntu/model/config.json'",
    "zsh: command not found: neuron-top",
    "TypeError: forward() missing 1 required positional argument: 'attention_mask'",
    "CUDA out of memory. Tried to allocate 2.00 GiB",
    "Connection refused",
    "RuntimeError: CUDA error: device-side assert triggered",
    "Killed",
    "AssertionError: expected 3 got 4",
    "2026-01-01 12:00:00 INFO nrt_init status == NRT_SUCCESS, model loaded in 12.3 s",
]


def _first(log: str) -> str | None:
    found = match_issues(log, ISSUES)
    return str(found[0].issue["id"]) if found else None


def test_the_suite_names_entries_that_exist() -> None:
    ids = {issue["id"] for issue in ISSUES}
    missing = sorted(i for _, expected in CASES for i in expected if i not in ids)
    assert missing == []


def test_the_right_entry_comes_first_for_at_least_90_percent() -> None:
    wrong = [(log[:80], expected, _first(log)) for log, expected in CASES if _first(log) not in expected]
    rate = 1 - len(wrong) / len(CASES)
    print(f"right entry first: {len(CASES) - len(wrong)}/{len(CASES)} = {rate:.0%}")
    assert rate >= 0.9, wrong


@pytest.mark.parametrize("log", NEGATIVES)
def test_unrelated_errors_match_nothing(log: str) -> None:
    assert [m.issue["id"] for m in match_issues(log, ISSUES)] == []


def test_variable_parts_are_normalised() -> None:
    assert normalise("2026-Jan-01 10:00:00.1 123:456 nd0:nc3 at 0x7ffe12ab /opt/venv/lib/x.py") == \
        normalise("2024-Dec-31 23:59:59.9 9:9 nd7:nc0 at 0xdeadbeef /home/u/other/y.py")


def test_refusals_name_the_architecture() -> None:
    vllm = "ValueError: Model architectures ['Phi3SmallForCausalLM'] are not supported on Neuron for now."
    assert [r.architectures for r in refusals(vllm)] == [["Phi3SmallForCausalLM"]]
    optimum = ("ValueError: Model type jetmoe is not supported for task text-generation in neuron in inference mode. "
               "Supported types are: ['llama', 'qwen3'].")
    assert [(r.model_type, r.task) for r in refusals(optimum)] == [("jetmoe", "text-generation")]
