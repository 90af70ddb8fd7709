"""The `kglens` command line: `main` parses and dispatches; each module holds one command
group's options and handlers."""
