"""`quiz optimize`: on a history simulated from known FSRS parameters, fitted parameters beat the defaults."""

from __future__ import annotations

import random
from datetime import timedelta

import pytest
from fsrs import Card, Rating, Scheduler
from fsrs.scheduler import DEFAULT_PARAMETERS

from srs_helpers import T0
from test_cli_review import quiz
from quiz.config import load_settings
from quiz.srs import optimize
from quiz.srs.cardstate import CardState
from quiz.srs.scheduler import FsrsScheduler
from quiz.srs.store import Store

# a learner who forgets new cards much faster than FSRS assumes, and whose memories grow more slowly
TRUE = list(DEFAULT_PARAMETERS)
TRUE[0:4] = [0.1, 0.3, 0.6, 2.0]
TRUE[8] = 1.0


def simulate(cards: int, reviews_each: int, seed: int = 7) -> optimize.History:
    """Ratings drawn from the recall probability the true parameters give at each (jittered) review time."""
    rng = random.Random(seed)
    truth = Scheduler(parameters=TRUE, learning_steps=(), relearning_steps=(), enable_fuzzing=False)
    history: optimize.History = {}
    for i in range(cards):
        at = T0 + timedelta(days=rng.randrange(30), minutes=rng.randrange(600))
        card = Card(card_id=i, due=at)
        rows = []
        first = rng.choices([1, 2, 3, 4], weights=[20, 10, 60, 10])[0]
        for _ in range(reviews_each):
            rating = (
                first
                if not rows
                else (
                    rng.choices([2, 3, 4], weights=[15, 75, 10])[0]
                    if rng.random() < truth.get_card_retrievability(card, at)
                    else 1
                )
            )
            rows.append((rating, at))
            card, _ = truth.review_card(card, Rating(rating), review_datetime=at)
            gap = max((card.due - at) * rng.uniform(0.5, 3.0), timedelta(days=1, hours=1))
            at += gap
        history[f"q/c{i}"] = rows
    return history


def test_scoring_prefers_the_parameters_that_made_the_history():
    history = simulate(150, 6)
    true, default = optimize.score(history, TRUE), optimize.score(history, DEFAULT_PARAMETERS)
    assert true.log_loss < default.log_loss and true.rmse < default.rmse
    report = optimize.optimize(history, fitter=lambda h: TRUE)
    assert report.better and report.parameters == TRUE
    assert not optimize.optimize(history, fitter=lambda h: list(DEFAULT_PARAMETERS)).better


def test_too_few_reviews_are_refused_with_the_reason():
    reason = optimize.too_few(simulate(20, 5))
    assert reason and "only 80 review(s)" in reason and "512" in reason
    assert optimize.too_few(simulate(150, 5)) is None


def test_a_broken_worker_is_a_clear_error(monkeypatch):
    monkeypatch.setattr(optimize.sys, "executable", "/bin/false")
    with pytest.raises(optimize.OptimizeError, match="nothing was changed"):
        optimize.fit(simulate(3, 3))


def test_fitted_parameters_change_the_scheduler_and_bad_ones_fall_back():
    state = CardState("q/q1")
    now = T0
    default = FsrsScheduler(fuzz=False).review(state, 3, now).after
    fitted = FsrsScheduler(fuzz=False, parameters=TRUE)
    assert fitted.custom and fitted.review(state, 3, now).after.stability == pytest.approx(0.6)
    assert default.stability != pytest.approx(0.6)
    assert not FsrsScheduler(parameters=[1.0, 2.0]).custom


def seed_store(home, history: optimize.History) -> None:
    """Write the history into QUIZ_HOME's store as the app would have logged it."""
    scheduler = FsrsScheduler()
    with _open(home) as store:
        for card_id, rows in history.items():
            state = CardState(card_id)
            for rating, at in rows:
                outcome = scheduler.review(state, rating, at)
                store.record_review(state, outcome.after, rating, at, None, outcome.interval.total_seconds() / 86400)
                state = outcome.after


def _open(home):
    from quiz import paths

    assert paths.data_dir().is_relative_to(home)
    return Store.open(paths.database_file())


@pytest.mark.slow
def test_quiz_optimize_fits_a_simulated_history_keeps_the_better_parameters_and_resets(isolated_home):
    history = simulate(220, 6)
    seed_store(isolated_home, history)
    out = quiz("optimize", home=isolated_home)
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    default = [float(x) for x in lines[1].split()[-2:]]
    fitted = [float(x) for x in lines[2].split()[-2:]]
    assert fitted[0] < default[0] and fitted[1] < default[1]
    assert "using the fitted parameters" in out.stdout
    kept = load_settings().fsrs_parameters
    assert len(kept) == len(DEFAULT_PARAMETERS) and kept != list(DEFAULT_PARAMETERS)
    # the fitted parameters are nearer the truth where the history says most: first stability after good
    assert abs(kept[2] - TRUE[2]) < abs(DEFAULT_PARAMETERS[2] - TRUE[2])

    reset = quiz("optimize", "--reset", home=isolated_home)
    assert reset.returncode == 0 and "default FSRS parameters" in reset.stdout
    assert load_settings().fsrs_parameters == []


def test_quiz_optimize_refuses_a_short_history(isolated_home):
    seed_store(isolated_home, simulate(10, 4))
    out = quiz("optimize", home=isolated_home)
    assert out.returncode == 1 and "only 30 review(s)" in out.stderr and "512" in out.stderr
    assert load_settings().fsrs_parameters == []


def test_fitted_parameters_survive_the_config_file_and_a_bad_list_is_named(isolated_home):
    from quiz.config import save_settings

    settings = load_settings()
    settings.fsrs_parameters = list(TRUE)
    path = save_settings(settings)
    assert load_settings().fsrs_parameters == TRUE
    path.write_text('fsrs_parameters = [1, "x"]\n', encoding="utf-8")
    bad = load_settings()
    assert bad.fsrs_parameters == [] and any("fsrs_parameters" in p for p in bad.problems)
