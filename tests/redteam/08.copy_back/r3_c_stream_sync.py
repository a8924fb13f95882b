# expect: pass other style: the host syncs the whole copy-back stream (Stream.synchronize) before it queues the next copy back, i.e. after compute i is queued but before copy back i is: the sync covers copies back up to i - 1 only, never the newest compute.
# hint:
# name: pipelined_to_host

import torch


def pipelined_to_host(batches, compute, device, buffers, consume):
    main = torch.cuda.current_stream(device)
    s_in, s_out = torch.cuda.Stream(device), torch.cuda.Stream(device)
    n = len(batches)
    with torch.cuda.stream(s_in):
        xs = {0: (batches[0].to(device, non_blocking=True), s_in.record_event())}
    last = None  # index of the result whose copy back is queued but not consumed
    for i in range(n):
        if i + 1 < n:
            with torch.cuda.stream(s_in):
                xs[i + 1] = (batches[i + 1].to(device, non_blocking=True), s_in.record_event())
        x, ev = xs.pop(i)
        main.wait_event(ev)
        x.record_stream(main)
        y = compute(x)
        if last is not None:
            s_out.synchronize()
            consume(last, buffers[last % 2])
        s_out.wait_stream(main)
        with torch.cuda.stream(s_out):
            y.record_stream(s_out)
            buffers[i % 2].copy_(y, non_blocking=True)
        last = i
    s_out.synchronize()
    consume(last, buffers[last % 2])
