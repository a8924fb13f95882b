# expect: pass orders the compute after its copy with wait_stream (queued before the next copy), and the host asks back_stream.query(), syncing that stream only if not done (it holds only copy back i - 1), before consuming
# hint: 
import torch


def answer(batches, compute, device, buffers, consume):
    """consume(i, a buffer holding compute(batch i)) for each batch in order; copies to the
    device, computes and copies back to the host overlap."""
    compute_stream = torch.cuda.current_stream(device)
    copy_stream = torch.cuda.Stream(device)
    back_stream = torch.cuda.Stream(device)

    with torch.cuda.stream(copy_stream):
        x_next = batches[0].to(device, non_blocking=True)
    for i, _ in enumerate(batches):
        x = x_next
        compute_stream.wait_stream(copy_stream)  # copy i only: copy i + 1 is not queued yet
        if i + 1 < len(batches):
            with torch.cuda.stream(copy_stream):
                x_next = batches[i + 1].to(device, non_blocking=True)
        x.record_stream(compute_stream)
        y = compute(x)
        if i > 0:
            # back_stream holds copy back i - 1 (which waited for compute i - 1), not compute i
            if not back_stream.query():
                back_stream.synchronize()
            consume(i - 1, buffers[(i - 1) % 2])
        back_stream.wait_stream(compute_stream)
        with torch.cuda.stream(back_stream):
            y.record_stream(back_stream)
            buffers[i % 2].copy_(y, non_blocking=True)
    back_stream.synchronize()  # no batches remain
    consume(len(batches) - 1, buffers[(len(batches) - 1) % 2])
