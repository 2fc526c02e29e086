"""One module per `neuron-compat` subcommand. Each has `register(subparsers)` that adds its parser
and sets `handler` to a function `(args) -> exit code`."""
