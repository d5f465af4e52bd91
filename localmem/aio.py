"""``AsyncMemoryStore``: the store for asyncio code, never blocking the event loop.

Every public method of :class:`~localmem.store.MemoryStore` has a coroutine twin
here with the same name, signature, docstring and result; it runs the store's
method in the store's own worker thread (one per store, first in first out), so
the loop goes on while SQLite, the tokenizer or the local model work::

    async with AsyncMemoryStore("chat.db") as store:
        session = await store.create_session(model="llama3.2")
        await store.add_message(session.id, "user", "Hello")
        context = await store.build_context(session.id)

The twins are made from ``MemoryStore``'s public methods when this module is
imported (:func:`public_methods`), so a method added to the store has its twin
at once; ``tests/test_aio.py`` checks the two stay equal. Two differences, by
design: ``export_sessions`` returns the list of lines (the sync one is a lazy
iterator that would read the file in the loop as it is consumed), and
``close`` is the twin's own (it also stops the worker).

Why one thread per store rather than ``asyncio.to_thread``'s shared pool: the
store serialises its calls on a lock anyway, so more threads only wait on it;
one worker keeps calls in the order they were made and never takes the loop's
default pool from the host (``benchmarks/aio.py`` measures both). Callbacks a
method takes (``on_progress``) run in that worker thread.

A task cancelled while its call runs stops waiting; the call itself finishes
(a write is one transaction: it is done whole or not at all).
"""

from __future__ import annotations

import asyncio
import functools
import inspect
from collections.abc import Callable, Coroutine
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any, TypeVar

from .errors import Closed, LocalMemError
from .store import MemoryStore

T = TypeVar("T")

OWN = frozenset({"close"})
"""Public methods of ``MemoryStore`` the async store defines itself."""
MATERIALIZED: dict[str, Callable[[Any], Any]] = {"export_sessions": list}
"""Methods returning a lazy iterator: the twin returns it read to the end, in the worker."""
PROPERTIES = ("path", "config", "tokenizer", "tokenizer_name", "ollama_backend")
"""The open store's attributes the async store shows as they are (no I/O)."""


def public_methods(cls: type = MemoryStore) -> dict[str, Callable[..., Any]]:
    """The public methods of ``cls`` that get a coroutine twin, by name."""
    return {
        name: func
        for name, func in inspect.getmembers(cls, inspect.isfunction)
        if not name.startswith("_") and name not in OWN
    }


def doc(name: str, cls: type = MemoryStore) -> str:
    """The docstring of ``cls.<name>``: the first along the class's MRO (an override
    that only routes a call, such as incognito's, may have none)."""
    for klass in cls.__mro__:
        found = vars(klass).get(name)
        if found is not None and found.__doc__:
            return inspect.cleandoc(found.__doc__)
    return ""


class AsyncMemoryStore:
    """:class:`~localmem.store.MemoryStore` for asyncio: the same constructor
    arguments, ``async with``, each public method a coroutine (see the module).

    The file is opened in the worker thread as soon as the object is made;
    ``async with`` (or the first call) waits for that, and raises what opening
    raised (:class:`~localmem.errors.WrongKey`, ...). :meth:`of` wraps a store
    that is already open (an adapter's shared store).
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self._worker = ThreadPoolExecutor(max_workers=1, thread_name_prefix="localmem-aio")
        self._opening: Future[MemoryStore] = self._worker.submit(MemoryStore, *args, **kwargs)
        self._owns_store = True
        self._closed = False

    __init__.__signature__ = inspect.signature(MemoryStore.__init__)  # type: ignore[attr-defined]

    @classmethod
    def of(cls, store: MemoryStore) -> AsyncMemoryStore:
        """The async door to ``store``, open already; :meth:`close` leaves it open."""
        if not isinstance(store, MemoryStore):
            raise LocalMemError(f"AsyncMemoryStore.of needs a MemoryStore, not {type(store).__name__}")
        door = cls.__new__(cls)
        door._worker = ThreadPoolExecutor(max_workers=1, thread_name_prefix="localmem-aio")
        door._opening = Future()
        door._opening.set_result(store)
        door._owns_store = False
        door._closed = False
        return door

    @property
    def store(self) -> MemoryStore:
        """The synchronous store underneath, once open (await the async store first)."""
        if not self._opening.done():
            raise LocalMemError("the store is still opening: use `async with` or await a call first")
        return self._opening.result()

    async def run(self, func: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        """``func(*args, **kwargs)`` in this store's worker thread, after the calls
        made before it: several store calls that belong together, off the loop."""
        if self._closed:
            raise Closed(f"{self!r} is closed")
        loop = asyncio.get_running_loop()
        try:
            work = loop.run_in_executor(self._worker, functools.partial(func, *args, **kwargs))
        except RuntimeError:  # the worker was shut down meanwhile
            raise Closed(f"{self!r} is closed") from None
        return await work

    async def _call(self, name: str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
        def call() -> Any:
            result = getattr(self._opening.result(), name)(*args, **kwargs)
            finish = MATERIALIZED.get(name)
            return finish(result) if finish is not None else result

        return await self.run(call)

    async def close(self) -> None:
        """Close the store (as :meth:`MemoryStore.close <localmem.store.MemoryStore.close>`,
        unless it came from :meth:`of`) and stop the worker. Idempotent."""
        if self._closed:
            return
        if self._owns_store:
            def close() -> None:
                if self._opening.exception() is None:
                    self._opening.result().close()

            await self.run(close)
        self._closed = True
        self._worker.shutdown(wait=False)

    def shutdown(self) -> None:
        """Stop the worker once the calls already made have run, leaving the store
        open: how synchronous code lets go of a door from :meth:`of`. Idempotent."""
        self._closed = True
        self._worker.shutdown(wait=False)

    async def __aenter__(self) -> AsyncMemoryStore:
        await asyncio.wrap_future(self._opening)
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    def __repr__(self) -> str:
        where = self.store.path if self._opening.done() and not self._opening.exception() else "..."
        return f"AsyncMemoryStore({str(where)!r})"


def _twin(name: str, func: Callable[..., Any]) -> Callable[..., Coroutine[Any, Any, Any]]:
    """The coroutine twin of ``MemoryStore.<name>``: its name, docstring and signature."""

    async def method(self: AsyncMemoryStore, *args: Any, **kwargs: Any) -> Any:
        return await self._call(name, args, kwargs)

    functools.update_wrapper(method, func)
    method.__qualname__ = f"AsyncMemoryStore.{name}"
    method.__doc__ = doc(name)
    if name in MATERIALIZED:
        signature = inspect.signature(func)
        method.__signature__ = signature.replace(return_annotation="list[str]")  # type: ignore[attr-defined]
        method.__doc__ = f"{method.__doc__}\n\nAsync: the lines as a list, read in the worker."
    return method


def _attribute(name: str) -> property:
    return property(lambda self: getattr(self.store, name), doc=f"The open store's ``{name}``.")


for _name, _func in public_methods().items():
    setattr(AsyncMemoryStore, _name, _twin(_name, _func))
for _name in PROPERTIES:
    setattr(AsyncMemoryStore, _name, _attribute(_name))
