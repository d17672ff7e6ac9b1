"""The bridge: the PinchTab HTTP API over one browser. Routes parse and shape, nothing more."""

from __future__ import annotations

import base64
import contextlib
from collections.abc import AsyncIterator, Callable
from typing import Annotated, Any

from fastapi import Body, Depends, FastAPI, Query, Request
from starlette.responses import PlainTextResponse, Response

import pinchtab
from pinchtab.browser.actions import ActionSpec
from pinchtab.browser.browser import Browser
from pinchtab.browser.service import BrowserService
from pinchtab.config import Config
from pinchtab.models import (
    ActionRequest,
    ActionsRequest,
    CloseRequest,
    CookiesQuery,
    EvaluateRequest,
    FindRequest,
    NavigateRequest,
    PdfRequest,
    ScreenshotQuery,
    SetCookiesRequest,
    SnapshotQuery,
    TabRequest,
    TabScoped,
    TextQuery,
    WaitRequest,
)
from pinchtab.web import FastJSON, JSONBodies, TokenAuth, install_error_handlers

TAB_PATH = "/tabs/{tab_id}"
_TAB_PARAM = {"parameters": [{"name": "tab_id", "in": "path", "required": True, "schema": {"type": "string"},
                              "description": "Tab ID (from GET /tabs)"}]}


def path_tab_id(request: Request) -> str | None:
    return request.path_params.get("tab_id")


PathTab = Annotated[str | None, Depends(path_tab_id)]


def pick_tab(path_tab: str | None, model: TabScoped | None) -> str | None:
    return path_tab or (model.tab_id if model is not None else None)


def action_spec(req: ActionRequest) -> ActionSpec:
    # ActionSpec has ActionRequest's fields minus the tab (a test keeps the two in step).
    return ActionSpec(**req.model_dump(exclude={"tab_id"}))


def _binary_or_json(data: bytes, raw: bool, media_type: str, extra: dict[str, Any]) -> Response:
    if raw:
        return Response(content=data, media_type=media_type)
    return FastJSON({**extra, "base64": base64.b64encode(data).decode()})


