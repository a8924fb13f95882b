# expect: pass every batch's copy queued before the first compute (allowed: further ahead overlaps too), one event per batch, an event per buffer
# hint:
import torch


def pipelined_to_host(batches, compute, device, buffers, consume):
    compute_stream = torch.cuda.current_stream(device)
    h2d, d2h = torch.cuda.Stream(device), torch.cuda.Stream(device)
    arrivals = []
    with torch.cuda.stream(h2d):
        for b in batches:
            arrivals.append((b.to(device, non_blocking=True), h2d.record_event()))
    slot_ready = [None, None]  # per buffer: (index, event after the copy into it)

    def hand_over(slot):
        index, event = slot_ready[slot]
        event.synchronize()
        consume(index, buffers[slot])
        slot_ready[slot] = None

    for i, (x, arrived) in enumerate(arrivals):
        compute_stream.wait_event(arrived)
        x.record_stream(compute_stream)
        y = compute(x)
        arrivals[i] = None  # drop our reference; record_stream guards the memory
        slot = i % 2
        if slot_ready[1 - slot] is not None:  # result i - 1, while compute i is queued
            hand_over(1 - slot)
        d2h.wait_event(compute_stream.record_event())
        with torch.cuda.stream(d2h):
            y.record_stream(d2h)
            buffers[slot].copy_(y, non_blocking=True)
            slot_ready[slot] = (i, d2h.record_event())
    hand_over((len(batches) - 1) % 2)


answer = pipelined_to_host
