"""One of several "workers" doing beat's periodic table work at the same moment, for
tests/services/test_several_workers.py (not a test module).

``python -m tests.services.beat_worker sweep|wave START ROUNDS [NOW]`` sets Django up on the
``DATABASE_URL`` it is given (the test's database: its rows are committed), waits until the
epoch second ``START`` so that every worker begins together, then runs ``ROUNDS`` passes of
what Celery beat asks each worker for: ``tables.sweep`` (every due table woken; with ``NOW``,
at that fixed epoch time) or ``matchmaking.run_wave`` (the whole queue). It prints one JSON
line: what the passes returned.
"""

from __future__ import annotations

import json
import os
import sys
import time
from datetime import UTC, datetime


def main() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    from cardgames.matchmaking.services import run_wave
    from cardgames.tables.deadlines import sweep

    what, start, rounds = sys.argv[1], float(sys.argv[2]), int(sys.argv[3])
    now = datetime.fromtimestamp(float(sys.argv[4]), UTC) if len(sys.argv) > 4 else None
    time.sleep(max(0.0, start - time.time()))
    results = []
    for _ in range(rounds):
        if what == "sweep":
            results.append(sweep(now=now))
        else:
            wave = run_wave()
            results.append({"seated": wave.seated, "tables": wave.tables, "skipped": wave.skipped})
    print(json.dumps(results), flush=True)


if __name__ == "__main__":
    main()
