# expect: fail one behind in the loop (Event.synchronize), and after the loop one torch.cuda.synchronize() with no device before the last consume: that waits for the current GPU (cuda:0), not for the device given, so in the run given cuda:1 the last copy back may not have landed (relabelled wrong once the simulated GPU followed which GPU a call names)
# hint: torch\.cuda\.synchronize\(\)|current GPU|synchronize\(device\)|cuda:1
# name: pipelined_to_host

import torch


def pipelined_to_host(batches, compute, device, buffers, consume):
    cs = torch.cuda.current_stream(device)
    s_in, s_out = torch.cuda.Stream(device), torch.cuda.Stream(device)
    with torch.cuda.stream(s_in):
        nxt = batches[0].to(device, non_blocking=True)
    nxt_ev = s_in.record_event()
    prev = None
    for i in range(len(batches)):
        x, ev = nxt, nxt_ev
        if i + 1 < len(batches):
            with torch.cuda.stream(s_in):
                nxt = batches[i + 1].to(device, non_blocking=True)
            nxt_ev = s_in.record_event()
        cs.wait_event(ev)
        x.record_stream(cs)
        y = compute(x)
        s_out.wait_stream(cs)
        with torch.cuda.stream(s_out):
            y.record_stream(s_out)
            buffers[i % 2].copy_(y, non_blocking=True)
        done = s_out.record_event()
        if prev is not None:
            prev[1].synchronize()
            consume(prev[0], buffers[prev[0] % 2])
        prev = (i, done)
    torch.cuda.synchronize()
    consume(prev[0], buffers[prev[0] % 2])
