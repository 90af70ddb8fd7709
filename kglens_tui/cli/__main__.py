"""`python -m kglens_tui.cli`."""

from kglens_tui.cli.main import main

if __name__ == "__main__":
    raise SystemExit(main())
