# expect: pass a prefetching generator, wait_stream, references kept then copy stream waits
# hint: 
import torch


def answer(batches, compute, device):
    """[compute(b on device) for b in batches], copying batch i + 1 during compute i."""
    compute_stream = torch.cuda.current_stream(device)
    copy_stream = torch.cuda.Stream(device)
    kept = []  # every device batch, alive until the computes that read it are queued before a wait

    def copied_ahead():
        nxt = None
        for b in batches:
            with torch.cuda.stream(copy_stream):
                x = b.to(device, non_blocking=True)
                done = copy_stream.record_event()
            kept.append(x)
            if nxt is not None:
                yield nxt
            nxt = (x, done)
        yield nxt

    results = []
    for x, done in copied_ahead():  # when x arrives here, the next batch's copy is queued
        done.wait(compute_stream)  # the GPU waits; the host goes on
        results.append(compute(x))
    copy_stream.wait_stream(compute_stream)  # memory of kept is reused on copy_stream only after
    kept.clear()
    return results