def build_routes(app: FastAPI, service: BrowserService) -> None:
    def route(path: str, methods: list[str], *, tabbed: bool = True, **kw: Any) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
        """Register a handler at ``path`` and, for tab routes, at ``/tabs/{tab_id}<path>`` too."""

        def register(fn: Callable[..., Any]) -> Callable[..., Any]:
            app.add_api_route(path, fn, methods=methods, response_class=FastJSON, **kw)
            if tabbed:
                app.add_api_route(
                    TAB_PATH + path, fn, methods=methods, response_class=FastJSON, openapi_extra=_TAB_PARAM,
                    operation_id=f"{fn.__name__}_tab_{'_'.join(m.lower() for m in methods)}", **kw,
                )
            return fn

        return register

    @route("/health", ["GET"], tabbed=False, summary="Is the bridge and its browser up?")
    async def health() -> Response:
        body = service.health()
        return FastJSON(body, status_code=200 if body["status"] == "ok" else 503)

    @route("/tabs", ["GET"], tabbed=False, summary="List open tabs")
    async def tabs() -> Response:
        return FastJSON({"tabs": await service.tabs()})

    @route("/tab", ["POST"], tabbed=False, summary="Open, focus or close a tab")
    async def tab(req: TabRequest) -> Response:
        if req.action == "new":
            return FastJSON(await service.new_tab(req.url))
        if req.action == "focus":
            return FastJSON(await service.focus_tab(req.tab_id))
        if not req.tab_id:
            from pinchtab.errors import BadRequest

            raise BadRequest("tabId is required to close a tab", "missing_tab_id")
        return FastJSON(await service.close_tab(req.tab_id))

    @route("/close", ["POST"], summary="Close a tab (the current one without tabId)")
    async def close(path_tab: PathTab, req: Annotated[CloseRequest | None, Body()] = None) -> Response:
        return FastJSON(await service.close_tab(pick_tab(path_tab, req)))

    @route("/navigate", ["POST"], summary="Load a URL; answers once the page has loaded")
    async def navigate(path_tab: PathTab, req: NavigateRequest) -> Response:
        return FastJSON(await service.navigate(
            req.url, tab_id=pick_tab(path_tab, req), new_tab=req.new_tab, timeout=req.timeout,
            wait_for=req.wait_for, wait_selector=req.wait_selector, block_images=req.block_images,
            block_media=req.block_media,
        ))

    def history_route(path: str, delta: int) -> None:
        async def handler(path_tab: PathTab, query_tab: Annotated[str | None, Query(alias="tabId")] = None) -> Response:
            if delta == 0:
                return FastJSON(await service.reload(path_tab or query_tab))
            return FastJSON(await service.history(path_tab or query_tab, delta))

        handler.__name__ = path.strip("/")
        route(path, ["POST"], summary=f"{path.strip('/').capitalize()} in the tab's history")(handler)

    history_route("/back", -1)
    history_route("/forward", 1)
    history_route("/reload", 0)

    @route("/snapshot", ["GET"], summary="Accessibility snapshot with refs (e0, e1, ...)")
    async def snapshot(path_tab: PathTab, q: Annotated[SnapshotQuery, Query()]) -> Response:
        out = await service.snapshot(
            pick_tab(path_tab, q), interactive=q.interactive or q.filter == "interactive", fmt=q.format,
            diff=q.diff, selector=q.selector, depth=q.depth, max_tokens=q.max_tokens,
        )
        if isinstance(out, str):
            return PlainTextResponse(out)
        return FastJSON(out)

    @route("/find", ["POST"], summary="Find an element by natural-language description")
    async def find(path_tab: PathTab, req: FindRequest) -> Response:
        return FastJSON(await service.find(
            req.query, pick_tab(path_tab, req), threshold=req.threshold, top_k=req.top_k,
            lexical_weight=req.lexical_weight, embedding_weight=req.embedding_weight, explain=req.explain,
        ))

    @route("/action", ["POST"], summary="Act on an element: click, type, fill, press, ...")
    async def action(path_tab: PathTab, req: ActionRequest) -> Response:
        return FastJSON(await service.action(action_spec(req), pick_tab(path_tab, req)))

    @route("/actions", ["POST"], summary="Run several actions in order; stops at the first failure")
    async def actions(path_tab: PathTab, req: ActionsRequest) -> Response:
        return FastJSON(await service.actions([action_spec(a) for a in req.actions], pick_tab(path_tab, req)))

    @route("/text", ["GET"], summary="Readable text of the page (mode=raw: all innerText)")
    async def text(path_tab: PathTab, q: Annotated[TextQuery, Query()]) -> Response:
        return FastJSON(await service.text(pick_tab(path_tab, q), raw=q.raw or q.mode == "raw", max_chars=q.max_chars))

    @route("/screenshot", ["GET"], summary="Screenshot (png or jpeg); raw=true answers the image bytes")
    async def screenshot(path_tab: PathTab, q: Annotated[ScreenshotQuery, Query()]) -> Response:
        fmt = "jpeg" if q.quality is not None else q.format
        data = await service.screenshot(pick_tab(path_tab, q), fmt=fmt, quality=q.quality, full_page=q.full_page)
        return _binary_or_json(data, q.raw, f"image/{fmt}", {"format": fmt})

    async def _pdf(tab_id: str | None, q: PdfRequest) -> Response:
        data = await service.pdf(tab_id, landscape=q.landscape, scale=q.scale, page_ranges=q.page_ranges,
                                 print_background=q.print_background)
        return _binary_or_json(data, q.raw, "application/pdf", {})

    @route("/pdf", ["GET"], summary="The page as PDF; raw=true answers the PDF bytes")
    async def pdf_get(path_tab: PathTab, q: Annotated[PdfRequest, Query()]) -> Response:
        return await _pdf(pick_tab(path_tab, q), q)

    @route("/pdf", ["POST"], summary="The page as PDF (options in the body)")
    async def pdf_post(path_tab: PathTab, req: Annotated[PdfRequest | None, Body()] = None) -> Response:
        req = req or PdfRequest()
        return await _pdf(pick_tab(path_tab, req), req)

    @route("/evaluate", ["POST"], summary="Evaluate JavaScript (needs security.allowEvaluate)")
    async def evaluate(path_tab: PathTab, req: EvaluateRequest) -> Response:
        return FastJSON({"result": await service.evaluate(req.expression, pick_tab(path_tab, req))})

    @route("/cookies", ["GET"], summary="Cookies of the page (needs security.allowCookies)")
    async def cookies_get(path_tab: PathTab, q: Annotated[CookiesQuery, Query()]) -> Response:
        return FastJSON({"cookies": await service.cookies(pick_tab(path_tab, q), q.url)})

    @route("/cookies", ["POST"], summary="Set cookies (needs security.allowCookies)")
    async def cookies_post(path_tab: PathTab, req: SetCookiesRequest) -> Response:
        cookies = [c.model_dump(by_alias=True, exclude_none=True) for c in req.cookies]
        return FastJSON({"set": await service.set_cookies(cookies, pick_tab(path_tab, req), req.url)})

    @route("/wait", ["POST"], summary="Wait for a selector or text (timeout capped at 30 s)")
    async def wait(path_tab: PathTab, req: WaitRequest) -> Response:
        return FastJSON(await service.wait(pick_tab(path_tab, req), selector=req.selector, text=req.text, timeout_ms=req.timeout))

    @route("/browser/restart", ["POST"], tabbed=False, summary="Start a fresh Chromium (tabs are lost)")
    async def restart() -> Response:
        return FastJSON(await service.restart())


def create_app(config: Config, browser: Browser | None = None) -> FastAPI:
    """The bridge app. It starts its browser on startup and stops it on shutdown."""
    browser = browser or Browser(config)
    service = BrowserService(browser, config)

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        await browser.start()
        try:
            yield
        finally:
            await browser.stop()

    app = FastAPI(
        title="pinchtab bridge",
        version=pinchtab.__version__,
        description="Browser control for AI agents: one Chromium over CDP behind the PinchTab HTTP API.",
        lifespan=lifespan,
    )
    app.state.browser = browser
    app.state.service = service
    install_error_handlers(app)
    build_routes(app, service)
    app.add_middleware(JSONBodies)
    app.add_middleware(TokenAuth, token=config.server.token)
    return app
