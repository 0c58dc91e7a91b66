#!/usr/bin/python3
"""Writes the tensor-file fixtures of tests/io and tests/cli, and expected.json
with what PyTorch itself says each file holds (dtype, shape, raw bytes), so
the C++ tests compare against PyTorch, never against irscope.

Run with Debian's python3 (torch 1.13):  /usr/bin/python3 make_tensor_fixtures.py
Deterministic: re-running rewrites identical tensors (fixed seeds).
"""
import collections
import json
import os
import pickle
import struct
import sys

import numpy as np
import torch
import torch.nn as nn

HERE = os.path.dirname(os.path.abspath(__file__))
# Where the malicious pickles would create a file if anything executed them.
PWNED = "/tmp/irscope-pwned-marker"

expected = {}


def raw_hex(t):
    t = t.detach().contiguous()
    if t.dtype == torch.bfloat16:
        return t.view(torch.int16).numpy().tobytes().hex()
    return t.numpy().tobytes().hex()


def dtype_name(dt):
    return {
        torch.float32: "float32", torch.float64: "float64", torch.float16: "float16",
        torch.bfloat16: "bfloat16", torch.int8: "int8", torch.int16: "int16",
        torch.int32: "int32", torch.int64: "int64", torch.uint8: "uint8", torch.bool: "bool",
        torch.complex64: "complex64", torch.complex128: "complex128",
    }[dt]


def record(filename, tensors, shares=()):
    expected[filename] = {
        "tensors": collections.OrderedDict(
            (name, {"dtype": dtype_name(t.dtype), "shape": list(t.shape), "hex": raw_hex(t)})
            for name, t in tensors.items()),
        "shares": [list(s) for s in shares],
        # What `irscope tensors` must print: min/max/mean of floating tensors, by PyTorch in float64.
        "stats": collections.OrderedDict(
            (name, [t.double().min().item(), t.double().max().item(), t.double().mean().item()])
            for name, t in tensors.items() if t.is_floating_point() and t.numel() > 0 and not t.isnan().any()),
    }


def flatten(obj, prefix=""):
    out = collections.OrderedDict()
    if isinstance(obj, torch.Tensor):
        out[prefix] = obj
    elif isinstance(obj, dict):
        for k, v in obj.items():
            out.update(flatten(v, f"{prefix}.{k}" if prefix else str(k)))
    elif isinstance(obj, (list, tuple)):
        for i, v in enumerate(obj):
            out.update(flatten(v, f"{prefix}.{i}" if prefix else str(i)))
    return out


def save(obj, filename, legacy=False, shares=()):
    path = os.path.join(HERE, filename)
    torch.save(obj, path, _use_new_zipfile_serialization=not legacy)
    # What PyTorch reads back is the truth the C++ test compares with.
    back = torch.load(path)
    record(filename, flatten(back), shares)


