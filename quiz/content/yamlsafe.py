"""Safe YAML reading that keeps node positions, so every error can name `file:line:col`."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from quiz.content.problems import Problem, problem_at

try:  # the C parser is about ten times faster; the pure-Python one is the fallback
    from yaml import CSafeLoader as _BaseLoader
    _C_PARSER = True
except ImportError:  # pragma: no cover - depends on how PyYAML was built
    from yaml import SafeLoader as _BaseLoader
    _C_PARSER = False


MAX_INT_DIGITS = 30  # content integers are small; a huge one is a mistake (and slow to convert)
_ALLOWED_TAGS = {f"tag:yaml.org,2002:{name}" for name in ("null", "bool", "int", "float", "str", "seq", "map")}


class _Loader(_BaseLoader):
    """The safe loader, refusing aliases (a node built twice) and duplicate keys while it builds.

    Plain scalars that look like dates stay strings (no timestamp resolver), only the core tags
    (null, bool, int, float, str, seq, map) are built, and a scalar that cannot be converted is a
    problem at its own line and column rather than an exception.
    """

    yaml_implicit_resolvers = {
        first: [(tag, regexp) for tag, regexp in resolvers if tag != "tag:yaml.org,2002:timestamp"]
        for first, resolvers in _BaseLoader.yaml_implicit_resolvers.items()
    }
    yaml_constructors = {tag: fn for tag, fn in _BaseLoader.yaml_constructors.items() if tag in _ALLOWED_TAGS or tag is None}

    def construct_object(self, node, deep=False):
        if node in self.constructed_objects:
            raise yaml.constructor.ConstructorError(
                None, None, "YAML anchors and aliases (&name / *name) are not allowed in content", node.start_mark)
        self._count = getattr(self, "_count", 0) + 1
        if self._count > MAX_NODES:
            raise yaml.constructor.ConstructorError(None, None, f"document has more than {MAX_NODES} YAML nodes", node.start_mark)
        try:
            return super().construct_object(node, deep)
        except (ValueError, TypeError, OverflowError) as exc:
            raise yaml.constructor.ConstructorError(None, None, f"cannot read the value {_short(node)}: {exc}", node.start_mark) from None

    def construct_yaml_int(self, node):
        digits = sum(ch.isdigit() for ch in str(node.value))
        if digits > MAX_INT_DIGITS:
            raise yaml.constructor.ConstructorError(
                None, None, f"integer with {digits} digits; at most {MAX_INT_DIGITS} are allowed", node.start_mark)
        return super().construct_yaml_int(node)

    def construct_mapping(self, node, deep=False):
        if isinstance(node, yaml.MappingNode):
            seen = set()
            for key, _ in node.value:
                if isinstance(key, yaml.ScalarNode):
                    if key.value in seen:
                        raise yaml.constructor.ConstructorError(None, None, f"duplicate key '{key.value}'", key.start_mark)
                    seen.add(key.value)
        return super().construct_mapping(node, deep)


_Loader.yaml_constructors["tag:yaml.org,2002:int"] = _Loader.construct_yaml_int


def _short(node: Any) -> str:
    value = node.value if isinstance(node, yaml.ScalarNode) else node.tag
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


MAX_FILE_BYTES = 1_000_000
MAX_NODES = 200_000


class YamlDoc:
    """A parsed document: the plain data plus the node tree for locating keys."""

    def __init__(self, path: Path, data: Any, root: yaml.Node | None):
        self.path = path
        self.data = data
        self.root = root

    def mark(self, loc: tuple) -> Any:
        """The start mark of the deepest node reached by following `loc` (keys and indices)."""
        node = self.root
        best = node.start_mark if node is not None else None
        for part in loc:
            child = _child(node, part)
            if child is None:
                break
            node, best = child, child.start_mark
        return best

    def node(self, loc: tuple) -> Any:
        """The node at `loc`, or None when the path does not lead to one."""
        node = self.root
        for part in loc:
            node = _child(node, part)
            if node is None:
                return None
        return node

    def key_mark(self, loc: tuple) -> Any:
        """The mark of the key named by the last part of `loc` (for unknown keys)."""
        parent = self.root
        for part in loc[:-1]:
            parent = _child(parent, part)
            if parent is None:
                return self.mark(loc)
        if isinstance(parent, yaml.MappingNode):
            for key, _ in parent.value:
                if isinstance(key, yaml.ScalarNode) and key.value == str(loc[-1]):
                    return key.start_mark
        return self.mark(loc)

    def problem(self, loc: tuple, message: str, severity: str = "error", key: bool = False) -> Problem:
        mark = self.key_mark(loc) if key else self.mark(loc)
        return problem_at(self.path, mark, message, severity)


def _child(node: Any, part: Any) -> Any:
    if isinstance(node, yaml.MappingNode):
        for key, value in node.value:
            if isinstance(key, yaml.ScalarNode) and key.value == str(part):
                return value
        return None
    if isinstance(node, yaml.SequenceNode) and isinstance(part, int):
        return node.value[part] if 0 <= part < len(node.value) else None
    return None


def read_yaml(path: Path) -> tuple[YamlDoc | None, list[Problem]]:
    """Read one YAML file; never raises for bad content, returns the problems instead.

    Only a regular file is read (a FIFO or a link to a device is refused without blocking).
    """
    from quiz.content.readfile import RefusedFile, read_regular

    try:
        raw = read_regular(path, MAX_FILE_BYTES)
    except RefusedFile as exc:
        return None, [Problem(str(path), 1, 1, str(exc))]
    return parse_yaml(path, raw)


def parse_yaml(path: Path, raw: bytes) -> tuple[YamlDoc | None, list[Problem]]:
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        before = raw[: exc.start]
        line = before.count(b"\n") + 1
        col = exc.start - (before.rfind(b"\n") + 1) + 1
        return None, [Problem(str(path), line, col, f"not valid UTF-8 (byte 0x{raw[exc.start]:02x}); save the file as UTF-8")]
    if text.startswith("\ufeff"):
        text = text[1:]
    if not text.strip():
        return None, [Problem(str(path), 1, 1, "file is empty")]
    loader = _Loader(text)
    try:
        root = loader.get_single_node()
        if root is None:
            return None, [Problem(str(path), 1, 1, "file holds no YAML document")]
        data = loader.construct_document(root)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        detail = exc.problem or exc.context or "invalid YAML"
        if isinstance(exc, yaml.constructor.ConstructorError):
            if "constructor for the tag" in detail:
                detail = f"unsupported YAML: {detail} (content allows plain YAML only)"
            return None, [problem_at(path, mark, detail)]
        if _tab_at(text, mark) or "tab" in detail.lower():
            detail += " (indent with spaces; YAML does not allow tabs here)"
        return None, [problem_at(path, mark, f"YAML syntax: {detail}")]
    except yaml.reader.ReaderError as exc:
        return None, [_reader_problem(path, text, exc)]
    except yaml.YAMLError as exc:
        return None, [Problem(str(path), 1, 1, f"YAML: {exc}")]
    except RecursionError:
        return None, [Problem(str(path), 1, 1, "YAML nesting is too deep")]
    finally:
        loader.dispose()
    found = control_problems(path, root)
    if found:
        return None, found
    return YamlDoc(path, data, root), []


def _reader_problem(path: Path, text: str, exc: Any) -> Problem:
    """A character the YAML reader refuses (NUL, ESC, ...), at its own line and column."""
    # the C parser counts UTF-8 bytes, the Python one counts characters
    data: Any = text.encode("utf-8") if _C_PARSER else text
    nl = b"\n" if _C_PARSER else "\n"
    pos = exc.position if isinstance(exc.position, int) and 0 <= exc.position <= len(data) else 0
    line = data.count(nl, 0, pos) + 1
    col = len(data[data.rfind(nl, 0, pos) + 1: pos].decode("utf-8", "replace") if _C_PARSER
              else data[data.rfind(nl, 0, pos) + 1: pos]) + 1
    return Problem(str(path), line, col, f"control character {_codepoint(exc.character)} is not allowed; "
                                         "only newline and tab may appear in content")


def _codepoint(ch: Any) -> str:
    code = ch if isinstance(ch, int) else ord(ch) if isinstance(ch, str) and len(ch) == 1 else None
    return f"U+{code:04X}" if code is not None else "?"


MAX_CONTROL_PROBLEMS = 20


def control_problems(path: Path, root: Any) -> list[Problem]:
    """Control characters other than newline and tab in any key or value (written as escapes like "\\e")."""
    found: list[Problem] = []
    stack = [root]
    while stack and len(found) < MAX_CONTROL_PROBLEMS:
        node = stack.pop()
        if isinstance(node, yaml.ScalarNode):
            bad = find_control(node.value)
            if bad is not None:
                found.append(problem_at(path, node.start_mark, f"control character {_codepoint(bad)} is not allowed; "
                                                               "only newline and tab may appear in content"))
        elif isinstance(node, yaml.SequenceNode):
            stack.extend(reversed(node.value))
        elif isinstance(node, yaml.MappingNode):
            for key, value in reversed(node.value):
                stack.extend((value, key))
    found.sort(key=lambda p: (p.line, p.col))
    return found


def find_control(value: str) -> str | None:
    """The first control character (C0, DEL or C1) other than newline and tab, or None."""
    from quiz.textsafe import CONTROL

    match = CONTROL.search(value)
    return match.group() if match else None


def _tab_at(text: str, mark: Any) -> bool:
    if mark is None:
        return False
    lines = text.splitlines()
    return 0 <= mark.line < len(lines) and "\t" in lines[mark.line][: mark.column + 1]
