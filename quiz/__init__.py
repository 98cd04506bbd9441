"""AI-infrastructure interview trainer: questions, quizzes, spaced repetition, graded exercises."""

__version__ = "0.1.0"