class Mlp(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(4, 8)
        self.bn = nn.BatchNorm1d(8)
        self.fc2 = nn.Linear(8, 3)

    def forward(self, x):
        return self.fc2(torch.relu(self.bn(self.fc1(x))))


class ConvNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(3, 4, 3, padding=1)
        self.bn = nn.BatchNorm2d(4)
        self.head = nn.Linear(4, 2, bias=False)


class TiedLm(nn.Module):
    def __init__(self):
        super().__init__()
        self.embed = nn.Embedding(6, 4)
        self.decoder = nn.Linear(4, 6, bias=False)
        self.decoder.weight = self.embed.weight   # tied weights


def all_dtypes():
    g = torch.Generator().manual_seed(1)
    base = torch.randn(2, 3, generator=g) * 100
    d = collections.OrderedDict()
    d["f32"] = base.clone()
    d["f64"] = base.double() / 7
    d["f16"] = (base / 10).half()
    d["bf16"] = (base / 10).bfloat16()
    d["i8"] = base.clamp(-128, 127).to(torch.int8)
    d["i16"] = (base * 50).to(torch.int16)
    d["i32"] = (base * 1e6).to(torch.int32)
    d["i64"] = (base.double() * 1e12).to(torch.int64)
    d["u8"] = base.abs().clamp(0, 255).to(torch.uint8)
    d["bool"] = base > 0
    d["c64"] = torch.complex(base, -base)
    d["c128"] = torch.complex(base.double(), base.double() / 3)
    d["scalar"] = torch.tensor(3.5)
    d["empty"] = torch.zeros(0, 4)
    d["special"] = torch.tensor([float("nan"), float("inf"), -float("inf"), -0.0, 1e-45])
    return d


def write_safetensors(filename, entries, metadata=None):
    """The format by hand (the Python safetensors package is not installed
    here): entries = [(name, dtype string, shape, raw bytes)]."""
    header = collections.OrderedDict()
    if metadata:
        header["__metadata__"] = metadata
    offset = 0
    for name, dtype, shape, data in entries:
        header[name] = {"dtype": dtype, "shape": list(shape), "data_offsets": [offset, offset + len(data)]}
        offset += len(data)
    text = json.dumps(header, separators=(",", ":")).encode()
    text += b" " * ((8 - len(text) % 8) % 8)
    with open(os.path.join(HERE, filename), "wb") as f:
        f.write(struct.pack("<Q", len(text)))
        f.write(text)
        for _, _, _, data in entries:
            f.write(data)


class Evil:
    """Unpickling calls fn(*args): what a hostile file does."""
    def __init__(self, fn, args):
        self.fn, self.args = fn, args

    def __reduce__(self):
        return (self.fn, self.args)


class EvilNewObj:
    def __reduce__(self):
        import copyreg
        return (copyreg.__newobj__, (EvilNewObj,))


def write_zip_pickle(filename, payload_bytes):
    """A torch.save zip whose data.pkl is payload_bytes."""
    from torch.serialization import _open_zipfile_writer
    path = os.path.join(HERE, filename)
    with _open_zipfile_writer(path) as zf:
        zf.write_record("data.pkl", payload_bytes, len(payload_bytes))


class StorageRef:
    """Pickled as a persistent id with whatever fields a test needs."""
    def __init__(self, *fields):
        self.fields = fields


class Rebuild:
    def __init__(self, *args):
        self.args = args

    def __reduce__(self):
        return (torch._utils._rebuild_tensor_v2, self.args)


class TorchLikePickler(pickle.Pickler):
    def persistent_id(self, obj):
        return ("storage",) + obj.fields if isinstance(obj, StorageRef) else None


def torch_like_pickle(obj):
    import io
    buf = io.BytesIO()
    TorchLikePickler(buf, protocol=2).dump(obj)
    return buf.getvalue()


def write_zip_records(filename, records):
    from torch.serialization import _open_zipfile_writer
    with _open_zipfile_writer(os.path.join(HERE, filename)) as zf:
        for name, data in records:
            zf.write_record(name, data, len(data))


def write_torch2_style():
    """What PyTorch 2.x writes and 1.13 cannot: _rebuild_tensor_v3 over an
    UntypedStorage (numel counts bytes), a uint16 tensor, a Parameter through
    _rebuild_from_type_v2/_rebuild_parameter_with_state, and 2.x's extra records.
    The pickle is spelled out opcode by opcode (torch 1.13 lacks these globals)."""
    def s(text):
        b = text.encode()
        return b"X" + struct.pack("<I", len(b)) + b
    def i(v):
        return b"J" + struct.pack("<i", v)
    def tup(*items):
        return b"(" + b"".join(items) + b"t"
    od = b"ccollections\nOrderedDict\n)R"
    def pid(cls, key, numel):
        return tup(s("storage"), b"ctorch\n" + cls.encode() + b"\n", s(key), s("cpu"), i(numel)) + b"Q"
    def v3(key, numel_bytes, shape, dtype):
        stride = [1] * len(shape)
        for k in range(len(shape) - 2, -1, -1):
            stride[k] = stride[k + 1] * shape[k + 1]
        return (b"ctorch._utils\n_rebuild_tensor_v3\n" +
                tup(pid("UntypedStorage", key, numel_bytes), i(0), tup(*map(i, shape)), tup(*map(i, stride)),
                    b"\x89", od, b"ctorch\n" + dtype.encode() + b"\n") + b"R")
    bf = torch.tensor([[1.5, -2.0], [0.25, 3.0]]).bfloat16()
    p = torch.tensor([0.5, 1.0, -1.0])
    v2 = (b"ctorch._utils\n_rebuild_tensor_v2\n" +
          tup(pid("FloatStorage", "2", 3), i(0), tup(i(3)), tup(i(1)), b"\x89", od) + b"R")
    param = (b"ctorch._tensor\n_rebuild_from_type_v2\n" +
             tup(b"ctorch._utils\n_rebuild_parameter_with_state\n", b"ctorch.nn.parameter\nParameter\n",
                 tup(v2, b"\x88", od, b"}"), b"}") + b"R")
    pkl = (b"\x80\x02" + od + b"(" + s("x") + v3("0", 8, [2, 2], "bfloat16") + s("u") + v3("1", 4, [2], "uint16") +
           s("p") + param + b"u.")
    write_zip_records("torch2_style.pt", [
        ("data.pkl", pkl), (".format_version", b"1"), (".storage_alignment", b"64"), ("byteorder", b"little"),
        ("data/0", bf.view(torch.int16).numpy().tobytes()), ("data/1", struct.pack("<HH", 7, 65535)),
        ("data/2", p.numpy().tobytes())])
    record("torch2_style.pt", collections.OrderedDict([("x", bf), ("p", p)]))


def write_malformed():
    """Broken torch.save files, each with one defect (tests/io/test_malformed_files.cpp)."""
    import io
    import zipfile
    good = os.path.join(HERE, "mlp_state_dict.pt")
    with zipfile.ZipFile(good) as z:
        records = {n.split("/", 1)[1]: z.read(n) for n in z.namelist()}
    pkl = records["data.pkl"]
    others = [(n, d) for n, d in records.items() if n not in ("data.pkl", "version")]
    # A storage record is missing.
    write_zip_records("malformed_missing_record.pt",
                      [("data.pkl", pkl)] + [(n, d) for n, d in others if n != "data/0"])
    # A storage record is shorter than the pickle says.
    write_zip_records("malformed_short_record.pt",
                      [("data.pkl", pkl)] + [(n, d[: len(d) // 2] if n == "data/0" else d) for n, d in others])
    # The pickle is cut short.
    write_zip_records("malformed_truncated_pickle.pt", [("data.pkl", pkl[: len(pkl) // 2])] + others)
    data = struct.pack("<4f", 1, 2, 3, 4)
    F = torch.FloatStorage
    od = collections.OrderedDict
    cases = {
        # A view reaching past its 4-element storage.
        "malformed_view_too_large.pt": {"w": Rebuild(StorageRef(F, "0", "cpu", 4), 0, (2, 3), (3, 1), False, od())},
        "malformed_offset_past_end.pt": {"w": Rebuild(StorageRef(F, "0", "cpu", 4), 4, (1,), (1,), False, od())},
        # Sizes whose product overflows 64 bits.
        "malformed_absurd_sizes.pt": {"w": Rebuild(StorageRef(F, "0", "cpu", 4), 0, (2**40, 2**40), (1, 1), False, od())},
        # A storage that claims 2^62 elements.
        "malformed_absurd_numel.pt": {"w": Rebuild(StorageRef(F, "0", "cpu", 2**62), 0, (4,), (1,), False, od())},
        "malformed_negative_stride.pt": {"w": Rebuild(StorageRef(F, "0", "cpu", 4), 3, (4,), (-1,), False, od())},
    }
    for filename, obj in cases.items():
        write_zip_records(filename, [("data.pkl", torch_like_pickle(obj)), ("data/0", data)])
    # A deflated record: torch.save never compresses.
    with zipfile.ZipFile(os.path.join(HERE, "malformed_compressed.pt"), "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("archive/data.pkl", pkl)
        for n, d in others:
            z.writestr("archive/" + n, d)
    # One flipped byte inside data.pkl: the CRC-32 no longer matches.
    raw = bytearray(open(good, "rb").read())
    at = raw.find(b"collections")
    raw[at] ^= 0x20
    open(os.path.join(HERE, "malformed_bad_crc.pt"), "wb").write(bytes(raw))


def main():
    torch.manual_seed(0)
    mlp = Mlp()
    mlp.bn.running_mean.uniform_(-1, 1)
    mlp.bn.running_var.uniform_(0.5, 2)
    mlp.bn.num_batches_tracked += 7
    save(mlp.state_dict(), "mlp_state_dict.pt")
    save(mlp.state_dict(), "mlp_state_dict_legacy.pt", legacy=True)
    conv = ConvNet()
    save(conv.state_dict(), "convnet_state_dict.pt")

    save(all_dtypes(), "dtypes.pt")
    save(all_dtypes(), "dtypes_legacy.pt", legacy=True)

    lm = TiedLm()
    save(lm.state_dict(), "tied_state_dict.pt", shares=[["embed.weight", "decoder.weight"]])
    base = torch.arange(24, dtype=torch.float32).reshape(4, 6)
    views = collections.OrderedDict(
        [("base", base), ("row", base[1]), ("cols", base[:, 1:4]), ("t", base.t()), ("strided", base[::2, ::3])])
    shares = [["base", "row", "cols", "t", "strided"]]
    save(views, "views.pt", shares=shares)
    save(views, "views_legacy.pt", legacy=True, shares=shares)

    ckpt = {
        "epoch": 3,
        "state_dict": mlp.state_dict(),
        "optimizer": {"lr": 0.01, "betas": (0.9, 0.999), "state": {0: {"step": torch.tensor(5.0)}}},
        "hparams": {"name": "mlp", "tags": {"a", "b"}, "blob": b"\x00\xff", "z": complex(1, 2), "flag": None},
    }
    save(ckpt, "checkpoint.pt")
    params = collections.OrderedDict(
        [("w", nn.Parameter(torch.ones(2, 2) * 0.5)), ("frozen", nn.Parameter(torch.zeros(3), requires_grad=False))])
    save(params, "parameters.pt")
    save(torch.linspace(-1, 1, 5), "single_tensor.pt")

    # safetensors, written by hand per the spec.
    g = torch.Generator().manual_seed(2)
    a = torch.randn(2, 3, generator=g)
    b = (torch.randn(4, generator=g)).half()
    c = (torch.randn(3, 2, generator=g)).bfloat16()
    d = torch.tensor([1, -2, 3], dtype=torch.int64)
    e = torch.tensor([True, False, True])
    st_tensors = collections.OrderedDict([("a.weight", a), ("b", b), ("c", c), ("d", d), ("e", e)])
    st_entries = [
        ("a.weight", "F32", a.shape, a.numpy().tobytes()),
        ("d", "I64", d.shape, d.numpy().tobytes()),
        ("b", "F16", b.shape, b.numpy().tobytes()),
        ("c", "BF16", c.shape, c.view(torch.int16).numpy().tobytes()),
        ("e", "BOOL", e.shape, e.numpy().tobytes()),
    ]
    write_safetensors("small.safetensors", st_entries, {"format": "pt"})
    # Tensors come back in header order.
    record("small.safetensors", collections.OrderedDict((n, st_tensors[n]) for n, _, _, _ in st_entries))
    fp8 = bytes([0x38, 0x40, 0xb8, 0x00])   # float8_e4m3fn 1, 2, -1, 0
    write_safetensors("fp8_mixed.safetensors", [
        ("keep", "F32", a.shape, a.numpy().tobytes()),
        ("scale_fp8", "F8_E4M3", (4,), fp8),
        ("ids_u16", "U16", (2,), struct.pack("<HH", 1, 65535)),
        ("also_keep", "I64", d.shape, d.numpy().tobytes()),
    ])
    record("fp8_mixed.safetensors", collections.OrderedDict([("keep", a), ("also_keep", d)]))

    # npy
    v = np.linspace(0, 1, 7, dtype=np.float32)
    np.save(os.path.join(HERE, "vector.npy"), v)
    record("vector.npy", {"vector": torch.from_numpy(v)})
    m = np.asfortranarray(np.arange(12, dtype=np.float64).reshape(3, 4) / 3)
    np.save(os.path.join(HERE, "fortran.npy"), m)
    record("fortran.npy", {"fortran": torch.from_numpy(np.ascontiguousarray(m))})
    be = np.arange(-3, 3, dtype=">i4").reshape(2, 3)
    np.save(os.path.join(HERE, "big_endian.npy"), be)
    record("big_endian.npy", {"big_endian": torch.from_numpy(be.astype("<i4"))})
    os.makedirs(os.path.join(HERE, "npy_dir"), exist_ok=True)
    x = np.arange(6, dtype=np.int64).reshape(2, 3)
    y = np.array([[True, False]])
    np.save(os.path.join(HERE, "npy_dir", "x.npy"), x)
    np.save(os.path.join(HERE, "npy_dir", "y.npy"), y)
    with open(os.path.join(HERE, "npy_dir", "README.txt"), "w") as f:
        f.write("not an array: ignored\n")
    record("npy_dir", collections.OrderedDict([("x", torch.from_numpy(x)), ("y", torch.from_numpy(y))]))

    # Hostile files: each would create PWNED (or run code) under pickle.load.
    # Never loaded here.
    import builtins
    import subprocess
    write_zip_pickle("evil_os_system.pt", pickle.dumps({"w": Evil(os.system, ("touch " + PWNED,))}, protocol=2))
    write_zip_pickle("evil_eval.pt", pickle.dumps(Evil(builtins.eval, ("open(%r, 'w')" % PWNED,)), protocol=2))
    write_zip_pickle("evil_subprocess.pt", pickle.dumps(Evil(subprocess.Popen, (["touch", PWNED],)), protocol=2))
    write_zip_pickle("evil_exec_proto4.pt",
                     pickle.dumps(Evil(builtins.exec, ("open(%r, 'w')" % PWNED,)), protocol=4))
    write_zip_pickle("evil_newobj.pt", pickle.dumps(EvilNewObj(), protocol=2))
    # Legacy framing: magic, protocol, sys_info, then the hostile main pickle.
    with open(os.path.join(HERE, "evil_legacy.pt"), "wb") as f:
        pickle.dump(0x1950a86a20f9469cfc6c, f, protocol=2)
        pickle.dump(1001, f, protocol=2)
        pickle.dump({"protocol_version": 1001, "little_endian": True}, f, protocol=2)
        pickle.dump(Evil(os.system, ("touch " + PWNED,)), f, protocol=2)
        pickle.dump([], f, protocol=2)
    # A whole pickled module rather than its state_dict.
    torch.save(Mlp(), os.path.join(HERE, "whole_module.pt"))

    write_torch2_style()
    write_malformed()

    with open(os.path.join(HERE, "expected.json"), "w") as f:
        json.dump(expected, f, indent=1)
        f.write("\n")
    print("wrote", len(expected), "fixtures with expected values")


if __name__ == "__main__":
    main()
