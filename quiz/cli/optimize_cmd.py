"""`quiz optimize`: fit FSRS parameters to your own reviews; keep them only when they predict better; --reset."""

from __future__ import annotations

import click

from quiz.cli.common import open_services_or_exit


def _use(services, parameters: list[float]) -> int:
    """Save the parameters in the settings and reschedule every studied card with them; returns cards changed."""
    from quiz.config import load_settings, save_settings
    from quiz.srs.reschedule import reschedule_all
    from quiz.srs.scheduler import FsrsScheduler

    settings = load_settings()
    settings.fsrs_parameters = list(parameters)
    save_settings(settings)
    scheduler = FsrsScheduler(settings.desired_retention, parameters=parameters)
    return reschedule_all(services.store, scheduler)


@click.command()
@click.option("--reset", is_flag=True, help="Go back to the default FSRS parameters.")
@click.option("--dry-run", is_flag=True, help="Fit and report, but keep the parameters in use.")
def optimize(reset: bool, dry_run: bool) -> None:
    """Fit FSRS parameters to your review log (fsrs's optimizer, in a separate process).

    Reports log loss and RMSE of the default and fitted parameters on your reviews; the fitted
    ones are kept only when both are better. Needs a few hundred reviews.
    """
    from quiz.srs.optimize import OptimizeError, histories, too_few
    from quiz.srs.optimize import optimize as run

    services = open_services_or_exit()
    try:
        if reset:
            changed = _use(services, [])
            click.echo(f"using the default FSRS parameters; {changed} card(s) rescheduled")
            return
        history = histories(services.store)
        reason = too_few(history)
        if reason:
            click.echo(f"not fitted: {reason}", err=True)
            raise SystemExit(1)
        click.echo("fitting FSRS parameters to your reviews (this can take a minute) ...", err=True)
        try:
            report = run(history)
        except OptimizeError as exc:
            raise click.ClickException(str(exc)) from None
        click.echo(f"{report.reviews} reviews scored    log loss    RMSE")
        click.echo(f"  default parameters     {report.default.log_loss:8.4f}  {report.default.rmse:6.4f}")
        click.echo(f"  fitted parameters      {report.fitted.log_loss:8.4f}  {report.fitted.rmse:6.4f}")
        if not report.better:
            click.echo(
                "not kept: the fitted parameters do not predict your reviews better than the defaults; nothing changed"
            )
            return
        if dry_run:
            click.echo(
                "fitted parameters are better (dry run: not saved): " + ", ".join(f"{p:.4f}" for p in report.parameters)
            )
            return
        changed = _use(services, report.parameters)
        click.echo(f"using the fitted parameters (saved in the settings); {changed} card(s) rescheduled")
    finally:
        services.close()
