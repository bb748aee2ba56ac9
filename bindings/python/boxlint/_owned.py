"""Owned C objects (Config, NetworkPolicy): deterministic, thread-safe release."""
from __future__ import annotations

import threading
from typing import Any, Callable, Optional

from ._errors import ClosedError


class _Owned:
    """A C object freed by ``close()``, a ``with`` block, or (as a fallback) the garbage
    collector. Calls in flight keep it alive: the last one frees it after a concurrent close."""

    _ptr: Optional[int] = None
    _closed = True

    def _own(self, ptr: int, free: Callable[[int], None]) -> None:
        self._lock = threading.Lock()
        self._uses = 0
        self._free = free
        self._ptr = ptr
        self._closed = False

    @property
    def closed(self) -> bool:
        return self._closed

    def _acquire(self) -> int:
        lock = getattr(self, "_lock", None)
        if lock is None:
            raise ClosedError(f"{type(self).__name__} is closed")
        with lock:
            if self._closed or not self._ptr:
                raise ClosedError(f"{type(self).__name__} is closed")
            self._uses += 1
            return self._ptr

    def _release(self) -> None:
        with self._lock:
            self._uses -= 1
            if not (self._closed and self._uses == 0 and self._ptr):
                return
            ptr, self._ptr = self._ptr, None
        self._free(ptr)

    class _Use:
        __slots__ = ("owner", "ptr")

        def __init__(self, owner: "_Owned"):
            self.owner = owner
            self.ptr = 0

        def __enter__(self) -> int:
            self.ptr = self.owner._acquire()
            return self.ptr

        def __exit__(self, *exc: Any) -> None:
            self.owner._release()

    def _use(self) -> "_Owned._Use":
        return _Owned._Use(self)

    def close(self) -> None:
        """Free the C object now. Idempotent; later use raises :class:`ClosedError`."""
        lock = getattr(self, "_lock", None)
        if lock is None:
            return
        with lock:
            if self._closed:
                return
            self._closed = True
            if self._uses or not self._ptr:
                return
            ptr, self._ptr = self._ptr, None
        self._free(ptr)

    def __enter__(self):
        self._acquire()
        self._release()
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def __del__(self) -> None:
        try:
            self.close()
        except Exception:  # interpreter shutdown: nothing sensible left to do
            pass
