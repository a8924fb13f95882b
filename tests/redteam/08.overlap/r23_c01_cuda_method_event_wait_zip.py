# expect: pass copies with batch.cuda(device, non_blocking=True) inside a side-stream block, an Event recorded with ev.record() as the block's current stream, Event.wait(stream) for the GPU-side wait, a zip over (this, next) without indices
# hint:
import torch


def answer(batches, compute, device):
    """[compute(b on device) for b in batches], copying batch i + 1 during compute i."""
    main = torch.cuda.current_stream(device)
    side = torch.cuda.Stream(device)

    def upload(b):
        ev = torch.cuda.Event()
        with torch.cuda.stream(side):
            t = b.cuda(device, non_blocking=True)
            ev.record()  # on `side`, the current stream inside the block
        return t, ev

    out = []
    pending = upload(batches[0])
    for nxt in [*batches[1:], None]:
        t, ev = pending
        pending = upload(nxt) if nxt is not None else None
        ev.wait(main)  # main waits on the GPU, the host goes on
        t.record_stream(main)
        out.append(compute(t))
    return out
