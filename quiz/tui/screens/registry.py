"""Screens by name, so the app, the command line and the palette open them the same way."""

from __future__ import annotations

from importlib import import_module

SCREENS = {
    "home": ("quiz.tui.screens.home", "HomeScreen"),
    "question": ("quiz.tui.screens.question", "QuestionScreen"),
    "module": ("quiz.tui.screens.module_questions", "ModuleQuestionsScreen"),
    "related": ("quiz.tui.screens.related", "RelatedScreen"),
    "review": ("quiz.tui.screens.review", "ReviewScreen"),
    "quiz": ("quiz.tui.screens.quiz_setup", "QuizSetupScreen"),
    "exercises": ("quiz.tui.screens.exercises", "ExercisesScreen"),
    "exercise": ("quiz.tui.screens.exercise", "ExerciseScreen"),
    "stats": ("quiz.tui.screens.stats", "StatsScreen"),
    "help": ("quiz.tui.screens.help", "HelpScreen"),
    "settings": ("quiz.tui.screens.settings", "SettingsScreen"),
    "cards": ("quiz.tui.screens.cards", "CardsScreen"),
}


def make(name: str, **kwargs):
    module, cls = SCREENS[name]
    return getattr(import_module(module), cls)(**kwargs)
