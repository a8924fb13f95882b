# expect: pass
# hint: 
import torch
import torch.nn.functional as F

CLASS_WEIGHTS = [1.0, 2.0, 1.0]


def make_train_step(weights):
    cpu_weights = torch.tensor(weights)  # 3 floats; copied to the device per step

    def train_step(net, X, y, opt, device):
        X_dev, y_dev = X.to(device), y.to(device)
        w_dev = cpu_weights.to(device)

        def closure():
            opt.zero_grad()
            loss = F.cross_entropy(net(X_dev), y_dev, weight=w_dev)
            loss.backward()
            return loss

        loss = opt.step(closure)  # SGD calls the closure once and returns its loss
        return loss.detach()

    return train_step


answer = make_train_step(CLASS_WEIGHTS)
