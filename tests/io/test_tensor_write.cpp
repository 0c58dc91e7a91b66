// Writing .pt / .safetensors / .npy: round trips through irscope, and through
// Python (torch.load(weights_only=True), NumPy, a from-the-spec safetensors
// reader) when Debian's python3 with torch is there; skipped otherwise.
#include <filesystem>

#include "core/io/catalog/tensor_format.h"
#include "core/io/tensor_file.h"
#include "core/io/tensor_writer.h"
#include "python_worker.h"
#include "tensor_test_util.h"

#include <QtTest/QtTest>

using namespace irscope::io;
using namespace irscope::io::test;
namespace fs = std::filesystem;

namespace {

// handle([path]): {name: {dtype, shape, hex}} for a file, as Python reads it.
const char* kPythonDump = R"PY(
import collections, json, struct
import numpy as np
import torch
def hexof(t):
    t = t.contiguous()
    if t.dtype == torch.bfloat16:
        t = t.view(torch.int16)
    return t.numpy().tobytes().hex()
names = {torch.float32: "float32", torch.float64: "float64", torch.float16: "float16",
         torch.bfloat16: "bfloat16", torch.int8: "int8", torch.int16: "int16", torch.int32: "int32",
         torch.int64: "int64", torch.uint8: "uint8", torch.bool: "bool", torch.complex64: "complex64",
         torch.complex128: "complex128"}
def handle(args):
    path = args[0]
    out = collections.OrderedDict()
    shares = []
    if path.endswith(".pt"):
        sd = torch.load(path, weights_only=True)
        assert type(sd) is collections.OrderedDict, type(sd)
        for k, v in sd.items():
            assert type(v) is torch.Tensor, (k, type(v))
            out[k] = v
        ptrs = collections.defaultdict(list)
        for k, v in sd.items():
            ptrs[v.storage().data_ptr()].append(k)
        shares = [g for g in ptrs.values() if len(g) > 1]
    elif path.endswith(".npy"):
        a = np.load(path, allow_pickle=False)
        out["x"] = torch.from_numpy(np.ascontiguousarray(a))
    else:
        # safetensors, read and checked from the spec (no safetensors package here).
        st = {"F32": np.float32, "F64": np.float64, "F16": np.float16, "BF16": np.int16, "I8": np.int8,
              "I16": np.int16, "I32": np.int32, "I64": np.int64, "U8": np.uint8, "BOOL": np.bool_, "C64": np.complex64}
        raw = open(path, "rb").read()
        n = struct.unpack("<Q", raw[:8])[0]
        header = json.loads(raw[8:8 + n], object_pairs_hook=collections.OrderedDict)
        data = raw[8 + n:]
        header.pop("__metadata__", None)
        spans = sorted((v["data_offsets"][0], v["data_offsets"][1]) for v in header.values())
        pos = 0
        for b, e in spans:
            assert b == pos and e >= b, "offsets do not tile"
            pos = e
        assert pos == len(data), "data size"
        for k, v in header.items():
            b, e = v["data_offsets"]
            a = np.frombuffer(data[b:e], dtype=st[v["dtype"]]).reshape(v["shape"])
            t = torch.from_numpy(a.copy())
            if v["dtype"] == "BF16":
                t = t.view(torch.bfloat16)
            assert a.dtype.itemsize * a.size == e - b
            out[k] = t
    return json.dumps({"tensors": collections.OrderedDict(
        (k, {"dtype": names[v.dtype], "shape": list(v.shape), "hex": hexof(v)}) for k, v in out.items()),
        "shares": shares})
)PY";

}  // namespace

class TestTensorWrite : public QObject {
    Q_OBJECT

