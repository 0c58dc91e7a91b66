#pragma once
// A layout fixture (tests/data/layout/NAME.layout) layered and ordered as
// the engine does it, with every layer packed left: the worst start for
// the phases that place x (edge-length descent, span placement), which
// their suites then improve.
#include <QTest>

#include <fstream>
#include <string>
#include <vector>

#include "core/layout/crossing_reduction.h"
#include "core/layout/layered_graph.h"
#include "core/layout/layering.h"
#include "core/layout/layout.h"
#include "core/layout/layout_graph_text.h"
#include "core/layout/long_edges.h"
#include "core/layout/separation.h"

namespace packed_fixture {

using namespace irscope::layout;
using namespace irscope::layout::detail;

struct Packed {
    LayeredGraph g;
    std::vector<double> room;  // each vertex's box width
    std::vector<double> x;     // every layer packed left
};

inline Packed packedLeft(const std::string& name) {
    std::ifstream f(std::string(IRSCOPE_TEST_DATA) + "/layout/" + name + ".layout");
    if (!f) qFatal("missing layout fixture %s", name.c_str());
    const LayoutGraph input = layoutGraphFromText(f);
    const LayoutOptions o;
    Packed p;
    p.g = buildLayeredGraph(input, assignLayers(input), o);
    reduceCrossings(p.g, o.crossingSweeps);
    p.room.assign(p.g.width.begin(), p.g.width.end());
    p.x.assign(p.g.vertexCount(), 0);
    for (const auto& layer : p.g.layers)
        for (size_t i = 1; i < layer.size(); ++i)
            p.x[layer[i]] = p.x[layer[i - 1]] + separation(p.g, p.room, layer[i - 1], layer[i], o);
    return p;
}

}  // namespace packed_fixture
