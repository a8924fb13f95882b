# expect: pass
# hint:
# Right: a callable class instance doing section 8.4's pipeline: copies on a side stream of
# `device`, an event after each copy waited on by the current stream, record_stream.
import torch


class Pipeline:
    """Copy batch i + 1 on a side stream while batch i is computed on the current stream."""

    def _send(self, batch, copy_stream, device):
        with torch.cuda.stream(copy_stream):
            x = batch.to(device, non_blocking=True)  # pinned already: returns at once
            done = torch.cuda.Event()
            done.record(copy_stream)
        return x, done

    def __call__(self, batches, compute, device):
        compute_stream = torch.cuda.current_stream(device)
        copy_stream = torch.cuda.Stream(device)
        results = []
        ahead = self._send(batches[0], copy_stream, device)
        for i in range(len(batches)):
            x, done = ahead
            if i + 1 < len(batches):
                ahead = self._send(batches[i + 1], copy_stream, device)
            done.wait(compute_stream)  # the GPU waits for copy i, the host does not
            x.record_stream(compute_stream)
            results.append(compute(x))
        return results


answer = Pipeline()
