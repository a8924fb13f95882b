# expect: fail the at-end version copies each norm to the host with .to("cpu", non_blocking=True) as it is logged: the log is not on the device, one transfer per step, read before the copies are waited for
# hint: non.?blocking|to\(.?.?cpu|on the host|host (copy|copies|memory)|keep.*(on|in) (the )?device|transfer(s|red)? (each|every|per)|per.step (copy|transfer)|each step|every step|hazard
# Wrong: "non_blocking, so the loop does not wait": but the log lives on the host, there is a
# device-to-host copy per step, and on a GPU stack() may read pinned buffers before they land.
import torch


def log_norms_per_step(A, steps):
    X = torch.eye(A.shape[0], dtype=A.dtype, device=A.device)
    out = []
    for _ in range(steps):
        X = A @ X
        norm = torch.linalg.matrix_norm(X)
        out.append(norm.item())
        X = X / norm
    return out


def log_norms_at_end(A, steps):
    X = torch.eye(A.shape[0], dtype=A.dtype, device=A.device)
    log = []
    for _ in range(steps):
        X = A @ X
        norm = torch.linalg.matrix_norm(X)
        log.append(norm.to("cpu", non_blocking=True))  # no wait here
        X = X / norm
    return torch.stack(log).tolist()


answer = (log_norms_per_step, log_norms_at_end)
