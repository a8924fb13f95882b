"""What differs between the torch versions the course supports (2.11 and newer).

A lesson cell calls one of these functions instead of branching on torch's version
itself, so the lesson reads the same on every torch. Each docstring says what each torch
version does. Nothing here makes a CUDA call at import.
"""

from __future__ import annotations

__all__: list[str] = []
