"""Model files: the weights come back bit for bit, and bad files are refused by name."""

from __future__ import annotations

import json
import subprocess
import sys
import zipfile
from pathlib import Path

import numpy as np
import pytest
import torch

from checkraise.errors import CheckraiseError
from checkraise.nn.io import ModelFileError, load_into, load_model, save_model


def _net(seed: int) -> torch.nn.Module:
    torch.manual_seed(seed)
    return torch.nn.Sequential(torch.nn.Linear(3, 4), torch.nn.ReLU(), torch.nn.Linear(4, 2))


def test_round_trip_gives_the_same_outputs(tmp_path: Path) -> None:
    net = _net(1)
    path = save_model(tmp_path / "m.npz", net.state_dict(), {"sizes": [3, 4, 2]}, kind="toy",
                      command="make it", extra={"seed": 1})
    header, arrays = load_model(path, kind="toy")
    assert header["architecture"] == {"sizes": [3, 4, 2]}
    assert header["command"] == "make it" and header["seed"] == 1
    other = _net(2)
    x = torch.randn(5, 3)
    assert not torch.equal(other(x), net(x))
    load_into(other, arrays, path)
    assert torch.equal(other(x), net(x))


def test_the_file_holds_no_pickle(tmp_path: Path) -> None:
    path = save_model(tmp_path / "m.npz", _net(1).state_dict(), {}, kind="toy")
    with zipfile.ZipFile(path) as z:
        names = z.namelist()
    assert "__header__.npy" in names and "0.weight.npy" in names
    # numpy refuses object (pickled) arrays under allow_pickle=False; ours are numeric
    with np.load(path, allow_pickle=False) as z:
        assert all(z[k].dtype != object for k in z.files)


def test_damaged_wrong_kind_and_foreign_files_are_refused(tmp_path: Path) -> None:
    path = save_model(tmp_path / "m.npz", _net(1).state_dict(), {}, kind="toy")
    with pytest.raises(ModelFileError, match="'toy' model; expected 'policy'"):
        load_model(path, kind="policy")
    header, arrays = load_model(path)
    arrays["0.bias"] = arrays["0.bias"] + 1.0
    np.savez(tmp_path / "edited.npz", __header__=np.frombuffer(
        json.dumps(header).encode(), dtype=np.uint8), **arrays)
    with pytest.raises(ModelFileError, match=r"'0\.bias' does not match its checksum"):
        load_model(tmp_path / "edited.npz")
    np.savez(tmp_path / "plain.npz", a=np.zeros(3))
    with pytest.raises(ModelFileError, match="no JSON header"):
        load_model(tmp_path / "plain.npz")
    (tmp_path / "text.npz").write_text("hello")
    with pytest.raises(ModelFileError, match=r"not a readable \.npz"):
        load_model(tmp_path / "text.npz")
    with pytest.raises(FileNotFoundError):
        load_model(tmp_path / "missing.npz")
    assert issubclass(ModelFileError, CheckraiseError)


def test_weights_for_another_architecture_are_refused(tmp_path: Path) -> None:
    path = save_model(tmp_path / "m.npz", _net(1).state_dict(), {}, kind="toy")
    _, arrays = load_model(path)
    wider = torch.nn.Sequential(torch.nn.Linear(3, 5), torch.nn.ReLU(), torch.nn.Linear(5, 2))
    with pytest.raises(ModelFileError, match=r"'0.weight' has shape \(4, 3\)"):
        load_into(wider, arrays, path)
    deeper = torch.nn.Sequential(_net(1), torch.nn.Linear(2, 2))
    with pytest.raises(ModelFileError, match="weights missing"):
        load_into(deeper, arrays, path)


def test_the_package_and_the_cli_do_not_import_torch() -> None:
    code = (
        "import sys, checkraise, checkraise.nn, checkraise.cli.main\n"
        "print('torch' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True)
    assert out.stdout.strip() == "False"
