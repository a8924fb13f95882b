# expect: pass
# hint: 
import functools
import torch
def _run(A, steps, read_each):
    X = torch.eye(A.shape[0], dtype=A.dtype, device=A.device)
    log = []
    for _ in range(steps):
        X = torch.matmul(A, X)
        norm = torch.linalg.matrix_norm(X, ord="fro")
        log.append(norm.item() if read_each else norm)
        X = torch.div(X, norm)
    return log if read_each else torch.stack(log).cpu().tolist()
answer = (functools.partial(_run, read_each=True), functools.partial(_run, read_each=False))
