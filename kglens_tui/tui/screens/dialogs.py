"""Modal dialogs: confirm, help, import a KG, welcome, quitting."""

from __future__ import annotations

from pathlib import Path

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Button, Input, Label, Markdown, Static

from kglens_tui.core.safetext import literal, visible
from kglens_tui.kg.bundled_data import check_not_bundled
from kglens_tui.kg.importers import KGExistsError, KGImportError, import_kg
from kglens_tui.kg.names import KGNameError, check_kg_name
from kglens_tui.kg.parsed import check_exists
from kglens_tui.store.connection import StoreError, connect


class ConfirmScreen(ModalScreen[bool]):
    """Yes / no question; dismisses with True for yes."""

    BINDINGS = [Binding("y", "answer(True)", "Yes"), Binding("n,escape", "answer(False)", "No")]

    def __init__(self, question: str) -> None:
        super().__init__()
        self.question = question

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Label(self.question, classes="dialog-title", markup=False)  # data, not markup
            with Horizontal(classes="dialog-buttons"):
                yield Button("Yes (y)", id="yes", variant="error")
                yield Button("No (n)", id="no", variant="primary")

    def action_answer(self, value: bool) -> None:
        self.dismiss(value)

    @on(Button.Pressed)
    def _pressed(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id == "yes")


class QuittingScreen(ModalScreen[None]):
    """Shown while the app ends an active run before it quits: what it is waiting for."""

    def __init__(self, text: str) -> None:
        super().__init__()
        self.text = text

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Label("Quitting", classes="dialog-title")
            yield Static(literal(self.text), id="quitting")

    def show(self, text: str) -> None:
        self.text = text
        self.query_one("#quitting", Static).update(literal(text))


class HelpScreen(ModalScreen[None]):
    """What the keys do on the screen below, plus where settings live. The text scrolls in a
    focused pane (arrows, page up / page down, home / end); the Close button stays below it."""

    BINDINGS = [Binding("escape,q,question_mark", "dismiss", "Close")]
    AUTO_FOCUS = "#help-body"

    def __init__(self, text: str, where: str = "") -> None:
        super().__init__()
        self.text = text
        self.where = where
        """Plain text under the help (the settings and workspace paths), shown literally."""

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog help"):
            with VerticalScroll(id="help-body"):
                yield Markdown(self.text)
                if self.where:
                    yield Static(literal(self.where), id="help-where")
            yield Button("Close (esc)", id="close", variant="primary")

    @on(Button.Pressed)
    def _close(self) -> None:
        self.dismiss(None)


class ImportScreen(ModalScreen[str | None]):
    """Import a KG file or directory; shows the importer's one-line errors."""

    BINDINGS = [Binding("escape", "dismiss(None)", "Cancel")]

    def __init__(self, db_path: Path) -> None:
        super().__init__()
        self.db_path = db_path

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Label("Import a knowledge graph", classes="dialog-title")
            yield Static(
                "A directory with entities.jsonl and triples.jsonl, or a CSV / TSV file of "
                "triples with a subject,predicate,object header.",
                classes="hint",
            )
            yield Input(placeholder="path", id="path")
            yield Input(placeholder="name in the workspace (default: the file name)", id="name")
            yield Static("", id="import-status")
            with Horizontal(classes="dialog-buttons"):
                yield Button("Import", id="import", variant="primary")
                yield Button("Cancel", id="cancel")

    @on(Button.Pressed, "#cancel")
    def _cancel(self) -> None:
        self.dismiss(None)

    @on(Input.Submitted)
    @on(Button.Pressed, "#import")
    def _import(self) -> None:
        raw = self.query_one("#path", Input).value.strip()
        if not raw:
            self._show_error("Enter a path.")
            return
        path = Path(raw).expanduser()
        try:
            check_exists(path)
            name = check_kg_name(self.query_one("#name", Input).value.strip() or path.stem)
            check_not_bundled(name, source=str(path))
        except (KGImportError, KGNameError) as exc:
            self._show_error(str(exc))
            return
        self._status(f"importing {path.name}…")
        self._run_import(path, name)

    @work(thread=True, exclusive=True, group="import", exit_on_error=False)
    def _run_import(self, path: Path, name: str) -> None:
        try:
            conn = connect(self.db_path, lock_notice=self._notice_from_thread)
            try:
                report = import_kg(conn, path, name)
            finally:
                conn.close()
        except (KGImportError, KGExistsError, KGNameError, StoreError) as exc:
            self.app.call_from_thread(self._show_error, str(exc))
            return
        except Exception as exc:  # shown in the dialog, so the user can fix the path and retry
            self.app.call_from_thread(self._show_error, f"{type(exc).__name__}: {exc}")
            return
        lines = [report.summary(), *(f"warning: {w}" for w in report.warnings)]
        self.app.call_from_thread(self.dismiss, visible("\n".join(lines)))

    def _notice_from_thread(self, message: str) -> None:
        self.app.call_from_thread(self._status, message, "yellow")

    def _status(self, message: str, style: str = "") -> None:
        self.query_one("#import-status", Static).update(literal(message, style))

    def _show_error(self, message: str) -> None:
        """Show the error as plain text (never markup) and put the cursor back on the path."""
        self._status(message, "red")
        self.query_one("#path", Input).focus()


class WelcomeScreen(ModalScreen[bool]):
    """First start: offer a probe of the best available target on the Country KG."""

    BINDINGS = [
        Binding("enter", "answer(True)", "Start"),
        Binding("escape", "answer(False)", "Later"),
    ]

    def __init__(self, target_text: str) -> None:
        super().__init__()
        self.target_text = target_text

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Label("Welcome to KGLens", classes="dialog-title")
            yield Static(
                "Your workspace holds the bundled Country KG (195 sovereign states, 20 "
                f"predicates). Probe {self.target_text} on it now? Each answer updates a Beta "
                "distribution per fact; the live screen shows where its knowledge breaks."
            )
            with Horizontal(classes="dialog-buttons"):
                yield Button("Start probing (enter)", id="yes", variant="success")
                yield Button("Not now (esc)", id="no")

    def action_answer(self, value: bool) -> None:
        self.dismiss(value)

    @on(Button.Pressed)
    def _pressed(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id == "yes")