    QTemporaryDir dir_;
    irscope::test::PythonWorker python_{kPythonDump, "torch, numpy"};
    bool pythonTorchAvailable() { return python_.available(); }
    nlohmann::ordered_json pythonReads(const std::string& path) {
        return nlohmann::ordered_json::parse(python_.call({QString::fromStdString(path)}));
    }
    std::string tmp(const std::string& name) { return (dir_.path() + "/").toStdString() + name; }

private Q_SLOTS:
    void roundTrip_data() {
        QTest::addColumn<QString>("input");
        QTest::addColumn<QString>("ext");
        for (const char* f : {"dtypes.pt", "views.pt", "tied_state_dict.pt", "checkpoint.pt", "small.safetensors",
                              "npy_dir", "dtypes_legacy.pt"}) {
            QTest::newRow(qPrintable(QString("%1 -> pt").arg(f))) << f << ".pt";
            if (QString(f) != "dtypes.pt" && QString(f) != "dtypes_legacy.pt")  // complex128 has no safetensors dtype
                QTest::newRow(qPrintable(QString("%1 -> safetensors").arg(f))) << f << ".safetensors";
        }
    }
    void roundTrip() {
        QFETCH(QString, input);
        QFETCH(QString, ext);
        TensorMap map = readTensorFile(fixture(input.toStdString()));
        const std::string out = tmp("out" + ext.toStdString());
        writeTensorFile(map, out);
        compareWithExpected(readTensorFile(out), input.toStdString());
        ReadOptions copy;
        copy.copy = true;
        copy.verifyChecksums = true;
        compareWithExpected(readTensorFile(out, copy), input.toStdString());
        if (ext == ".pt") {
            // Sharing survives: views and tied weights still alias one storage.
            TensorMap back = readTensorFile(out);
            for (const auto& group : expectedJson().at(input.toStdString()).at("shares"))
                for (const auto& name : group)
                    QVERIFY(back.find(name.get<std::string>())
                                ->storage()
                                .is_alias_of(back.find(group.at(0).get<std::string>())->storage()));
        }
        if (!pythonTorchAvailable()) QSKIP("no /usr/bin/python3 with torch: Python round trip skipped");
        nlohmann::ordered_json py = pythonReads(out);
        QCOMPARE(QString::fromStdString(py.at("tensors").dump()),
                 QString::fromStdString(expectedJson().at(input.toStdString()).at("tensors").dump()));
        if (ext == ".pt") {
            for (const auto& group : expectedJson().at(input.toStdString()).at("shares")) {
                bool found = false;
                for (const auto& g : py.at("shares")) found = found || g == group;
                QVERIFY2(found, "Python does not see the shared storage");
            }
        }
    }

    void npyRoundTrip_data() {
        QTest::addColumn<QString>("input");
        for (const char* f : {"vector.npy", "fortran.npy", "big_endian.npy"}) QTest::newRow(f) << f;
    }
    void npyRoundTrip() {
        QFETCH(QString, input);
        TensorMap map = readTensorFile(fixture(input.toStdString()));
        const std::string out = tmp("one.npy");
        writeTensorFile(map, out);
        TensorMap back = readTensorFile(out);
        QCOMPARE(tensorHex(back.entries()[0].tensor), tensorHex(map.entries()[0].tensor));
        QCOMPARE(
            QString::fromStdString(tensorHex(back.entries()[0].tensor)),
            QString::fromStdString(
                expectedJson().at(input.toStdString()).at("tensors").begin().value().at("hex").get<std::string>()));
        if (!pythonTorchAvailable()) QSKIP("no /usr/bin/python3 with torch");
        nlohmann::ordered_json py = pythonReads(out);
        QCOMPARE(QString::fromStdString(py.at("tensors").at("x").dump()),
                 QString::fromStdString(expectedJson().at(input.toStdString()).at("tensors").begin().value().dump()));
    }

    void everyDTypeToNpyWhereNumPyHasIt() {
        TensorMap map = readTensorFile(fixture("dtypes.pt"));
        for (const auto& e : map) {
            TensorMap one;
            one.insert(e.name, e.tensor);
            const std::string out = tmp("dt.npy");
            if (e.tensor.scalar_type() == at::kBFloat16) {
                QVERIFY_THROWS_EXCEPTION(TensorFileError, writeTensorFile(one, out));
                continue;
            }
            writeTensorFile(one, out);
            QCOMPARE(tensorHex(readTensorFile(out).entries()[0].tensor), tensorHex(e.tensor));
        }
    }

