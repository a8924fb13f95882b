# expect: pass a small class whose __call__ launches both via a dict comprehension keyed by lane index, then reads them back
# hint: 
import torch


class _Concurrent:
    def __call__(self, x, y, lanes):
        pending = {k: lanes[k].submit(torch.matmul, t, t) for k, t in enumerate((x, y))}
        return pending[0].result(), pending[1].result()


_run = _Concurrent()


def run_concurrently(x, y, lanes):
    """(x @ x, y @ y), computed on lanes[0] and lanes[1] at the same time."""
    return _run(x, y, lanes)


answer = run_concurrently
