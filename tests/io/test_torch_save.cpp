// torch.save files written by Python's PyTorch 1.13 (zip and legacy): every
// tensor's dtype, shape and bytes must equal what PyTorch itself read back.
// Torch headers first: Qt's `slots` macro breaks ATen's.
#include "core/io/tensor_file.h"
#include "tensor_test_util.h"

#include <QtTest/QtTest>

using namespace irscope::io;
using namespace irscope::io::test;

class TestTorchSave : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void matchesPyTorch_data() {
        QTest::addColumn<QString>("file");
        for (const char* f :
             {"mlp_state_dict.pt", "mlp_state_dict_legacy.pt", "convnet_state_dict.pt", "dtypes.pt", "dtypes_legacy.pt",
              "tied_state_dict.pt", "views.pt", "views_legacy.pt", "checkpoint.pt", "parameters.pt"})
            QTest::newRow(f) << f;
    }
    void matchesPyTorch() {
        QFETCH(QString, file);
        for (bool copy : {false, true}) {
            ReadOptions options;
            options.copy = copy;
            options.verifyChecksums = true;
            TensorMap map = readTensorFile(fixture(file.toStdString()), options);
            compareWithExpected(map, file.toStdString());
            for (const auto& e : map)
                QCOMPARE(QString::fromStdString(e.source), QString::fromStdString(fixture(file.toStdString())));
        }
    }

    // What PyTorch 2.x writes: _rebuild_tensor_v3 over an UntypedStorage,
    // a uint16 tensor (reported, not loaded), a Parameter via _rebuild_from_type_v2.
    void torch2Style() {
        TensorMap map = readTensorFile(fixture("torch2_style.pt"));
        compareWithExpected(map, "torch2_style.pt");
        QCOMPARE(map.skipped().size(), size_t(1));
        QCOMPARE(QString::fromStdString(map.skipped()[0].name), QString("u"));
        QCOMPARE(QString::fromStdString(map.skipped()[0].dtype), QString("uint16"));
        QCOMPARE(map.skipped()[0].shape, std::vector<int64_t>{2});
    }

    void formatDetection() {
        QCOMPARE(detectTensorFileFormat(fixture("mlp_state_dict.pt")), std::string("torch.save (zip)"));
        QCOMPARE(detectTensorFileFormat(fixture("mlp_state_dict_legacy.pt")), std::string("torch.save (legacy)"));
    }

    // Tied weights and views share one storage, as in PyTorch.
    void sharedStorages_data() {
        QTest::addColumn<QString>("file");
        for (const char* f : {"tied_state_dict.pt", "views.pt", "views_legacy.pt"}) QTest::newRow(f) << f;
    }
    void sharedStorages() {
        QFETCH(QString, file);
        TensorMap map = readTensorFile(fixture(file.toStdString()));
        const auto& shares = expectedJson().at(file.toStdString()).at("shares");
        QVERIFY(!shares.empty());
        for (const auto& group : shares) {
            const at::Tensor* first = map.find(group.at(0).get<std::string>());
            QVERIFY(first);
            for (const auto& name : group) {
                const at::Tensor* t = map.find(name.get<std::string>());
                QVERIFY(t);
                QVERIFY(t->storage().is_alias_of(first->storage()));
            }
        }
        // A write through one view is seen by the others (copy-on-write of the mapping, not of the file).
        if (file == "views.pt") {
            at::Tensor base = *map.find("base");
            base.fill_(-1);
            QCOMPARE(map.find("t")->sum().item<float>(), -24.0f);
            TensorMap again = readTensorFile(fixture("views.pt"));
            QCOMPARE(again.find("base")->sum().item<float>(), 276.0f);  // 0 + ... + 23, file untouched
        }
    }

    void nonContiguousViewsKeepStrides() {
        TensorMap map = readTensorFile(fixture("views.pt"));
        const at::Tensor& t = *map.find("t");
        QCOMPARE(t.strides().vec(), (std::vector<int64_t>{1, 6}));
        const at::Tensor& cols = *map.find("cols");
        QCOMPARE(cols.storage_offset(), int64_t(1));
    }

    void selectNestedDict() {
        ReadOptions options;
        options.select = "state_dict";
        TensorMap map = readTensorFile(fixture("checkpoint.pt"), options);
        // Same tensors as the plain state_dict, same names.
        compareWithExpected(map, "mlp_state_dict.pt");

        options.select = "optimizer.state";
        TensorMap opt = readTensorFile(fixture("checkpoint.pt"), options);
        QCOMPARE(opt.size(), size_t(1));
        QVERIFY(opt.find("0.step"));
        QCOMPARE(opt.find("0.step")->item<float>(), 5.0f);
    }

    void selectMissingNamesKeys() {
        ReadOptions options;
        options.select = "model";
        try {
            readTensorFile(fixture("checkpoint.pt"), options);
            QFAIL("expected an error");
        } catch (const TensorFileError& e) {
            QString what = e.what();
            QVERIFY2(what.contains("'model'") && what.contains("state_dict") && what.contains("epoch"), e.what());
            QVERIFY(what.startsWith(QString::fromStdString(fixture("checkpoint.pt")) + ": "));
        }
    }

    void singleTensorIsNamedByStem() {
        TensorMap map = readTensorFile(fixture("single_tensor.pt"));
        QCOMPARE(map.size(), size_t(1));
        QCOMPARE(QString::fromStdString(map.entries()[0].name), QString("single_tensor"));
        QCOMPARE(map.entries()[0].tensor.sizes().vec(), std::vector<int64_t>{5});
    }

    void zeroCopyKeepsMappingAlive() {
        at::Tensor t;
        {
            TensorMap map = readTensorFile(fixture("mlp_state_dict.pt"));
            t = *map.find("fc1.weight");
        }
        // The map is gone; the tensor still reads the mapped bytes.
        ReadOptions copying;
        copying.copy = true;
        TensorMap again = readTensorFile(fixture("mlp_state_dict.pt"), copying);
        QVERIFY(at::equal(t, *again.find("fc1.weight")));
    }
};

#include "common/suite_registry.h"

IRSCOPE_TEST_APPLESS_MAIN(TestTorchSave)
#include "test_torch_save.moc"
