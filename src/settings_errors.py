"""Settings that cannot be used, told in one line naming the setting (CLI exit 78)."""

from __future__ import annotations

import tomllib
from collections.abc import Collection, Mapping

from pydantic import ValidationError
from pydantic_settings import SettingsError

from memlane.domain.errors import ConfigurationError, InvalidTuning

ENV_PREFIX = "MEMLANE_"
NESTING = "__"


def env_name(location: tuple[str | int, ...]) -> str:
    return ENV_PREFIX + NESTING.join(str(part) for part in location).upper()


def unknown_sections(sections: Collection[str], environ: Mapping[str, str]) -> None:
    """A MEMLANE_<SECTION>__<KEY> variable naming no section would be ignored in silence
    (pydantic only reports unknown keys of known sections): refuse it instead. Variables
    without `__` (MEMLANE_CONFIG, a client's MEMLANE_URL) are not settings and pass."""
    for name in sorted(environ):
        if not name.startswith(ENV_PREFIX) or NESTING not in name:
            continue
        section = name[len(ENV_PREFIX):].split(NESTING, 1)[0].lower()
        if section not in sections:
            raise ConfigurationError(
                f"unknown setting {name}: there is no [{section}] section "
                f"(sections: {', '.join(sorted(sections))})"
            )


def describe(exc: Exception) -> ConfigurationError:
    """One line for what pydantic, pydantic-settings or the TOML parser refused. Values are
    never quoted: a setting may hold a password (database.url)."""
    if isinstance(exc, ValidationError):
        errors = exc.errors(include_url=False, include_input=False)
        first = errors[0]
        location = tuple(first["loc"])
        dotted = ".".join(str(part) for part in location)
        more = f" (and {len(errors) - 1} more)" if len(errors) > 1 else ""
        if first["type"] == "extra_forbidden":
            return ConfigurationError(
                f"unknown setting {dotted} (in the config file, or {env_name(location)}){more}"
            )
        refused = first.get("ctx", {}).get("error")
        if isinstance(refused, InvalidTuning):  # a rule of the domain, about one setting
            named = f"{dotted}.{refused.setting}"
            return ConfigurationError(f"setting {named}: {refused.problem}{more}")
        if isinstance(refused, ValueError):  # a rule about the section: its own words
            return ConfigurationError(f"setting {dotted}: {refused}{more}")
        return ConfigurationError(f"setting {dotted}: {first['msg']}{more}")
    if isinstance(exc, tomllib.TOMLDecodeError):
        return ConfigurationError(f"the config file is not valid TOML: {exc}")
    if isinstance(exc, SettingsError):
        return ConfigurationError(f"{exc} (a {ENV_PREFIX}* variable holds a malformed value)")
    return ConfigurationError(str(exc))
