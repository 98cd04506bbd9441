"""Started as a process by bench_tui: `first-frame` prints 'ready' once the home screen is drawn;
`every-screen` opens every screen over the real bank and prints the peak RSS in MB."""

from __future__ import annotations

import asyncio
import json
import resource
import sys
from pathlib import Path


def first_frame() -> None:
    import gc

    gc.disable()  # as `quiz` does (quiz.cli.app_cmd) until the first frame
    from quiz.tui.app import QuizApp, build_context

    class Probe(QuizApp):
        def on_mount(self) -> None:
            super().on_mount()
            self.call_after_refresh(self.ready)

        def ready(self) -> None:
            sys.__stdout__.write("ready\n")
            sys.__stdout__.flush()
            self.exit()

    ctx = build_context(None, [])
    Probe(ctx).run(headless=True)
    ctx.services.close()


async def every_screen() -> None:
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
    from tui.harness import FakeGrader

    from quiz.tui.app import QuizApp, build_context

    ctx = build_context(None, [], grader_factory=FakeGrader)
    app = QuizApp(ctx)
    async with app.run_test(size=(120, 40)) as pilot:
        for key in ["r", "space", "3", "escape", "z", "escape", "e", "escape", "t", "escape",
                    "comma", "escape", "question_mark", "escape", "b", "space", "n", "escape"]:
            await pilot.press(key)
            await pilot.pause()
        app.open_screen("exercise", exercise_id="silu-function")
        await pilot.pause()
        await pilot.press("ctrl+r")
        await app.workers.wait_for_complete()
        await pilot.press("escape", "ctrl+p", *"autograd")
        await pilot.pause(0.3)
    ctx.services.close()
    heavy = sorted(m for m in sys.modules if m.split(".")[0] in ("torch", "numpy"))
    print(json.dumps({"peak_rss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1), "heavy": heavy}))


if __name__ == "__main__":
    if sys.argv[1] == "first-frame":
        first_frame()
    else:
        asyncio.run(every_screen())
