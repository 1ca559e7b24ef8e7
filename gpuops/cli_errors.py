"""Every failure of a ``gpuops`` command as one line with what to do about it; the traceback only with ``--debug``.

Commands that know what went wrong say it themselves and exit; anything else that escapes a command lands here and
is named by its kind (the gpuops error tree, a database, AWS or settings problem, a file or the network), with the
fix a person would try first. The mapping reads exception classes by module name, so the CLI imports neither
SQLAlchemy nor boto3 to describe an error neither raised.
"""

from __future__ import annotations

from typing import Any

import typer
from typer.core import TyperGroup
from typer.exceptions import TyperException

DEBUG_HINT = "run again with --debug for the traceback"


def one_line(exc: BaseException) -> str:
    """``exc`` in one line: what happened, then what to do (``; `` between them)."""
    text = _described(exc)
    return " ".join(text.split())  # a message with newlines in it would be several lines again


def _described(exc: BaseException) -> str:
    from policy.errors import GpuopsError, PolicyFileError

    if isinstance(exc, PolicyFileError):
        first = exc.errors[0] if exc.errors else ("", exc.message)
        more = f" (and {len(exc.errors) - 1} more)" if len(exc.errors) > 1 else ""
        return f"{exc.source}: {first[0]}: {first[1]}{more}; `gpuops policy check {exc.source}` lists them all"
    if isinstance(exc, GpuopsError):
        return f"{exc.message} [{exc.code}]"
    kind = _kinds(exc)
    if "pydantic_core._pydantic_core.ValidationError" in kind:
        return f"a setting is not valid: {_first_validation_error(exc)}; fix it in the environment (GPUOPS_…)"
    if kind & {"sqlalchemy.exc.OperationalError", "sqlalchemy.exc.ProgrammingError"}:
        return _database(exc)
    if "sqlalchemy.exc.ArgumentError" in kind:
        return f"DATABASE_URL is not a database URL ({_short(exc)}); e.g. postgresql+psycopg://user@host/db"
    if "botocore.exceptions.NoCredentialsError" in kind:
        return "no AWS credentials found; set AWS_PROFILE or the AWS_ACCESS_KEY_ID/AWS_SECRET_ACCESS_KEY pair"
    if "botocore.exceptions.ClientError" in kind:
        return f"AWS refused: {_short(exc)}; `gpuops doctor` checks the identity and its permissions"
    if "botocore.exceptions.EndpointConnectionError" in kind or "httpx.ConnectError" in kind:
        return f"cannot connect: {_short(exc)}; check the URL settings and that the other end is running"
    if isinstance(exc, FileNotFoundError):
        return f"no such file: {exc.filename}; check the path (or the setting that names it)"
    if isinstance(exc, PermissionError):
        return f"not allowed to read or write {exc.filename}; check its owner and mode"
    if isinstance(exc, OSError):
        return f"{exc.strerror or _short(exc)}{f': {exc.filename}' if exc.filename else ''}"
    return f"unexpected {type(exc).__name__}: {_short(exc)}; {DEBUG_HINT}"


def _kinds(exc: BaseException) -> set[str]:
    return {f"{cls.__module__}.{cls.__qualname__}" for cls in type(exc).__mro__}


def _short(exc: BaseException, limit: int = 200) -> str:
    text = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _first_validation_error(exc: Any) -> str:
    errors = exc.errors()
    if not errors:
        return _short(exc)
    first = errors[0]
    where = ".".join(str(part) for part in first.get("loc", ())) or exc.title
    return f"{where}: {first.get('msg', 'invalid')}"


def _database(exc: BaseException) -> str:
    text = str(getattr(exc, "orig", exc))
    if "no such table" in text or ("relation" in text and "does not exist" in text):
        return "the database has no gpuops tables yet; run `gpuops db upgrade`"
    return f"the database is not answering ({_short(Exception(text))}); check DATABASE_URL and that it is running"


class OneLineErrorsGroup(TyperGroup):
    """The command group that turns an escaping exception into one line on stderr and exit status 1."""

    def invoke(self, ctx: Any) -> Any:
        try:
            return super().invoke(ctx)
        except (typer.Exit, typer.Abort):  # a command's own exit: it has said what it had to
            raise
        except TyperException as exc:  # a usage error (unknown command, missing option): one line, not a box
            if ctx.params.get("debug") or not hasattr(exc, "format_message"):
                raise
            failed_in = getattr(exc, "ctx", None) or ctx  # the subcommand whose usage it was
            where = failed_in.command_path
            typer.echo(f"{where}: {exc.format_message().rstrip('.')}; `{where} --help` lists what it takes", err=True)
            raise typer.Exit(getattr(exc, "exit_code", 2)) from None
        except Exception as exc:  # every failure a person meets: one line unless they asked for the traceback
            if ctx.params.get("debug"):
                raise
            name = ctx.invoked_subcommand or ctx.info_name or "gpuops"
            typer.echo(f"gpuops {name}: {one_line(exc)}", err=True)
            raise typer.Exit(1) from None
