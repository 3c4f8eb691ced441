"""Skill ratings per player and game (issue 11): the pure arithmetic in ``skill.py``, the rows in
``models.py``, the writer ``services.rate_game`` (connected to ``game_finished`` in ``signals.py``)
and the readers in ``selectors.py``."""
