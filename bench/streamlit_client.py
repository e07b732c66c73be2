"""A minimal Streamlit websocket client: the same reruns a browser asks for, without a browser.

A browser tab talks to the server over one websocket: it sends a `BackMsg` asking to rerun the
script with the current widget values, and receives `ForwardMsg`s (elements, then
`script_finished`). This client sends those same messages, so the server does exactly the work a
real user causes, while 30 of them fit on a 2-core machine next to the server (30 Chromium tabs
would take the CPU the server needs and measure the browsers instead).

Widgets are addressed by the `key` the app gives them: their ids end in ``-<key>``.
"""

import asyncio
import json
import time
from dataclasses import dataclass, field

import websockets
from streamlit.proto.BackMsg_pb2 import BackMsg
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg
from streamlit.proto.WidgetStates_pb2 import WidgetState

FINISHED = ForwardMsg.ScriptFinishedStatus
RERUN_TIMEOUT_S = 120


@dataclass
class Widget:
    """What the client learned about one widget from the last run."""

    id: str
    kind: str
    label: str
    options: list[str]
    fragment_id: str = ""  # set when the widget lives in an `st.fragment`
    disabled: bool = False
    maximum: float | None = None  # a slider's upper end


@dataclass
class RunResult:
    """One rerun as the user experiences it: from the request to the script's last finish."""

    seconds: float
    errors: list[str] = field(default_factory=list)
    alerts: list[str] = field(default_factory=list)
    metrics: dict[str, str] = field(default_factory=dict)
    progress: list[str] = field(default_factory=list)
    pace_ms: int | None = None  # the server's pace for live boxes, if the run said it


