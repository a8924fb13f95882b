# expect: pass every batch's copy to the device queued up front with copy_ into torch.empty_like tensors made on the copy stream (record_stream for them); each device result kept referenced until the host has synchronized with its copy back, instead of record_stream; consume one batch late
# hint: 
import torch


def answer(batches, compute, device, buffers, consume):
    compute_stream = torch.cuda.current_stream(device)
    uploads, downloads = torch.cuda.Stream(device), torch.cuda.Stream(device)

    staged = []
    with torch.cuda.stream(uploads):
        for b in batches:
            x = torch.empty_like(b, device=device)
            x.copy_(b, non_blocking=True)
            staged.append((x, uploads.record_event()))

    waiting = None  # (index, buffer, device result kept alive, event after its copy back)
    for i, (x, landed) in enumerate(staged):
        staged[i] = None  # our own list: the batch's last reference is x now
        compute_stream.wait_event(landed)
        x.record_stream(compute_stream)
        y = compute(x)
        if waiting is not None:
            j, buffer, _, arrived = waiting
            arrived.synchronize()  # after this, no stream reads that result any more
            consume(j, buffer)
        downloads.wait_stream(compute_stream)
        buffer = buffers[i % 2]
        with torch.cuda.stream(downloads):
            buffer.copy_(y, non_blocking=True)
            waiting = (i, buffer, y, downloads.record_event())
        del x, y
    j, buffer, _, arrived = waiting
    arrived.synchronize()
    consume(j, buffer)
