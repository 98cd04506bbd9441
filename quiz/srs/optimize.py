"""FSRS parameters fitted to the user's own reviews: the fit runs in a separate process (torch), the judging here."""

from __future__ import annotations

import json
import math
import os
import subprocess
import sys
from dataclasses import dataclass
from datetime import datetime
from itertools import pairwise
from pathlib import Path

from fsrs import Card, Rating, Scheduler
from fsrs.scheduler import DEFAULT_PARAMETERS

from quiz.srs.store import Store

MIN_REVIEWS = 512  # fsrs's optimizer works in batches of 512 next-day-or-later reviews; with fewer it changes nothing

History = dict[str, list[tuple[int, datetime]]]  # card id -> its (rating, time) in time order


class OptimizeError(RuntimeError):
    """The fit could not run or finish; the message says why."""


@dataclass(frozen=True)
class Score:
    log_loss: float
    rmse: float


@dataclass(frozen=True)
class Report:
    reviews: int  # reviews the scores are computed on (a day or more after the card's previous one)
    default: Score
    fitted: Score
    parameters: list[float]

    @property
    def better(self) -> bool:
        """Fitted parameters are kept only when they predict these reviews better than the defaults."""
        return self.fitted.log_loss < self.default.log_loss and self.fitted.rmse <= self.default.rmse


def histories(store: Store) -> History:
    """Every card's ratings from the log, undone ones left out, oldest first."""
    out: History = {}
    for card_id, rating, at in store.conn.execute(
        "SELECT card_id, rating, reviewed_at FROM review_log WHERE undone_at IS NULL ORDER BY reviewed_at"
    ):
        out.setdefault(card_id, []).append((rating, datetime.fromisoformat(at)))
    return out


def scored_reviews(history: History) -> int:
    """How many reviews come a day or more after the card's previous one: the ones FSRS learns from."""
    count = 0
    for rows in history.values():
        count += sum(1 for (_, prev), (_, at) in pairwise(rows) if (at - prev).days > 0)
    return count


def too_few(history: History) -> str | None:
    """Why the history cannot be fitted yet, or None."""
    n = scored_reviews(history)
    if n < MIN_REVIEWS:
        return (
            f"only {n} review(s) a day or more after the card's previous one; at least {MIN_REVIEWS} are needed "
            f"to fit parameters (keep reviewing and try again later)"
        )
    return None


def score(history: History, parameters) -> Score:
    """Log loss and RMSE of the recall probabilities `parameters` predict, against what happened (again = forgot)."""
    scheduler = Scheduler(parameters=tuple(parameters), enable_fuzzing=False)
    loss = squares = 0.0
    n = 0
    for rows in history.values():
        card = Card(card_id=0, due=rows[0][1])
        for rating, at in rows:
            if card.last_review is not None and (at - card.last_review).days > 0:
                p = min(max(scheduler.get_card_retrievability(card, at), 1e-7), 1 - 1e-7)
                y = 0.0 if rating == 1 else 1.0
                loss -= y * math.log(p) + (1 - y) * math.log(1 - p)
                squares += (p - y) ** 2
                n += 1
            card, _ = scheduler.review_card(card, Rating(rating), review_datetime=at)
    if n == 0:
        return Score(float("nan"), float("nan"))
    return Score(loss / n, math.sqrt(squares / n))


def fit(history: History, timeout_s: float = 1800) -> list[float]:
    """Run fsrs's optimizer in `python -m quiz.srs.optimize_worker` (torch never enters this process)."""
    index = {card: i for i, card in enumerate(sorted(history))}
    reviews = [[index[card], rating, at.isoformat()] for card, rows in history.items() for rating, at in rows]
    root = str(Path(__file__).resolve().parents[2])  # where this `quiz` package lives, for the worker to import
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [root, os.environ.get("PYTHONPATH")])))
    try:
        done = subprocess.run(
            [sys.executable, "-m", "quiz.srs.optimize_worker"],
            input=json.dumps({"reviews": reviews}),
            capture_output=True,
            text=True,
            timeout=timeout_s,
            env=env,
            check=False,
        )
    except subprocess.TimeoutExpired:
        raise OptimizeError(f"the fit took longer than {timeout_s:g} s and was stopped; nothing was changed") from None
    if done.returncode != 0:
        last = (done.stderr.strip().splitlines() or ["no message"])[-1]
        raise OptimizeError(f"the optimizer failed ({last}); nothing was changed")
    try:
        parameters = [float(p) for p in json.loads(done.stdout)["parameters"]]
        Scheduler(parameters=tuple(parameters))  # validates count and bounds
    except (ValueError, KeyError, TypeError) as exc:
        raise OptimizeError(f"the optimizer returned something unusable ({exc}); nothing was changed") from None
    return parameters


def optimize(history: History, fitter=fit) -> Report:
    """Fit, then score the defaults and the fitted parameters on the same reviews."""
    parameters = fitter(history)
    return Report(scored_reviews(history), score(history, DEFAULT_PARAMETERS), score(history, parameters), parameters)
