"""Updating config.toml in place with tomlkit: comments, order and keys the app does not know are kept."""

from __future__ import annotations


def updated_toml(old: str, values: dict) -> str:
    """`old` with `values` set; a value equal to what the file already says is left as written.

    Raises ValueError when `old` is not valid TOML (the caller keeps it aside before writing anew).
    """
    import tomlkit

    try:
        doc = tomlkit.parse(old) if old.strip() else tomlkit.document()
    except tomlkit.exceptions.TOMLKitError as exc:
        raise ValueError(str(exc)) from exc
    for key, value in values.items():
        if isinstance(value, dict):
            _update_table(doc, key, value)
        elif _plain(doc.get(key)) != value or type(_plain(doc.get(key))) is not type(value):
            doc[key] = value
    return tomlkit.dumps(doc)


def _update_table(doc, key: str, value: dict) -> None:
    import tomlkit

    current = doc.get(key)
    if not isinstance(current, dict):
        if not value and current is None:
            return
        table = tomlkit.table()
        for k, v in value.items():
            table[k] = v
        doc[key] = table
        return
    for k, v in value.items():
        if _plain(current.get(k)) != v:
            current[k] = v
    for k in [k for k in current if k not in value and _valid_entry(current.get(k))]:
        del current[k]  # removed from the settings; entries the app could not read are left for the user


def _valid_entry(item) -> bool:
    return isinstance(_plain(item), str)


def _plain(item):
    unwrap = getattr(item, "unwrap", None)
    return unwrap() if unwrap is not None else item
