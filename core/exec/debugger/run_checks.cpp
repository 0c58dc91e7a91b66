#include "core/exec/debugger/run_checks.h"

#include <ATen/ATen.h>

#include <stdexcept>

#include "core/exec/engine/session.h"
#include "core/exec/reference/program_pairing.h"
#include "core/exec/reference/quantization_compare.h"
#include "core/exec/reference/reference_check.h"
#include "core/exec/reference/reference_run.h"
#include "core/io/tensor_file.h"
#include "core/ir/archive_path.h"
#include "core/ir/json_io.h"

namespace irscope::exec {

RunChecks::RunChecks(const ir::Graph& graph) : graph_(graph), watch_(std::make_shared<Watchpoints>(graph)) {}

RunChecks::~RunChecks() = default;

void RunChecks::setChoice(const ReferenceChoice& choice) {
    io::TensorMap weights;
    if (choice.kind == ReferenceChoice::Kind::Dtype && !referenceDtype(choice.dtype))
        throw std::runtime_error("reference dtype '" + choice.dtype +
                                 "': not one of float64, float32, float16, bfloat16");
    if (choice.kind == ReferenceChoice::Kind::Weights) {
        try {
            weights = io::readTensorFile(choice.weightsPath);
        } catch (const std::exception& e) {
            std::string why = e.what();
            if (why.find(choice.weightsPath) == std::string::npos) why = choice.weightsPath + ": " + why;
            throw std::runtime_error(why);
        }
    }
    std::shared_ptr<const ir::Graph> program;
    if (choice.kind == ReferenceChoice::Kind::Program) {
        // The other program and its weights: a .pt2 carries its own.
        const std::string weightsFile = choice.weightsPath.empty() ? choice.programPath : choice.weightsPath;
        if (choice.weightsPath.empty() && !ir::isArchivePath(choice.programPath))
            throw std::runtime_error(choice.programPath +
                                     ": a pytorch-ir IR as the reference program needs its state_dict too");
        try {
            program = std::make_shared<const ir::Graph>(ir::loadGraphFile(choice.programPath));
            weights = io::readTensorFile(weightsFile);
        } catch (const std::exception& e) {
            std::string why = e.what();
            if (why.find(choice.programPath) == std::string::npos && why.find(weightsFile) == std::string::npos)
                why = choice.programPath + ": " + why;
            throw std::runtime_error(why);
        }
    }
    choiceWeights_ = std::move(weights);
    program_ = std::move(program);
    std::lock_guard lock(mutex_);
    choice_ = choice;
    programValues_ = {};
}

at::Tensor RunChecks::programValue(const std::string& tensorName) const {
    std::lock_guard lock(mutex_);
    const at::Tensor* t = programValues_.find(tensorName);
    return t ? *t : at::Tensor();
}

namespace {

// The other program run on this graph's inputs, its values renamed to the
// tensors of this graph they stand for (program_pairing.h).
io::TensorMap programReference(const ir::Graph& graph, const ir::Graph& program, const io::TensorMap& weights,
                               const io::TensorMap& inputs) {
    std::string problem;
    const io::TensorMap run = runProgram(program, weights, inputs, "reference", problem);
    if (!problem.empty()) throw std::runtime_error(problem);
    io::TensorMap values;
    for (const auto& p : pairPrograms(graph, program).outputs) {
        const at::Tensor* t = run.find(p.referenceTensor);
        if (!t) t = inputs.find(p.referenceTensor);
        if (t && t->defined()) values.insert(p.tensor, *t);
    }
    return values;
}

}  // namespace

ReferenceChoice RunChecks::choice() const {
    std::lock_guard lock(mutex_);
    return choice_;
}

bool RunChecks::runsReference() const {
    std::lock_guard lock(mutex_);
    return choice_.isRun();
}

void RunChecks::setMode(ErrorMode mode) {
    std::lock_guard lock(mutex_);
    mode_ = mode;
}

ErrorMode RunChecks::mode() const {
    std::lock_guard lock(mutex_);
    return mode_;
}

bool RunChecks::rebuild(Session& session, const Values& values, const Tolerance& tolerance) {
    const ReferenceChoice choice = this->choice();
    const ErrorMode mode = this->mode();
    session.setInspectors({watch_});
    watch_->setCheck(nullptr);
    {
        std::lock_guard lock(mutex_);
        check_.reset();
        run_.reset();
    }
    std::shared_ptr<ReferenceSource> source;
    std::shared_ptr<ReferenceRun> run;
    if (choice.isRun()) {
        const bool otherWeights = choice.kind == ReferenceChoice::Kind::Weights;
        std::optional<at::ScalarType> dtype;
        if (!otherWeights) dtype = referenceDtype(choice.dtype);
        run = std::make_shared<ReferenceRun>(graph_, otherWeights ? choiceWeights_ : values.weights, values.constants,
                                             values.inputs, dtype, session.retention());
        source = run;
    } else if (choice.kind == ReferenceChoice::Kind::Program && program_) {
        io::TensorMap renamed = programReference(graph_, *program_, choiceWeights_, values.inputs);
        {
            std::lock_guard lock(mutex_);
            programValues_ = renamed;
        }
        source = std::make_shared<TensorMapReference>(std::move(renamed));
    } else if (!values.references.empty()) {
        source = std::make_shared<TensorMapReference>(values.references);
    }
    std::shared_ptr<ReferenceCheck> check;
    if (source) {
        check = std::make_shared<ReferenceCheck>(graph_, std::move(source), tolerance, mode);
        check->setKeepOwn(session.retention() == RetentionPolicy::KeepAll);
    }
    {
        std::lock_guard lock(mutex_);
        ++builds_;
        check_ = check;
        run_ = run;
    }
    watch_->setCheck(check);
    session.setInspectors({watch_, check});  // the watchpoints first: they see the run's own values
    if (!check) return false;
    if (mode == ErrorMode::Local) {
        // What ran so far ran on its own inputs, not the reference's.
        if (session.cursor() == 0) return false;
        session.reset();
        return true;
    }
    // Measure what the run kept, in execution order, as if the check had been there.
    std::vector<at::Tensor> outputs;
    for (int64_t i = 0; i < session.cursor(); ++i) {
        if (session.state(i) != NodeState::Done) continue;
        const auto& node = graph_.nodes[static_cast<size_t>(i)];
        outputs.assign(node.outputs.size(), at::Tensor());
        bool any = false;
        for (size_t k = 0; k < node.outputs.size(); ++k) any = session.value(node.outputs[k].name, outputs[k]) || any;
        if (any) check->measure(i, outputs);
    }
    return false;
}

bool RunChecks::active() const {
    std::lock_guard lock(mutex_);
    return check_ != nullptr;
}

std::string RunChecks::referenceFailure() const {
    std::shared_ptr<ReferenceCheck> check;
    {
        std::lock_guard lock(mutex_);
        check = check_;
    }
    return check ? check->referenceFailure() : std::string();
}

std::vector<OutputError> RunChecks::rowsFrom(size_t from, uint64_t& epoch) const {
    std::shared_ptr<ReferenceCheck> check;
    uint64_t builds = 0;
    {
        std::lock_guard lock(mutex_);
        check = check_;
        builds = builds_;
    }
    const uint64_t known = epoch;
    for (;;) {
        uint64_t checkEpoch = 0;
        std::vector<OutputError> rows;
        if (check) rows = check->rowsFrom(from, checkEpoch);
        epoch = (builds << 32) | (checkEpoch & 0xffffffffu);
        if (epoch == known || from == 0) return rows;
        from = 0;  // the measurement started over since the caller's rows: all are new
    }
}

at::Tensor RunChecks::ownValue(const std::string& tensorName) const {
    std::shared_ptr<ReferenceCheck> check;
    {
        std::lock_guard lock(mutex_);
        if (mode_ != ErrorMode::Local) return {};
        check = check_;
    }
    return check ? check->ownValue(tensorName) : at::Tensor();
}

at::Tensor RunChecks::runValue(const std::string& tensorName) const {
    std::shared_ptr<ReferenceRun> run;
    {
        std::lock_guard lock(mutex_);
        run = run_;
    }
    return run ? run->valueOf(tensorName) : at::Tensor();
}

}  // namespace irscope::exec
