"""Offline practice against bots, in the player's browser (PF-13, PF-62; docs/offline.md).

Pure like the engines and bots it runs (no Django, no clock, no I/O): the browser's Pyodide loads
this package with ``cardgames.engines``, ``cardgames.bots`` and the pure table modules from one
zip built from this repository (``frontend/offline.py``), so one rules code serves both runtimes.

- ``table``: the practice table (the live table service's rules of play, no database).
- ``session``: the worker's side of the table page's frames (the live socket's protocol).
- ``selfplay``: seeded bot games as a digest per state, to check both runtimes agree.
"""
