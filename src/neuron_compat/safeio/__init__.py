"""Small I/O primitives every other layer uses: bounded reads, atomic writes, deadlines, scratch
directories and one-line safe text. Imports nothing else of the package.

- `atomic_write`: Write a file so that readers never see half of it: a temporary file beside it, then a rename.
- `bounded_read`: Read one regular file with a size cap enforced while reading: the only way the tools read input files.
- `deadline`: Run a blocking call under a wall-clock deadline, for network reads that per-operation timeouts cannot bound.
- `safe_text`: Registry text made safe to print on one line: the one escaping used for every problem line and terminal output.
- `scratch_dir`: Temporary directories that a killed run does not leave behind for good.
- `option_values`: Strict reading of what a person types as an option value: the one helper every command and script uses.
- `tree_write`: Write a whole directory tree in one swap, never over files this tool did not write.
- `echoed_arguments`: The command line's own arguments, escaped wherever a message echoes them: the one place argv meets output.
"""
