"""Reading, checking and saving the settings file."""

from __future__ import annotations

import logging

import pytest

from quiz import paths
from quiz.config import Settings, default_lang, load_settings, save_settings


def test_defaults():
    s = Settings()
    assert (s.lang, s.desired_retention, s.new_per_day, s.reviews_per_day) == ("en", 0.9, 20, 200)
    assert (s.day_start_hour, s.interleave_modules, s.editor, s.theme, s.keys) == (4, False, "", "textual-dark", {})


def test_saved_settings_read_back_identically(tmp_path):
    s = Settings(
        lang="zh",
        desired_retention=0.85,
        new_per_day=7,
        reviews_per_day=90,
        day_start_hour=6,
        interleave_modules=True,
        editor="vim -n",
        theme="nord",
        keys={"review.again": "j"},
    )
    path = save_settings(s, tmp_path / "a" / "b" / "config.toml")
    assert path == tmp_path / "a" / "b" / "config.toml"
    assert not path.with_suffix(".toml.tmp").exists()
    assert load_settings(path) == s


def test_save_and_load_default_to_the_config_dir(isolated_home):
    save_settings(Settings(lang="zh", new_per_day=3))
    assert paths.config_file() == isolated_home / "config.toml"
    assert paths.config_file().is_file()
    loaded = load_settings()
    assert (loaded.lang, loaded.new_per_day) == ("zh", 3)


def test_save_overwrites_the_previous_file(tmp_path):
    path = tmp_path / "config.toml"
    save_settings(Settings(new_per_day=1), path)
    save_settings(Settings(new_per_day=2), path)
    assert load_settings(path).new_per_day == 2


def test_save_clamps_before_writing(tmp_path):
    path = save_settings(Settings(desired_retention=5.0, new_per_day=-3), tmp_path / "config.toml")
    text = path.read_text(encoding="utf-8")
    assert "desired_retention = 0.99" in text and "new_per_day = 0" in text


def test_missing_file_gives_defaults_with_the_locale_language(tmp_path, monkeypatch):
    monkeypatch.setenv("LANG", "zh_CN.UTF-8")
    monkeypatch.delenv("LC_ALL", raising=False)
    monkeypatch.delenv("LC_MESSAGES", raising=False)
    s = load_settings(tmp_path / "absent.toml")
    assert s == Settings(lang="zh")


def test_language_in_the_file_wins_over_the_locale(tmp_path, monkeypatch):
    monkeypatch.setenv("LANG", "zh_CN.UTF-8")
    path = tmp_path / "config.toml"
    path.write_text('lang = "en"\n', encoding="utf-8")
    assert load_settings(path).lang == "en"


def test_broken_file_gives_defaults_and_a_log_line(tmp_path, caplog):
    path = tmp_path / "config.toml"
    path.write_text("new_per_day = = 3\n", encoding="utf-8")
    with caplog.at_level(logging.WARNING, logger="quiz.config"):
        s = load_settings(path)
    assert s.new_per_day == 20
    [message] = [r.getMessage() for r in caplog.records]
    assert message.startswith(f"config {path}: cannot read {path} (")
    assert message.endswith("); using the defaults")
    assert "line 1" in message
    assert s.problems == [message.removeprefix(f"config {path}: ")]


def test_non_utf8_file_gives_defaults(tmp_path):
    path = tmp_path / "config.toml"
    path.write_bytes(b'editor = "\xff\xfe"\n')
    assert load_settings(path).editor == ""


def test_unknown_and_mistyped_keys_are_ignored_and_named(caplog):
    with caplog.at_level(logging.WARNING, logger="quiz.config"):
        s = Settings.from_dict({"colour": "red", "new_per_day": "ten", "reviews_per_day": 50, "interleave_modules": 1})
    assert s.new_per_day == 20 and s.reviews_per_day == 50 and s.interleave_modules is False
    assert s.problems == [
        "unknown setting 'colour' ignored",
        "'new_per_day' should be a whole number, not 'ten'; using 20",
        "'interleave_modules' should be true or false, not 1; using False",
    ]
    assert caplog.records == []  # from_dict only collects; loading the file logs


