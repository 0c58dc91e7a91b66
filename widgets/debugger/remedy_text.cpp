#include "widgets/debugger/remedy_text.h"

#include "widgets/common/qt_text.h"

namespace irscope::widgets {

bool isDanglingValue(const exec::MissingRow& r) { return r.value.kind == "value" && !r.value.wrongDtype(); }

QString remedyText(const exec::MissingRow& r) {
    const auto& mv = r.value;
    const QString what = q(mv.originalName.empty() ? mv.name : mv.originalName);
    switch (r.remedy) {
    case exec::Remedy::ChooseInputSource:
        return QStringLiteral(
                   "choose a source for input '%1' in the Inputs dock (random, zeros, ones) or load an inputs file")
            .arg(q(mv.name));
    case exec::Remedy::EnterConstant:
        if (r.example.empty())
            return QStringLiteral("enter the value of constant '%1' in the Constants dock or load a constants file")
                .arg(what);
        return QStringLiteral("enter the value of constant '%1' in the Constants dock (%2) or load a constants file")
            .arg(what, q(r.example));
    case exec::Remedy::EnterNonPersistentBuffer:
        return QStringLiteral(
                   "'%1' is a non-persistent buffer (not in the state_dict): enter it in the Constants dock "
                   "or load a constants file")
            .arg(what);
    case exec::Remedy::CastToIrDtype:
        return QStringLiteral(
                   "'%1' is %2 in the state_dict, %3 in the IR: cast the weights to the IR's dtypes "
                   "(Weights dock › Cast to the IR's dtypes)")
            .arg(what, q(mv.haveDtype), q(mv.irDtype));
    case exec::Remedy::LoadStateDict:
        // A name no node, graph input or weight of the IR gives: no file
        // supplies it, the IR itself is broken.
        if (isDanglingValue(r) && !mv.namedProducer.empty() && !mv.nodes.empty())
            return QStringLiteral(
                       "%1's input '%2' names producer '%3', which is neither a node nor a graph input of this IR: "
                       "the IR is broken; export the model again, or fix that input's producer_node")
                .arg(q(mv.nodes.front()), what, q(mv.namedProducer));
        if (isDanglingValue(r))
            return QStringLiteral(
                       "no node, graph input or weight of this IR produces '%1': the IR is broken (`irscope "
                       "validate` names the input); export the model again, or fix the input that reads it")
                .arg(what);
        return QStringLiteral("load a state_dict that has '%1' (Weights dock › Load weights…)").arg(what);
    }
    return {};
}

QString missingText(const exec::MissingRow& r) {
    return q(exec::formatMissingValue(r.value)) + QStringLiteral(": ") + remedyText(r);
}

QString weightRowMessage(const exec::WeightRow& r) {
    if (r.status == exec::WeightStatus::Missing && r.constantLike)
        return q(r.message) + QStringLiteral(": enter it in the Constants dock or load a constants file");
    return q(r.message);
}

}  // namespace irscope::widgets
