"""A small POSIX-style shell, enough for what ADB clients send.

Supported: single and double quotes, backslash escapes, ``$?``/``$NAME``/
``${NAME}`` expansion, ``;``, newlines, ``&&``, ``||``, pipes ``|``, comments,
and redirections ``> f``, ``>> f``, ``< f``, ``2>/dev/null``, ``2>&1``, ``&> f``.
Commands are looked up in :data:`commands.COMMANDS`; unknown ones fail like
Android's mksh (``/system/bin/sh: foo: inaccessible or not found``, exit 127).
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .phone import SimPhone

ENV = {
    "PATH": "/product/bin:/apex/com.android.runtime/bin:/system/bin:/system/xbin:/odm/bin",
    "EXTERNAL_STORAGE": "/sdcard", "ANDROID_DATA": "/data", "ANDROID_ROOT": "/system",
    "HOME": "/", "USER": "shell", "HOSTNAME": "localhost", "TMPDIR": "/data/local/tmp",
    "SHELL": "/system/bin/sh",
}
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


class ShellSyntaxError(Exception):
    """The command line could not be parsed."""


class ShellExit(Exception):
    """``exit N``: stop the whole command line."""

    def __init__(self, code: int):
        super().__init__(code)
        self.code = code


@dataclass
class Output:
    """What a command line produced: ordered (fd, bytes) chunks and the exit code."""

    chunks: list[tuple[int, bytes]] = field(default_factory=list)
    code: int = 0

    def write(self, fd: int, data: bytes) -> None:
        """Append output on fd 1 (stdout) or 2 (stderr)."""
        if data:
            self.chunks.append((fd, data))

    @property
    def stdout(self) -> bytes:
        """Everything written to stdout."""
        return b"".join(d for fd, d in self.chunks if fd == 1)

    @property
    def merged(self) -> bytes:
        """stdout and stderr interleaved, as a pty-less shell v1 delivers them."""
        return b"".join(d for _, d in self.chunks)


@dataclass
class Ctx:
    """What a command sees: the phone, stdin, and writers for stdout/stderr."""

    phone: SimPhone
    stdin: bytes
    _out: list
    _err: list

    def out(self, data: str | bytes) -> None:
        """Write to stdout."""
        self._out[0](data.encode() if isinstance(data, str) else data)

    def err(self, data: str | bytes) -> None:
        """Write to stderr."""
        self._err[0](data.encode() if isinstance(data, str) else data)


# -- tokenizer ------------------------------------------------------------------------

def _var(s: str, i: int) -> tuple[tuple[str, str], int]:
    """Parse an expansion at s[i] == '$'; return (part, next index)."""
    if i + 1 < len(s) and s[i + 1] in "?$#":
        return ("var", s[i + 1]), i + 2
    if s.startswith("${", i):
        j = s.find("}", i)
        if j < 0:
            raise ShellSyntaxError("${: bad substitution")
        return ("var", s[i + 2:j]), j + 1
    m = _NAME.match(s, i + 1)
    if m:
        return ("var", m.group()), m.end()
    return ("q", "$"), i + 1


def tokenize(s: str) -> list[tuple]:
    """Split into ('word', parts) / ('op', op) / ('redir', fd, op) tokens."""
    tokens: list[tuple] = []
    parts: list[tuple[str, str]] | None = None
    i, n = 0, len(s)

    def flush() -> None:
        nonlocal parts
        if parts is not None:
            tokens.append(("word", parts))
            parts = None

    while i < n:
        c = s[i]
        if c in " \t\r":
            flush()
            i += 1
        elif c in ";\n":
            flush()
            tokens.append(("op", ";"))
            i += 1
        elif c in "&|":
            two = s[i:i + 2]
            flush()
            if two in ("&&", "||"):
                tokens.append(("op", two))
                i += 2
            elif two == "&>":
                tokens.append(("redir", 3, ">"))
                i += 2
            else:
                # A lone '&' (background) runs synchronously here: treat as ';'.
                tokens.append(("op", "|" if c == "|" else ";"))
                i += 1
        elif c in "<>":
            fd = 0 if c == "<" else 1
            if parts and all(k == "lit" for k, _ in parts) and "".join(v for _, v in parts).isdigit():
                fd, parts = int("".join(v for _, v in parts)), None
            flush()
            op = s[i:i + 2] if s[i:i + 2] in (">>", ">&", "<&") else c
            tokens.append(("redir", fd, op))
            i += len(op)
        elif c == "#" and parts is None:
            j = s.find("\n", i)
            i = n if j < 0 else j
        else:
            parts = [] if parts is None else parts
            if c == "'":
                j = s.find("'", i + 1)
                if j < 0:
                    raise ShellSyntaxError("unterminated '")
                parts.append(("q", s[i + 1:j]))
                i = j + 1
            elif c == '"':
                i += 1
                buf = []
                while True:
                    if i >= n:
                        raise ShellSyntaxError('unterminated "')
                    ch = s[i]
                    if ch == '"':
                        i += 1
                        break
                    if ch == "\\" and i + 1 < n and s[i + 1] in '$`"\\\n':
                        buf.append(s[i + 1] if s[i + 1] != "\n" else "")
                        i += 2
                    elif ch == "$":
                        parts.append(("q", "".join(buf)))
                        buf = []
                        part, i = _var(s, i)
                        parts.append(part)
                    else:
                        buf.append(ch)
                        i += 1
                parts.append(("q", "".join(buf)))
            elif c == "\\":
                if i + 1 < n and s[i + 1] != "\n":
                    parts.append(("q", s[i + 1]))
                i += 2
            elif c == "$":
                part, i = _var(s, i)
                parts.append(part)
            else:
                parts.append(("lit", c))
                i += 1
    flush()
    return tokens


def parse(s: str) -> list[tuple[str, list[tuple[list, list]]]]:
    """Parse into [(connector, pipeline)], pipeline = [(words, redirections)]."""
    result: list = []
    connector = ";"
    pipeline: list[tuple[list, list]] = []
    words: list = []
    redirs: list = []
    tokens = tokenize(s)
    i = 0
    while i < len(tokens):
        tok = tokens[i]
        if tok[0] == "word":
            words.append(tok[1])
        elif tok[0] == "redir":
            if i + 1 >= len(tokens) or tokens[i + 1][0] != "word":
                raise ShellSyntaxError("unexpected redirection")
            redirs.append((tok[1], tok[2], tokens[i + 1][1]))
            i += 1
        else:
            op = tok[1]
            if not words and not redirs:
                if op == ";" and not pipeline:
                    i += 1
                    continue
                raise ShellSyntaxError(f"unexpected '{op}'")
            pipeline.append((words, redirs))
            words, redirs = [], []
            if op != "|":
                result.append((connector, pipeline))
                connector, pipeline = op, []
        i += 1
    if words or redirs:
        pipeline.append((words, redirs))
    elif pipeline or connector in ("&&", "||"):
        raise ShellSyntaxError("unexpected end of file")
    if pipeline:
        result.append((connector, pipeline))
    return result


# -- executor -------------------------------------------------------------------------

def _discard(data: bytes) -> None:
    """Writer for /dev/null."""


class _Shell:
    def __init__(self, phone: SimPhone, out: Output):
        self.phone = phone
        self.out = out
        self.status = 0

    def expand(self, parts: list[tuple[str, str]]) -> str | None:
        text = []
        for kind, value in parts:
            if kind == "var":
                text.append(str(self.status) if value == "?" else "0" if value == "#"
                            else ENV.get(value, ""))
            else:
                text.append(value)
        word = "".join(text)
        if not word and all(k == "var" for k, _ in parts):
            return None  # an unquoted empty expansion vanishes
        return word

    def run_line(self, line: str) -> None:
        try:
            parsed = parse(line)
        except ShellSyntaxError as exc:
            self.out.write(2, f"/system/bin/sh: syntax error: {exc}\n".encode())
            self.status = 2
            return
        try:
            for connector, pipeline in parsed:
                if (connector == "&&" and self.status != 0) or (connector == "||" and self.status == 0):
                    continue
                self.status = self.run_pipeline(pipeline)
        except ShellExit as exc:
            self.status = exc.code

    def run_pipeline(self, pipeline: list) -> int:
        data, status = b"", 0
        for idx, (words, redirs) in enumerate(pipeline):
            last = idx == len(pipeline) - 1
            buf: list[bytes] = []
            sink = (lambda d: self.out.write(1, d)) if last else buf.append
            status = self.run_simple(words, redirs, data if idx else b"", sink)
            data = b"".join(buf)
        return status

    def run_simple(self, words: list, redirs: list, stdin: bytes, sink) -> int:
        argv = [w for w in (self.expand(p) for p in words) if w is not None]
        return self.run_argv(argv, redirs, stdin, sink)

    def run_argv(self, argv: list[str], redirs: list, stdin: bytes, sink) -> int:
        from .commands import COMMANDS

        phone = self.phone
        out_w = [sink]
        err_w = [lambda d: self.out.write(2, d)]
        files: dict[str, list[bytes]] = {}
        appends: dict[str, bool] = {}
        for fd, op, target_parts in redirs:
            target = self.expand(target_parts) or ""
            if op in (">&", "<&"):
                if fd == 2 and target == "1":
                    err_w[0] = lambda d: out_w[0](d)
                elif fd == 1 and target == "2":
                    out_w[0] = err_w[0]
                continue
            if op == "<":
                content = phone.fs.read(target)
                if content is None:
                    err_w[0](f"/system/bin/sh: can't open '{target}': No such file or directory\n"
                             .encode())
                    return 1
                stdin = content
                continue
            writer: Callable[[bytes], None]
            if target == "/dev/null":
                writer = _discard
            else:
                chunks = files.setdefault(target, [])
                appends[target] = op == ">>"
                writer = chunks.append
            if fd in (1, 3):
                out_w[0] = writer
            if fd in (2, 3):
                err_w[0] = writer
        if not argv:
            status = 0
        else:
            name, args = argv[0].rsplit("/", 1)[-1], argv[1:]
            fn = COMMANDS.get(name)
            if name == "exit":
                raise ShellExit(int(args[0]) & 0xFF if args and args[0].isdigit() else self.status)
            if fn is None:
                err_w[0](f"/system/bin/sh: {argv[0]}: inaccessible or not found\n".encode())
                status = 127
            else:
                if name == "screencap" and phone.faults.screencap_delay_s:
                    # Wall-clock delay is the fault; sleep without holding the phone.
                    time.sleep(phone.faults.screencap_delay_s)
                ctx = Ctx(phone, stdin, out_w, err_w)
                with phone.lock:
                    try:
                        status = fn(ctx, args)
                    except Exception as exc:  # a command bug must not kill the connection
                        ctx.err(f"{name}: {type(exc).__name__}: {exc}\n")
                        status = 1
        with phone.lock:
            for path, chunks in files.items():
                error = phone.fs.write(path, b"".join(chunks), phone.clock_ms // 1000,
                                       append=appends[path])
                if error:
                    self.out.write(2, f"/system/bin/sh: can't create {error}\n".encode())
                    status = 1
        return status


def run(phone: SimPhone, line: str) -> Output:
    """Run a command line on ``phone`` and collect its output and exit code."""
    out = Output()
    sh = _Shell(phone, out)
    version = phone.version
    sh.run_line(line)
    out.code = sh.status & 0xFF
    if phone.version != version:
        phone.prerender()
    return out


def run_argv(phone: SimPhone, argv: list[str]) -> Output:
    """Run one command from an argv list, without shell parsing (``abb_exec``)."""
    out = Output()
    sh = _Shell(phone, out)
    try:
        out.code = sh.run_argv(argv, [], b"", lambda d: out.write(1, d)) & 0xFF
    except ShellExit as exc:
        out.code = exc.code
    return out