    void refusals_data() {
        QTest::addColumn<QString>("input");
        QTest::addColumn<QString>("output");
        QTest::addColumn<QString>("reason");
        QTest::newRow("complex128 to safetensors") << "dtypes.pt"
                                                   << "x.safetensors"
                                                   << "tensor 'c128' has dtype complex128";
        QTest::newRow("many to npy") << "dtypes.pt"
                                     << "x.npy"
                                     << "exactly one tensor";
        QTest::newRow("unknown extension") << "dtypes.pt"
                                           << "x.h5"
                                           << "unknown output extension '.h5'";
        QTest::newRow("skipped tensors") << "fp8_mixed.safetensors"
                                         << "x.pt"
                                         << "tensor 'scale_fp8' (float8_e4m3fn)";
    }
    void refusals() {
        QFETCH(QString, input);
        QFETCH(QString, output);
        QFETCH(QString, reason);
        TensorMap map = readTensorFile(fixture(input.toStdString()));
        const std::string out = tmp(output.toStdString());
        try {
            writeTensorFile(map, out);
            QFAIL("written");
        } catch (const TensorFileError& e) {
            QVERIFY2(QString(e.what()).startsWith(QString::fromStdString(out) + ": "), e.what());
            QVERIFY2(QString(e.what()).contains(reason), e.what());
        }
        // Neither the file nor a temporary is left behind.
        QVERIFY(!fs::exists(out));
        for (const auto& entry : fs::directory_iterator(dir_.path().toStdString()))
            QVERIFY2(entry.path().string().find(".tmp-") == std::string::npos, entry.path().c_str());
    }

    void overwriteIsAtomic() {
        const std::string out = tmp("atomic.pt");
        writeTensorFile(readTensorFile(fixture("views.pt")), out);
        TensorMap before = readTensorFile(out);  // maps the old file
        writeTensorFile(readTensorFile(fixture("small.safetensors")), out);
        // The old mapping still reads the old bytes: the file was replaced, not rewritten in place.
        QCOMPARE(before.find("base")->sum().item<float>(), 276.0f);
        QCOMPARE(readTensorFile(out).size(), size_t(5));
    }

    // Every format registers its reader from its own file in
    // core/io/catalog/formats/ and its writer from core/io/writers/; the
    // whole-archive link keeps the writers although nothing names them.
    void everyFormatIsRegistered() {
        std::vector<std::string> names;
        for (const TensorFormat& f : tensorFormats()) names.push_back(f.name);
        for (const char* expected : {"torch.save (zip)", "torch.save (legacy)", "safetensors", "npy",
                                     "directory of npy", "sharded checkpoint"})
            QVERIFY2(std::find(names.begin(), names.end(), expected) != names.end(), expected);
        QCOMPARE(formatForExtension(".pth")->name, std::string("torch.save (zip)"));
        QVERIFY(formatForExtension(".h5") == nullptr);
        std::vector<std::string> writers;
        for (const TensorWriter& w : tensorWriters()) writers.push_back(w.name);
        QCOMPARE(writers, (std::vector<std::string>{"npy", "safetensors", "torch.save (zip)"}));
        QCOMPARE(writerForExtension(".pth")->name, std::string("torch.save (zip)"));
        QCOMPARE(writerForExtension(".safetensors")->name, std::string("safetensors"));
        QVERIFY(writerForExtension(".h5") == nullptr);
    }

    void emptyMapWrites() {
        TensorMap empty;
        writeTensorFile(empty, tmp("empty.pt"));
        writeTensorFile(empty, tmp("empty.safetensors"));
        QCOMPARE(readTensorFile(tmp("empty.pt")).size(), size_t(0));
        QCOMPARE(readTensorFile(tmp("empty.safetensors")).size(), size_t(0));
    }
};

#include "common/suite_registry.h"

IRSCOPE_TEST_APPLESS_MAIN(TestTensorWrite)
#include "test_tensor_write.moc"
