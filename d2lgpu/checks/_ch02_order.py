"""The rules of checker ``02.concurrency`` on its lanes' log (:mod:`._ch02_lanes`): where each
launch came from, the order of launches, waits and host reads, that every future was waited
on, which lanes got the products, and what was copied. Each reads the log of one run and
raises :class:`CheckFailed` with the hint."""

from __future__ import annotations

from ._ch02_lanes import OFF_THREAD
from ._util import CheckFailed

__all__ = [
    "check_both_lanes",
    "check_copies",
    "check_lane_indices",
    "check_launched_from",
    "check_order",
    "check_waited",
]

# What launching both first buys, in the hint about waiting before the second launch.
_WHERE_IT_HELPS = (
    "two GPUs each do half the work (about 2x for two equal products, never measured by "
    "this course); two streams of one GPU overlap only products small enough to leave SMs "
    "idle, since a large product fills every SM (chapter 2, two products on two streams)"
)


def check_lane_indices(log: list) -> None:
    """No product on a lane after lanes[1]: given three lanes, lanes[-1] is lanes[2]."""
    beyond = [lane for event, lane, _ in log if event == "launch"]
    beyond = [lane for lane in beyond if lane not in ("lanes[0]", "lanes[1]")]
    if beyond:
        raise CheckFailed(
            f"given three lanes, a product went to {beyond[0]}, not lanes[1]: y @ y goes to "
            "lanes[1], the second lane, not to the last one (lanes[-1]) or one picked by "
            "len(lanes); x @ x goes to lanes[0]"
        )


def check_both_lanes(log: list, where: str, returned: bool) -> None:
    """One product on lanes[0] and one on lanes[1], whatever the lanes report; where the
    answer raised (``returned`` False: CUDA calls fail here), no lane given both."""
    launched = sorted(lane for event, lane, _ in log if event == "launch")
    twice = len(set(launched)) < len(launched)
    if twice or (returned and launched != ["lanes[0]", "lanes[1]"]):
        raise CheckFailed(
            f"{where}, your function launched its products on {', '.join(launched) or 'no lane'}"
            ": x @ x goes to lanes[0] and y @ y to lanes[1] whatever the lanes are. Two streams "
            "of one GPU run two products at once too, as long as each leaves SMs idle (the "
            "chapter's section on two streams); one lane runs them one after the other"
        )


def check_order(log: list, where: str = "") -> None:
    in_job = [(lane, job) for event, lane, job in log if event == "wait" and job is not None]
    if in_job:
        lane, job = in_job[0]
        if lane == "device":
            did = f"calls torch.cuda.synchronize(){where}, which waits for all the device's work"
        elif lane.startswith("a host read"):
            did = (f"makes {lane} of a tensor{where}: a host read waits for the device to "
                   "finish that work")  # fmt: skip
        else:
            raise CheckFailed(
                f"the function you submitted to {job} waits for {lane}'s .result(){where}: "
                f"{job} cannot start its product until the other lane finishes, so the two run "
                "one after the other, not at the same time. Submit the products themselves "
                "(lane.submit(torch.matmul, a, a)) and wait only in the caller, after both "
                "launches"
            )
        raise CheckFailed(
            f"the function you submitted to {job} {did}. A GPU lane (the chapter's "
            "CudaLane) calls the function in the caller's thread, so submit returns only "
            "once the product is done, and the second product is launched after it: one "
            "after the other. Submit the product alone (lane.submit(torch.matmul, a, a)); "
            "read values, if you must, after both results"
        )
    launch_at = [i for i, (event, _, _) in enumerate(log) if event == "launch"]
    if len(launch_at) < 2:
        return
    read = [how for event, how, _ in log[: launch_at[1]] if event == "read"]
    if read:
        raise CheckFailed(
            f"you read a tensor on the host ({read[0]}) before launching the second product"
            f"{where}: on a GPU a host read waits for all the work queued on the device (what "
            "made the inputs, and the first product once it is launched). Nothing here needs "
            "the values: submit both products as they are, then call .result() on both"
        )
    early = [(i, lane) for i, (event, lane, _) in enumerate(log[: launch_at[1]]) if event == "wait"]
    if early:
        i, lane = early[0]
        called = getattr(log, "called", {}).get(i, ".result()")
        what = "torch.cuda.synchronize()" if lane == "device" else f"{lane} ({called})"
        raise CheckFailed(
            f"you waited for {what} before launching the second product{where}: that runs "
            "them one after another, on two GPUs as on one. Submit both first, then call "
            f".result() on both. Launched together, {_WHERE_IT_HELPS}"
        )


def check_copies(log: list) -> None:
    copies = [(lane, how) for event, lane, how in log if event == "copy"]
    moved = [(name, how) for name, how in copies if name in ("x", "y")]
    if moved:
        name, how = moved[0]
        lane = "lanes[0]" if name == "x" else "lanes[1]"
        raise CheckFailed(
            f"you copied the input {name} with {how}: the inputs are already where their lanes "
            f"work (in the notebook with two GPUs, {name} lives on {lane}'s GPU). A copy moves "
            "the whole matrix in the caller (to the host, or to another device, where a product "
            f"would then read it). Submit {name} to {lane} as it is"
        )
    if copies:
        lane, how = copies[0]
        raise CheckFailed(
            f"you copied {lane}'s result with {how} before returning it: on a GPU that is a "
            "transfer to the host (or to another device) that waits for the product and costs "
            "as much as moving the matrix, counted in every timing. Return each future's "
            ".result() as it is, on the device where its lane computed it"
        )


def check_launched_from(log: list) -> None:
    """Every launch comes from the caller's own code: not from inside a lane's job, nor from a
    thread of the answer's own."""
    inside = [(lane, job) for event, lane, job in log if event == "launch" and job is not None]
    if not inside:
        return
    lane, job = inside[0]
    if job == OFF_THREAD:
        raise CheckFailed(
            f"{lane} was submitted to from {OFF_THREAD}, not from your function's thread: a GPU "
            "lane (the chapter's CudaLane) makes its stream wait for the current stream of the "
            "thread that calls submit, and a new thread's current stream is the default one, "
            "not the caller's, so the product may read its input before it is written. "
            "submit() already returns at once: call it for both products in your function"
        )
    raise CheckFailed(
        f"{lane} was submitted to from inside the function you submitted to {job}: that "
        f"launch happens only once {job}'s job runs (on a GPU lane, after its work is queued; "
        "on a thread lane, when its thread gets to it), so the products start one after the "
        "other. Submit both products from your function itself, then wait for both"
    )


def check_waited(log: list) -> None:
    """Each lane that got a product had its future waited on (``result()``) in the caller."""
    launched = dict.fromkeys(lane for event, lane, _ in log if event == "launch")
    waited = {lane for event, lane, job in log if event == "wait" and job is None}
    missing = [lane for lane in launched if lane not in waited]
    if missing:
        raise CheckFailed(
            f"{missing[0]}'s future was never waited on (its .result() never called) before "
            "your function returned: a GPU lane's product may still be running on the lane's "
            "stream then, and a thread lane's may not be written yet, whatever the function "
            "you submitted stores it in (.value, a dict). Call .result() on both futures, "
            "after both launches"
        )
