"""The web inspector at /ui: server-rendered pages over the same services as the REST API."""

from __future__ import annotations

from pathlib import Path

from jinja2 import Environment, PackageLoader, StrictUndefined, select_autoescape
from litestar import Router
from litestar.datastructures import CacheControlHeader, ResponseHeader
from litestar.plugins.jinja import JinjaTemplateEngine
from litestar.static_files import create_static_files_router
from litestar.template.config import TemplateConfig

from memlane.api.ui.facts_page import FactPagesController
from memlane.api.ui.memory_pages import MemoryPagesController
from memlane.api.ui.rendering import NO_STORE, SECURITY_HEADERS, UI_EXCEPTION_HANDLERS
from memlane.api.ui.session import UI_PATH
from memlane.api.ui.sign_in import SignInController
from memlane.api.ui.stats_page import StatsPageController

STATIC = Path(__file__).with_name("static")


def ui_routers() -> list[Router]:
    """The pages (no-store, HTML errors, strict security headers) and their local assets."""
    pages = Router(
        path="/",
        route_handlers=[
            SignInController, MemoryPagesController, FactPagesController, StatsPageController
        ],
        cache_control=NO_STORE,
        response_headers=[ResponseHeader(name=k, value=v) for k, v in SECURITY_HEADERS.items()],
        exception_handlers=UI_EXCEPTION_HANDLERS,
        include_in_schema=False,
    )
    assets = create_static_files_router(
        path=f"{UI_PATH}/static",
        directories=[STATIC],
        name="ui-static",
        cache_control=CacheControlHeader(max_age=3600),
        include_in_schema=False,
    )
    return [pages, assets]


def ui_template_config() -> TemplateConfig[JinjaTemplateEngine]:
    """Jinja templates shipped in the package; everything is escaped, unknown names fail."""
    environment = Environment(
        loader=PackageLoader("memlane.api.ui", "templates"),
        autoescape=select_autoescape(default=True, default_for_string=True),
        undefined=StrictUndefined,
    )
    return TemplateConfig(instance=JinjaTemplateEngine.from_environment(environment))
