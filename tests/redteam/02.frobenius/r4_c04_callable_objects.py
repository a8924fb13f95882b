# expect: pass
# hint: 
import torch
class NormLogger:
    def __init__(self, per_step):
        self.per_step = per_step
    def __call__(self, A, steps):
        X = torch.eye(A.shape[0], dtype=A.dtype, device=A.device)
        host, device_log = [], []
        for _ in range(steps):
            X = A @ X
            norm = torch.linalg.matrix_norm(X)
            if self.per_step:
                host.append(norm.item())
            else:
                device_log.append(norm)
            X = X / norm
        if self.per_step:
            return host
        return torch.stack(device_log).tolist()
answer = (NormLogger(True), NormLogger(False))
