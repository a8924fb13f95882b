"""``11.memory``'s hint for a wrong result that is a result kept between calls."""

from __future__ import annotations

from ._util import CheckFailed

__all__ = ["kept_hint"]


def kept_hint(predict, call: str, got: dict, history, args) -> None:
    """Where a wrong result is a result kept between calls: asked again, the same arguments
    give another result (a running count), or it is what a call on other shapes returned (one
    on the same shapes and other ranks may be a rank count written in, not a cache)."""
    shapes, plan, world_size = args
    again = predict([tuple(s) for s in shapes], plan, world_size)
    earlier = next((c for c, _, kept, on in history if kept == dict(got) and on != shapes), None)
    ranks = next((c for c, _, kept, on in history if kept == dict(got) and on == shapes), None)
    if ranks is not None and again == got and earlier is None:
        raise CheckFailed(
            f"{call} returned {dict(got)}, what {ranks} returned, for another number of ranks: "
            "world_size was not used, either written in or kept from that call (a cache keyed "
            "without it). Compute every call from the ranks it is given"
        )
    if again == got and earlier is None:
        return
    why = (
        f"the same call made again returned {again}"
        if again != got
        else f"what {earlier} returned, an earlier call"
    )
    raise CheckFailed(
        f"{call} returned {dict(got)}, {why}: it keeps something between calls (a cache keyed "
        "on some arguments but not all, or a count at module level that is never reset). "
        "Compute every call from the shapes, the plan and the ranks it is given"
    )
