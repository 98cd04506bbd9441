"""Settings: language, desired retention, daily limits, day start hour, editor, theme; saved to config.toml."""

from __future__ import annotations

from typing import Literal

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.widgets import Button, Header, Input, Label, Select, Switch

from quiz.tui.screens.base import BaseScreen, store_guard
from quiz.tui.widgets.keybar import KeyBar

FIELDS: list[tuple[str, str, Literal["integer", "number", "text"]]] = [  # (settings key, label key, kind)
    ("desired_retention", "retention_target", "number"),
    ("new_per_day", "daily_new", "integer"),
    ("reviews_per_day", "daily_reviews", "integer"),
    ("day_start_hour", "day_start", "integer"),
    ("editor", "editor_cmd", "text"),
]


class SettingsScreen(BaseScreen):
    BINDINGS = [Binding("ctrl+s", "save", "Save", id="settings.save", priority=True)]

    def compose(self) -> ComposeResult:
        s = self.ctx.settings
        yield Header()
        with VerticalScroll(id="settings-form"):
            yield Label(self.t("settings"), classes="title")
            yield Label("Language / 语言")
            yield Select([("中文", "zh"), ("English", "en")], value=s.lang, allow_blank=False, id="set-lang")
            for key, label, kind in FIELDS:
                yield Label(self.t(label))
                yield Input(str(getattr(s, key)), id=f"set-{key}", type=kind)
            yield Label(self.t("interleave"))
            yield Switch(value=s.interleave_modules, id="set-interleave")
            yield Label(self.t("bury_siblings"))
            yield Switch(value=s.bury_siblings, id="set-bury-siblings")
            yield Label(self.t("theme"))
            themes = sorted(self.app.available_themes)
            yield Select(
                [(name, name) for name in themes],
                value=s.theme if s.theme in themes else self.app.theme,
                allow_blank=False,
                id="set-theme",
            )
            yield Button(self.t("save"), id="settings-save", variant="primary")
            yield Label(self.t("fsrs_fitted" if self._fitted() else "fsrs_default"), id="settings-fsrs")
        yield KeyBar()

    def _fitted(self) -> bool:
        services = self.ctx.services
        return services.scheduler.custom if services is not None else bool(self.ctx.settings.fsrs_parameters)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "settings-save":
            self.action_save()

    def action_save(self) -> None:
        from quiz.config import Settings, save_settings

        s = self.ctx.settings
        data = s.to_dict()
        try:
            data["lang"] = str(self.query_one("#set-lang", Select).value)
            for key, _, kind in FIELDS:
                raw = self.query_one(f"#set-{key}", Input).value.strip()
                data[key] = float(raw) if kind == "number" else int(raw) if kind == "integer" else raw
            data["interleave_modules"] = self.query_one("#set-interleave", Switch).value
            data["bury_siblings"] = self.query_one("#set-bury-siblings", Switch).value
            data["theme"] = str(self.query_one("#set-theme", Select).value)
        except ValueError as exc:
            self.notify(str(exc), severity="error", markup=False)
            return
        new = Settings.from_dict(data)
        try:
            path = save_settings(new)
        except OSError as exc:
            self.notify(str(exc), severity="error", markup=False)
            return
        retention_changed = new.desired_retention != s.desired_retention
        for key, value in new.to_dict().items():
            setattr(s, key, value)
        for key, _, _ in FIELDS:  # show what was saved: a value out of range is shown clamped
            self.query_one(f"#set-{key}", Input).value = str(getattr(s, key))
        if self.ctx.services is not None:
            from quiz.srs.scheduler import FsrsScheduler

            self.ctx.services.scheduler = FsrsScheduler(s.desired_retention, parameters=s.fsrs_parameters)
            if retention_changed:
                self.reschedule()
        self.notify(f"{self.t('saved')}: {path}", markup=False)
        if self.app.theme != s.theme:
            self.app.theme = s.theme
        if self.app.lang != s.lang:
            self.app.lang = s.lang

    @store_guard
    def reschedule(self) -> None:
        """Existing cards follow the new desired retention, not only future ratings."""
        from quiz.srs.reschedule import reschedule_all

        count = reschedule_all(self.ctx.services.store, self.ctx.services.scheduler)
        self.notify(f"{self.t('rescheduled')}: {count}")
