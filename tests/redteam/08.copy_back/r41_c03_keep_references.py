# expect: pass no record_stream: keeps every device tensor referenced until a final event sync that covers all streams' work
# hint: 
# name: pipelined_to_host
import torch


def pipelined_to_host(batches, compute, device, buffers, consume):
    compute_stream = torch.cuda.current_stream(device)
    side = torch.cuda.Stream(device)
    back = torch.cuda.Stream(device)
    kept_in, kept_out = [], []  # references kept until all the streams' work is done

    def upload(k):
        with torch.cuda.stream(side):
            t = batches[k].to(device, non_blocking=True)
            ev = torch.cuda.Event()
            ev.record(side)
        kept_in.append(t)
        return t, ev

    nxt = upload(0)
    waiting = []
    for i in range(len(batches)):
        x, ev = nxt
        if i + 1 < len(batches):
            nxt = upload(i + 1)
        ev.wait(compute_stream)
        y = compute(x)
        kept_out.append(y)
        while waiting:
            j, buf, landed = waiting.pop(0)
            landed.synchronize()
            consume(j, buf)
        back.wait_stream(compute_stream)
        buf = buffers[i % len(buffers)]
        with torch.cuda.stream(back):
            buf.copy_(y, non_blocking=True)
            landed = torch.cuda.Event()
            landed.record()
        waiting.append((i, buf, landed))
    for j, buf, landed in waiting:
        landed.synchronize()
        consume(j, buf)
    # the last event came after the last copy-back, which waited for the last compute,
    # which waited for the last upload: everything kept is done with
    done = torch.cuda.Event()
    done.record(back)
    done.synchronize()
    kept_in.clear()
    kept_out.clear()
