# expect: pass
# hint:
import torch


class NormLogger:
    """Runs X = A @ X / ||.||_F for `steps` steps; `per_step` picks when the norms reach the host."""

    def __init__(self, per_step):
        self.per_step = per_step

    def __call__(self, A, steps):
        X = torch.eye(A.shape[-1], dtype=A.dtype, device=A.device)
        host, device_log = [], A.new_empty(steps)
        for i in range(steps):
            X = torch.matmul(A, X)
            norm = torch.linalg.norm(X, "fro")
            if self.per_step:
                host.append(norm.item())
            else:
                device_log[i] = norm
            X = torch.div(X, norm)
        return host if self.per_step else device_log.tolist()


log_norms_per_step = NormLogger(per_step=True)
log_norms_at_end = NormLogger(per_step=False)
answer = (log_norms_per_step, log_norms_at_end)
