"""A read-only mapping that pickles and deep-copies (``types.MappingProxyType`` does neither)."""
from __future__ import annotations

from typing import Any


class ReadOnlyDict(dict):
    """A dict whose mutating methods raise ``TypeError``; used for the ``scalars``, ``details``
    and ``scalar_history`` of states, so that states (and fitted estimators holding them)
    pickle, deep-copy and clone."""

    def _readonly(self, *args: Any, **kwargs: Any):
        raise TypeError("this mapping is read-only")

    __setitem__ = __delitem__ = clear = pop = popitem = setdefault = update = _readonly  # type: ignore[assignment]
    __ior__ = _readonly  # type: ignore[assignment]

    def __reduce__(self):
        return (type(self), (dict(self),))

    def __copy__(self) -> "ReadOnlyDict":
        return self

    def __deepcopy__(self, memo: dict) -> "ReadOnlyDict":
        from copy import deepcopy
        return type(self)({k: deepcopy(v, memo) for k, v in self.items()})
