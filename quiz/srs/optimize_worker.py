"""Fits FSRS parameters with fsrs's torch optimizer, in its own process: reviews as JSON on stdin, parameters out."""

from __future__ import annotations

import json
import sys
from datetime import datetime


def main() -> int:
    from fsrs import Rating, ReviewLog
    from fsrs.optimizer import Optimizer

    data = json.load(sys.stdin)
    logs = [
        ReviewLog(
            card_id=int(card),
            rating=Rating(int(rating)),
            review_datetime=datetime.fromisoformat(at),
            review_duration=None,
        )
        for card, rating, at in data["reviews"]
    ]
    parameters = Optimizer(logs).compute_optimal_parameters()
    json.dump({"parameters": [float(p) for p in parameters]}, sys.stdout)
    return 0


if __name__ == "__main__":
    sys.exit(main())
