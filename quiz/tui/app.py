"""The Textual application: screens per mode, global bindings, the command palette, zh/en at run time."""

from __future__ import annotations

import logging
from pathlib import Path

from textual.app import App
from textual.binding import Binding
from textual.reactive import reactive

from quiz.tui.context import AppContext
from quiz.tui.i18n import tr

log = logging.getLogger(__name__)


def _after_first_frame() -> None:
    """After the first frame: keep start-up objects out of future collections, and install the code-fence widget."""
    import gc

    gc.freeze()
    gc.enable()
    from quiz.tui.widgets.fence import install

    install()


def _content_provider():
    """The palette's provider, imported when the palette first opens (textual.command is not light)."""
    from quiz.tui.palette import ContentProvider

    return ContentProvider


class QuizApp(App):
    CSS_PATH = Path(__file__).parent / "app.tcss"
    TITLE = "AI-infra interview trainer"
    COMMANDS = App.COMMANDS | {_content_provider}
    BINDINGS = [
        Binding("question_mark", "help", "Help", id="help"),
        Binding("f2", "toggle_lang", "中/EN", id="toggle_lang"),
        Binding("f12", "screenshot", "Screenshot", id="screenshot", show=False),
        Binding("ctrl+q", "quit", "Quit", id="quit", priority=True, show=False),
    ]
    lang: reactive[str] = reactive("en", init=False)

    def __init__(self, ctx: AppContext, start_screen: str | None = None):
        super().__init__()
        self.ctx = ctx
        self.start_screen = start_screen
        self._grader_service = None
        self.lang = ctx.settings.lang
        theme = ctx.settings.theme or "textual-dark"
        if theme not in self.available_themes:
            ctx.settings.problems.append(
                f"'theme' {theme!r} is not a theme of this app; using 'textual-dark' "
                f"(the palette's 'Change theme' lists them)"
            )
            theme = "textual-dark"
        self.theme = theme
        if ctx.settings.keys:
            self.set_keymap(ctx.settings.keys)

    def t(self, key: str) -> str:
        return tr(key, self.lang)

    @property
    def grader_service(self):
        """The one warm grader every exercise screen shares (created on first use, closed with the app)."""
        if self._grader_service is None:
            from quiz.tui.grader_service import GraderService

            self._grader_service = GraderService(self.ctx.grader_factory, self.run_worker)
        return self._grader_service

    def on_unmount(self) -> None:
        if self._grader_service is not None:
            self._grader_service.close()

    def on_mount(self) -> None:
        from quiz.tui.screens.home import HomeScreen

        self.title = self.t("app_title")
        self.push_screen(HomeScreen())
        if self.ctx.store_error:
            self.notify(self.ctx.store_error, title=self.t("store_error"), severity="error", timeout=15, markup=False)
        if self.ctx.settings.problems:
            from quiz import paths

            self.notify(
                "\n".join(self.ctx.settings.problems),
                title=f"{paths.config_file()}",
                severity="warning",
                timeout=15,
                markup=False,
            )
        errors = self.ctx.bank.errors
        if errors:
            self.notify(
                f"{len(errors)}: {errors[0]}",
                title=self.t("content_problems"),
                severity="warning",
                timeout=10,
                markup=False,
            )
        if self.start_screen:
            self.open_screen(self.start_screen)
        self.call_after_refresh(_after_first_frame)

    def open_screen(self, name: str, **kwargs) -> None:
        """Open a mode by name: review, quiz, mock, exercises, stats, settings, help, question, exercise."""
        from quiz.tui.screens import registry

        self.push_screen(registry.make(name, **kwargs))

    def action_help(self) -> None:
        self.open_screen("help")

    def action_toggle_lang(self) -> None:
        self.lang = "en" if self.lang == "zh" else "zh"

    async def watch_lang(self, lang: str) -> None:
        self.title = self.t("app_title")
        for screen in self.screen_stack:
            apply = getattr(screen, "apply_lang", None)
            if apply is not None:
                await apply()

    def watch_theme(self, theme: str) -> None:
        """A theme picked in the palette or in settings is kept for the next start."""
        if theme == self.ctx.settings.theme:
            return
        self.ctx.settings.theme = theme
        from quiz.config import load_settings, save_settings

        try:
            stored = load_settings()
            stored.theme = theme
            save_settings(stored)
        except OSError as exc:
            log.warning("cannot save the theme: %s", exc)

    def deliver_screenshot(
        self, filename: str | None = None, path: str | None = None, time_format: str | None = None
    ) -> str | None:
        """Save an SVG screenshot under the data dir (Textual's default folder may not exist) and say where."""
        from quiz import paths

        folder = Path(path) if path else paths.data_dir() / "screenshots"
        try:
            folder.mkdir(parents=True, exist_ok=True)
            saved = self.save_screenshot(filename, str(folder), time_format)
        except OSError as exc:
            self.notify(str(exc), title=self.t("screenshot"), severity="error", markup=False)
            return None
        self.notify(saved, title=self.t("screenshot_saved"), timeout=8, markup=False)
        return saved


def build_context(lang: str | None, content_dirs: list[Path], grader_factory=None, services=None) -> AppContext:
    from quiz.config import load_settings
    from quiz.content import load_default_bank
    from quiz.services import open_services
    from quiz.srs.store import StoreError

    settings = load_settings()
    if lang:
        settings.lang = lang
    bank = load_default_bank(content_dirs)
    store_error = None
    if services is None:
        try:
            services = open_services(settings=settings, backup=True)
        except StoreError as exc:
            store_error = str(exc)
    return AppContext(
        bank=bank, settings=settings, services=services, store_error=store_error, grader_factory=grader_factory
    )


def run_app(lang: str | None = None, content_dirs: list[Path] | None = None, screen: str | None = None) -> None:
    ctx = build_context(lang, content_dirs or [])
    app = QuizApp(ctx, start_screen=screen)
    try:
        app.run()
    finally:
        if ctx.services is not None:
            ctx.services.close()
    if app.return_code:  # a crash: Textual printed the traceback; the exit status says so too
        raise SystemExit(app.return_code)
