"""The exit codes of the commands: the one table of them (the check page runs `check`'s own code, so it reports
what `check` would exit with)."""

EXIT_OK = 0
EXIT_PROBLEMS = 1  # bad input: a registry problem, a bad file, JSON, release or stack
EXIT_USAGE = 2  # argparse usage errors; for `check` also a model or registry URL that could not be reached
EXIT_UNREACHABLE = EXIT_USAGE
EXIT_FOR_STATUS = {"supported": EXIT_OK, "partial": 3, "unsupported": 4, "ended": 4, "not-listed": 4, "unknown": 4}  # `check`: its answer
