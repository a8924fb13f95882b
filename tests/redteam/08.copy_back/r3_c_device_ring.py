# expect: pass other style: the device side uses a ring of two preallocated device input tensors filled with copy_(non_blocking=True) (the copy into a slot waits, on the GPU, for the compute that last read it), and no record_stream for them (they live for the whole call); results are kept referenced until their copy back is known to be done.
# hint:
# name: pipelined_to_host

import torch


def pipelined_to_host(batches, compute, device, buffers, consume):
    cs = torch.cuda.current_stream(device)
    s_in, s_out = torch.cuda.Stream(device), torch.cuda.Stream(device)
    with torch.cuda.stream(s_in):
        slots = [torch.empty_like(batches[0], device=device) for _ in range(2)]
    read_done = [None, None]  # event after the compute that last read each slot
    n = len(batches)

    def load(k):
        with torch.cuda.stream(s_in):
            if read_done[k % 2] is not None:
                s_in.wait_event(read_done[k % 2])
            slots[k % 2].copy_(batches[k], non_blocking=True)
            return s_in.record_event()

    ev_in = load(0)
    prev = None  # (j, landed event, y kept alive)
    for i in range(n):
        ev = ev_in
        if i + 1 < n:
            ev_in = load(i + 1)
        cs.wait_event(ev)
        y = compute(slots[i % 2])
        read_done[i % 2] = cs.record_event()
        s_out.wait_event(read_done[i % 2])
        with torch.cuda.stream(s_out):
            buffers[i % 2].copy_(y, non_blocking=True)
            landed = s_out.record_event()
        if prev is not None:
            prev[1].synchronize()
            consume(prev[0], buffers[prev[0] % 2])
        prev = (i, landed, y)
    prev[1].synchronize()
    consume(prev[0], buffers[prev[0] % 2])
    cs.wait_stream(s_in)  # the slots were made on s_in: keep their memory ordered
