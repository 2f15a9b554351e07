"""The device experiments' runner; scripts/device/run.py is its entry point.
What each module owns, and how a step kind is added: scripts/device/README.md."""