class Session:
    """One browser tab's worth of conversation with the server."""

    def __init__(self, base_url: str) -> None:
        self.base_url = base_url.rstrip("/")
        self.widgets: dict[str, Widget] = {}
        self.states: dict[str, WidgetState] = {}
        self.pages: dict[str, str] = {}  # url path ("" for the default page) -> script hash
        self.page = ""
        self.timers: dict[str, float] = {}  # fragment id -> seconds, from `run_every` fragments
        self.pace_s = 0.0  # the least time between two sends of a live box, as the server asks
        self._fragment = ""  # the fragment of the widget changed since the last rerun
        self._ws: websockets.ClientConnection | None = None

    async def __aenter__(self) -> "Session":
        ws_url = self.base_url.replace("http", "ws", 1) + "/_stcore/stream"
        self._ws = await websockets.connect(
            ws_url, subprotocols=["streamlit"], origin=self.base_url, max_size=None
        )
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self._ws.close()

    # ---- widget values, as the frontend would send them -----------------------------------

    def key_of(self, key: str) -> Widget:
        """The widget whose app key is `key`; KeyError names the keys seen on this page."""
        for name, widget in self.widgets.items():
            if name == key:
                return widget
        raise KeyError(f"no widget with key {key!r} on page {self.page!r}: {sorted(self.widgets)}")

    def _state(self, key: str) -> WidgetState:
        widget = self.key_of(key)
        self._fragment = widget.fragment_id  # the browser reruns only that fragment
        state = WidgetState(id=widget.id)
        self.states[widget.id] = state
        return state

    def set_text(self, key: str, text: str) -> None:
        """A Custom Components v2 box reporting its value (our live textarea)."""
        self._state(key).json_value = json.dumps({"value": text})

    def choose(self, key: str, option_index: int) -> None:
        """A selectbox choice, sent as its displayed option."""
        widget = self.key_of(key)
        self._state(key).string_value = widget.options[option_index % len(widget.options)]

    def set_number(self, key: str, value: float) -> None:
        """A number input."""
        self._state(key).double_value = value

    def slide(self, key: str, value: float) -> None:
        """A single-value slider."""
        self._state(key).double_array_value.data[:] = [value]

    def set_bool(self, key: str, value: bool) -> None:
        """A checkbox or toggle."""
        self._state(key).bool_value = value

    def click(self, key: str) -> None:
        """A button press: a trigger sent with one rerun only."""
        self._state(key).trigger_value = True

    # ---- reruns ------------------------------------------------------------------------------

    async def tick(self, fragment_id: str) -> RunResult:
        """What the browser does when a `run_every` fragment's timer fires."""
        self._fragment = fragment_id
        return await self.rerun(auto=True)

    async def rerun(
        self, page: str | None = None, query: str = "", auto: bool = False
    ) -> RunResult:
        """Ask for a rerun (on `page`, a url path, if given) and wait until it has settled."""
        if page is not None and page != self.page:
            if self.pages and page not in self.pages:
                raise KeyError(f"the app has no page {page!r}: {sorted(self.pages)}")
            self.page = page
            self.widgets.clear()
            self.states.clear()
        msg = BackMsg()
        client = msg.rerun_script
        client.query_string = query
        client.page_script_hash = self.pages.get(self.page, "")
        client.fragment_id, self._fragment = self._fragment, ""
        client.is_auto_rerun = auto
        client.widget_states.widgets.extend(self.states.values())
        # Triggers fire once, as a button click does.
        for widget_id in [w for w, s in self.states.items() if s.HasField("trigger_value")]:
            del self.states[widget_id]
        start = time.perf_counter()
        await self._ws.send(msg.SerializeToString())
        result = RunResult(0.0)
        await asyncio.wait_for(self._until_settled(result), RERUN_TIMEOUT_S)
        result.seconds = time.perf_counter() - start
        if result.pace_ms is not None:
            self.pace_s = result.pace_ms / 1000
        return result

    async def _until_settled(self, result: RunResult) -> None:
        """Read messages until a run finishes without asking for another one.

        A full run replaces what the client knows of the page (widgets, fragment timers); a
        fragment run only adds to it, as in the browser.
        """
        seen: dict[str, Widget] = {}
        timers: dict[str, float] = {}
        while True:
            fwd = ForwardMsg()
            fwd.ParseFromString(await self._ws.recv())
            kind = fwd.WhichOneof("type")
            if kind == "new_session":
                self._learn_pages(fwd.new_session.app_pages)
            elif kind == "navigation":
                self._learn_pages(fwd.navigation.app_pages)
            elif kind == "delta" and fwd.delta.WhichOneof("type") == "new_element":
                self._learn_element(fwd.delta.new_element, fwd.delta.fragment_id, result, seen)
            elif kind == "auto_rerun":
                timers[fwd.auto_rerun.fragment_id] = fwd.auto_rerun.interval
            elif kind == "script_finished":
                status = fwd.script_finished
                if status == FINISHED.FINISHED_WITH_COMPILE_ERROR:
                    result.errors.append("compile error")
                if status == FINISHED.FINISHED_EARLY_FOR_RERUN:
                    seen, timers = {}, {}
                    continue
                if status == FINISHED.FINISHED_FRAGMENT_RUN_SUCCESSFULLY:
                    self.widgets.update(seen)
                    self.timers.update(timers)
                else:
                    self.widgets, self.timers = seen, timers
                return

    def _learn_pages(self, pages: object) -> None:
        for page in pages:
            self.pages[page.url_pathname] = page.page_script_hash

    def _learn_element(
        self, element: object, fragment_id: str, result: RunResult, seen: dict[str, Widget]
    ) -> None:
        kind = element.WhichOneof("type")
        inner = getattr(element, kind)
        if kind == "exception":
            result.errors.append(f"{inner.type}: {inner.message}")
            return
        if kind == "alert":
            result.alerts.append(element.alert.body)
        if kind == "metric":
            result.metrics[element.metric.label] = element.metric.body
        if kind == "progress":
            result.progress.append(element.progress.text)
        if kind == "bidi_component" and inner.WhichOneof("data") == "json":
            said = json.loads(inner.json)
            if isinstance(said, dict) and "pace_ms" in said:  # a live box or its pace signal
                result.pace_ms = int(said["pace_ms"])
        widget_id = getattr(inner, "id", "")
        if widget_id.startswith("$$ID-"):
            key = widget_id.split("-", 2)[2] if widget_id.count("-") >= 2 else widget_id
            options = list(getattr(inner, "options", []))
            if options and not isinstance(options[0], str):
                options = [getattr(o, "content", str(o)) for o in options]
            label = getattr(inner, "label", "")
            disabled = bool(getattr(inner, "disabled", False))
            maximum = inner.max if kind == "slider" else None
            seen[key] = Widget(widget_id, kind, label, options, fragment_id, disabled, maximum)
