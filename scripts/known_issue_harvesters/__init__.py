"""The known-issue harvesters' parsing code (maintainer tools, not part of the installed package).

- `common`: the mirror reader (bounded git output), the command line, reStructuredText sections and bullets, the
  entry's shape and its validation against the contract, write-or-check.
- `error_codes`: the compiler's error-code pages (`compiler/error-codes/*.rst`).
- `troubleshooting`: troubleshooting pages (runtime, NxD Inference, NxD Training, setup, TorchNeuron).
- `release_notes`: the component release notes' known issues and bug fixes.
"""
