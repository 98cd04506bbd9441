"""Keeping an editor buffer and its file on disk in step: reload when the buffer is clean, ask when both changed."""

from __future__ import annotations

from textual.widgets import TextArea

from quiz.tui.screens.confirm import ConfirmScreen


class FileSync:
    """For a screen with a TextArea `#editor` on `self.path`; never writes over changes made on disk unasked."""

    def init_file_sync(self) -> None:
        self.asking = False  # the disk-changed dialog is open
        self.path = None
        self.disk_text = ""  # the file's text as last read or written
        self.disk_stamp = None

    @property
    def editor(self) -> TextArea:
        return self.query_one("#editor", TextArea)

    @property
    def dirty(self) -> bool:
        """The buffer holds changes that are not on disk."""
        return self.editor.text != self.disk_text

    def _read_disk(self) -> tuple[str, tuple | None]:
        try:
            st = self.path.stat()
            return self.path.read_text(encoding="utf-8"), (st.st_mtime_ns, st.st_size)
        except (OSError, UnicodeDecodeError):
            return self.disk_text, None

    def _load(self, text: str) -> None:
        self.disk_text = text
        self.editor.text = text

    def watch_file(self) -> bool:
        """Take in changes made on disk: reload a clean buffer, ask when both changed. True when in step."""
        try:
            st = self.path.stat()
        except OSError:
            return True  # gone: the next save writes it again
        if (st.st_mtime_ns, st.st_size) == self.disk_stamp:
            return True
        text, self.disk_stamp = self._read_disk()
        if text == self.disk_text:
            return True
        if not self.dirty:
            self._load(text)
            self.notify(self.t("file_changed"), timeout=3)
            return True
        self.ask_about(text)
        return False

    def ask_about(self, text: str) -> None:
        if self.asking:
            return
        self.asking = True

        def answered(load: bool | None) -> None:
            self.asking = False
            if load:
                self._load(text)
            else:
                self.disk_text = text  # keep the buffer; the next save replaces the disk's version on purpose

        self.app.push_screen(ConfirmScreen(self.t("file_conflict"), self.t("yes"), self.t("no")), answered)

    def save(self) -> bool:
        """Write the buffer, unless the file changed on disk meanwhile and the buffer too (then ask)."""
        if not self.watch_file():
            return False
        if self.dirty or not self.path.exists():
            self.path.write_text(self.editor.text, encoding="utf-8")
            self.disk_text, self.disk_stamp = self._read_disk()
        return True
