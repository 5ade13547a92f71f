"""Subcommands of the ``drawpoker`` command line."""
