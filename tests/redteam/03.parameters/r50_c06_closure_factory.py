# expect: pass closures made by a factory; model moved to the device first, checkpoint mapped straight onto that device, then copied in by load_state_dict
# hint:
import torch


def _make_functions(factor=0.5, layer=0):
    def halve_first_layer(net):
        """Halve net[0].weight in place, unrecorded by autograd."""
        with torch.no_grad():
            net[layer].weight.mul_(factor)

    def save_parameters(net, path):
        """Save net's state_dict to path."""
        torch.save(net.state_dict(), path)

    def load_parameters(make_net, path, device):
        """Return make_net() with the parameters saved at path, on device."""
        device = torch.device(device)
        net = make_net().to(device)
        state = torch.load(path, map_location=device, weights_only=True)
        net.load_state_dict(state)
        return net

    return halve_first_layer, save_parameters, load_parameters


halve_first_layer, save_parameters, load_parameters = _make_functions()

answer = (halve_first_layer, save_parameters, load_parameters)