def test_a_bad_value_in_the_file_is_warned_once_per_process(tmp_path, caplog):
    path = tmp_path / "config.toml"
    path.write_text('colour = "red"\nnew_per_day = "ten"\nreviews_per_day = 50\n', encoding="utf-8")
    with caplog.at_level(logging.WARNING, logger="quiz.config"):
        first = load_settings(path)
        second = load_settings(path)
    assert first == second and first.new_per_day == 20 and first.reviews_per_day == 50
    assert (
        second.problems
        == first.problems
        == [
            "unknown setting 'colour' ignored",
            "'new_per_day' should be a whole number, not 'ten'; using 20",
        ]
    )
    assert [r.getMessage() for r in caplog.records] == [
        f"config {path}: unknown setting 'colour' ignored",
        f"config {path}: 'new_per_day' should be a whole number, not 'ten'; using 20",
    ]


def test_an_int_is_taken_for_a_float_but_a_bool_is_not():
    assert Settings.from_dict({"desired_retention": 0}).desired_retention == 0.7
    s = Settings.from_dict({"desired_retention": 1})
    assert s.desired_retention == 0.99 and isinstance(s.desired_retention, float)
    assert Settings.from_dict({"desired_retention": True}).desired_retention == 0.9
    assert Settings.from_dict({"new_per_day": True}).new_per_day == 20


@pytest.mark.parametrize(
    ("given", "expected"),
    [
        ({"lang": "fr"}, {"lang": "en"}),
        ({"lang": "zh"}, {"lang": "zh"}),
        ({"desired_retention": 0.5}, {"desired_retention": 0.7}),
        ({"desired_retention": 0.7}, {"desired_retention": 0.7}),
        ({"desired_retention": 0.99}, {"desired_retention": 0.99}),
        ({"desired_retention": 0.995}, {"desired_retention": 0.99}),
        ({"new_per_day": -1}, {"new_per_day": 0}),
        ({"new_per_day": 0}, {"new_per_day": 0}),
        ({"reviews_per_day": -5}, {"reviews_per_day": 0}),
        ({"reviews_per_day": 1}, {"reviews_per_day": 1}),
        ({"day_start_hour": -1}, {"day_start_hour": 0}),
        ({"day_start_hour": 0}, {"day_start_hour": 0}),
        ({"day_start_hour": 23}, {"day_start_hour": 23}),
        ({"day_start_hour": 24}, {"day_start_hour": 23}),
    ],
)
def test_out_of_range_values_are_clamped(given, expected):
    s = Settings.from_dict(given)
    assert {k: getattr(s, k) for k in expected} == expected


def test_to_dict_has_every_field():
    d = Settings(keys={"a": "b"}).to_dict()
    assert d["keys"] == {"a": "b"} and set(d) == {
        "lang",
        "desired_retention",
        "new_per_day",
        "reviews_per_day",
        "day_start_hour",
        "interleave_modules",
        "bury_siblings",
        "editor",
        "theme",
        "keys",
        "fsrs_parameters",
    }
    assert "problems" not in d  # what was wrong in the file is not saved back


@pytest.mark.parametrize(
    ("env", "expected"),
    [
        ({"LC_ALL": "zh_TW.UTF-8", "LC_MESSAGES": "en_US", "LANG": "en_US"}, "zh"),
        ({"LC_ALL": "", "LC_MESSAGES": "zh_CN", "LANG": "en_US"}, "zh"),
        ({"LC_ALL": "", "LC_MESSAGES": "", "LANG": "ZH_cn"}, "zh"),
        ({"LC_ALL": "C", "LC_MESSAGES": "zh_CN", "LANG": "zh_CN"}, "en"),
        ({"LC_ALL": "", "LC_MESSAGES": "", "LANG": "de_DE.UTF-8"}, "en"),
    ],
)
def test_default_lang_follows_the_first_set_locale_variable(monkeypatch, env, expected):
    for key, value in env.items():
        monkeypatch.setenv(key, value)
    assert default_lang() == expected


def test_default_lang_falls_back_to_the_process_locale(monkeypatch):
    for key in ("LC_ALL", "LC_MESSAGES", "LANG"):
        monkeypatch.delenv(key, raising=False)
    monkeypatch.setattr("locale.getlocale", lambda: ("zh_CN", "UTF-8"))
    assert default_lang() == "zh"
    monkeypatch.setattr("locale.getlocale", lambda: (None, None))
    assert default_lang() == "en"

    def bad():
        raise ValueError("unknown locale")

    monkeypatch.setattr("locale.getlocale", bad)
    assert default_lang() == "en"
