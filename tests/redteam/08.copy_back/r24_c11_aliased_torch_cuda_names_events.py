# expect: pass names imported from torch.cuda under aliases (at call time); every cross-stream order made with torch.cuda.Event objects (ev.record(stream), ev.wait(stream)) instead of wait_stream; host waits with Event.synchronize one batch late; record_stream on x and y
# hint: 
# name: pipelined_to_host
import torch


def pipelined_to_host(batches, compute, device, buffers, consume):
    from torch.cuda import Event as Ev
    from torch.cuda import Stream as Lane
    from torch.cuda import current_stream as lane_now
    from torch.cuda import stream as on_lane

    work, inbound, outbound = lane_now(device), Lane(device), Lane(device)

    def bring(b):
        with on_lane(inbound):
            x = b.to(device, non_blocking=True)
        arrived = Ev()
        arrived.record(inbound)
        return x, arrived

    back_events = {}
    coming = bring(batches[0]) if batches else None
    for i in range(len(batches)):
        x, arrived = coming
        if i + 1 < len(batches):
            coming = bring(batches[i + 1])
        arrived.wait(work)
        x.record_stream(work)
        y = compute(x)
        done = Ev()
        done.record(work)  # after compute i
        done.wait(outbound)
        with on_lane(outbound):
            y.record_stream(outbound)
            buffers[i % 2].copy_(y, non_blocking=True)  # its last result, i - 2, was consumed
        back_events[i] = Ev()
        back_events[i].record(outbound)
        if i:  # compute i is queued: now the host may wait for result i - 1
            back_events.pop(i - 1).synchronize()
            consume(i - 1, buffers[(i - 1) % 2])
    if batches:
        last = len(batches) - 1
        back_events.pop(last).synchronize()
        consume(last, buffers[last % 2])
