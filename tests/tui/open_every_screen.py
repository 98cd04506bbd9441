"""Run in a fresh interpreter: open every screen, grade with the real grader worker, report sys.modules."""

import asyncio
import json
import resource
import sys
import tempfile
import time
from pathlib import Path

START = time.perf_counter()
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tui.harness import FIXTURES, make_context  # noqa: E402

from quiz.grader.runner import GraderWorker  # noqa: E402

from quiz.tui.app import QuizApp  # noqa: E402


async def main() -> dict:
    ctx = make_context(Path(tempfile.mkdtemp()), roots=None, grader=GraderWorker)
    app = QuizApp(ctx)
    first_frame = None
    verdict = grader = ""
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        first_frame = (time.perf_counter() - START) * 1000
        for key in [
            "r",
            "space",
            "3",
            "escape",
            "z",
            "escape",
            "m",
            "escape",
            "e",
            "escape",
            "t",
            "escape",
            "comma",
            "escape",
            "question_mark",
            "escape",
            "b",
            "space",
            "escape",
            "c",
            "escape",
        ]:
            await pilot.press(key)
            await pilot.pause()
        app.open_screen("exercise", exercise_id="double-fixture")
        await pilot.pause()
        solution = (FIXTURES / "exercises" / "double" / "solution.py").read_text(encoding="utf-8")
        app.screen.query_one("#editor").text = solution
        await pilot.press("ctrl+r")
        await app.workers.wait_for_complete()
        await pilot.pause()
        deadline = time.monotonic() + 180  # a cold worker on a loaded machine takes a while to start
        while "Grading" in str(app.screen.query_one("#results").render()) and time.monotonic() < deadline:
            await pilot.pause(0.2)
        verdict = str(app.screen.query_one("#results").render())
        service = app.screen.grader  # the app's shared GraderService; the worker it started does the grading
        grader = f"{type(service).__name__}({type(service.grader).__name__})"
        await pilot.press("ctrl+p")
        await pilot.pause()
    ctx.services.close()
    heavy = sorted(m for m in sys.modules if m.split(".")[0] in ("torch", "numpy", "pytest"))
    return {
        "first_frame_ms": round(first_frame, 1),
        "heavy_modules": heavy,
        "verdict": verdict,
        "grader": grader,
        "peak_rss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1),
    }


print(json.dumps(asyncio.run(main())))
