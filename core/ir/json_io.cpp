// The loading half of json_io.h: a streaming reader that builds the Graph
// straight from the mapped file (saving is json_write.cpp).
#include "core/ir/json_io.h"

#include "core/ir/archive_path.h"

#include "core/ir/archive_readers.h"

#include <cstring>
#include <unordered_map>

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/ir/constant_packing.h"
#include "core/ir/dtype.h"
#include "core/ir/json_cursor.h"
#include "core/ir/python_json_writer.h"

namespace irscope::ir {

namespace {

std::string formatLoadError(const std::string& file, const std::string& jsonPath, int64_t line, int64_t column,
                            const std::string& reason) {
    std::string text = file;
    if (line > 0) text += ":" + std::to_string(line) + ":" + std::to_string(column);
    text += ": ";
    if (!jsonPath.empty()) text += jsonPath + ": ";
    return text + reason;
}

class GraphReader {
public:
    GraphReader(JsonCursor& cursor, Graph& graph, const LoadOptions& options)
        : c_(cursor), g_(graph), options_(options) {}

    void readTop();

private:
    void requireKeys(size_t objectStart, std::initializer_list<std::pair<const char*, bool>> keys);
    void readTensorMetaList(std::vector<TensorMeta>& list);
    void readTensorMeta(TensorMeta& meta);
    void readShape(Shape& shape);
    void readNode(OpNode& node);
    void readMapping();
    void readConstants();
    void readConstant(const std::string& name, ConstantValue& value);
    void readConstantData(Sizes& shape, std::vector<ConstantElement>& elements, std::string& problem);
    void readNested(size_t depth, Sizes& shape, int64_t& leafDepth, std::vector<ConstantElement>& elements,
                    std::string& problem);
    std::string readOptionalString();  // a string, or "" for null
    void addLoadDiagnostic(std::string code, std::string message);
    void checkProgress();

    JsonCursor& c_;
    Graph& g_;
    const LoadOptions& options_;
    size_t nextProgressOffset_ = 0;
};

void GraphReader::checkProgress() {
    if (!options_.progress || c_.offset() < nextProgressOffset_) return;
    nextProgressOffset_ = c_.offset() + (1u << 20);
    if (!options_.progress(static_cast<double>(c_.offset()) / static_cast<double>(std::max<size_t>(c_.size(), 1))))
        throw LoadCancelled();
}

void GraphReader::addLoadDiagnostic(std::string code, std::string message) {
    Diagnostic d;
    d.severity = Severity::Error;
    d.code = std::move(code);
    d.jsonPath = c_.path();
    d.message = std::move(message);
    g_.loadDiagnostics.push_back(std::move(d));
}

void GraphReader::requireKeys(size_t objectStart, std::initializer_list<std::pair<const char*, bool>> keys) {
    for (const auto& [key, seen] : keys)
        if (!seen) c_.failAt(c_.text().data() + objectStart, std::string("missing required key '") + key + "'");
}

std::string GraphReader::readOptionalString() {
    std::string text;
    if (c_.peek() == 'n')
        c_.readNull();
    else
        c_.readString(text);
    return text;
}

void GraphReader::readTop() {
    c_.peek();
    const size_t start = c_.offset();
    if (c_.atEnd()) c_.fail("the file is empty: expected a torch_ir JSON object");
    c_.beginObject();
    bool inputs = false, outputs = false, weights = false, nodes = false;
    std::string key;
    while (c_.nextKey(key)) {
        c_.pushKey(key);
        if (key == std::string_view("model_name"))
            g_.modelName = readOptionalString();
        else if (key == std::string_view("pytorch_version"))
            g_.pytorchVersion = readOptionalString();
        else if (key == std::string_view("graph_inputs"))
            readTensorMetaList(g_.graphInputs), inputs = true;
        else if (key == std::string_view("graph_outputs"))
            readTensorMetaList(g_.graphOutputs), outputs = true;
        else if (key == std::string_view("weights"))
            readTensorMetaList(g_.weights), weights = true;
        else if (key == std::string_view("weight_name_mapping"))
            readMapping();
        else if (key == std::string_view("constants"))
            readConstants();
        else if (key == std::string_view("nodes")) {
            nodes = true;
            g_.nodes.clear();
            if (c_.peek() == 'n') {
                c_.fail("'nodes' must be a list of nodes, not null");
            }
            c_.beginArray();
            c_.pushIndex(0);
            int64_t index = 0;
            while (c_.nextElement()) {
                c_.setIndex(index++);
                g_.nodes.emplace_back();
                readNode(g_.nodes.back());
                checkProgress();
            }
            c_.pop();
        } else {
            c_.skipValue();  // unknown keys are ignored, as torch_ir's from_dict does
        }
        c_.pop();
    }
    c_.finish();
    // Path is empty here: the top-level object is what lacks the key.
    requireKeys(start, {{"graph_inputs", inputs}, {"graph_outputs", outputs}, {"weights", weights}, {"nodes", nodes}});
}

void GraphReader::readTensorMetaList(std::vector<TensorMeta>& list) {
    list.clear();
    c_.beginArray();
    c_.pushIndex(0);
    int64_t index = 0;
    while (c_.nextElement()) {
        c_.setIndex(index++);
        list.emplace_back();
        readTensorMeta(list.back());
    }
    c_.pop();
}

void GraphReader::readTensorMeta(TensorMeta& meta) {
    c_.peek();
    const size_t start = c_.offset();
    const size_t firstDiagnostic = g_.loadDiagnostics.size();
    c_.beginObject();
    bool name = false, shape = false;
    std::string key;
    while (c_.nextKey(key)) {
        c_.pushKey(key);
        if (key == std::string_view("name"))
            c_.readString(meta.name), name = true;
        else if (key == std::string_view("shape"))
            readShape(meta.shape), shape = true;
        else if (key == std::string_view("dtype"))
            meta.dtype = readOptionalString();
        else if (key == std::string_view("producer_node")) {
            std::string producer = readOptionalString();
            if (producer.empty())
                meta.producerNode.reset();
            else
                meta.producerNode = std::move(producer);
        } else if (key == std::string_view("producer_output_idx")) {
            if (c_.peek() == 'n') {
                c_.readNull();
                meta.producerOutputIdx = 0;
            } else {
                const auto number = c_.readNumber();
                if (!number.isInteger) c_.fail("producer_output_idx must be an integer");
                meta.producerOutputIdx = number.integer;
            }
        } else {
            c_.skipValue();
        }
        c_.pop();
    }
    requireKeys(start, {{"name", name}, {"shape", shape}});
    for (size_t i = firstDiagnostic; i < g_.loadDiagnostics.size(); ++i)
        if (g_.loadDiagnostics[i].tensor.empty()) g_.loadDiagnostics[i].tensor = meta.name;
}

void GraphReader::readShape(Shape& shape) {
    shape.clear();
    c_.beginArray();
    c_.pushIndex(0);
    int64_t index = 0;
    while (c_.nextElement()) {
        c_.setIndex(index);
        const char next = c_.peek();
        if (next == '-' || (next >= '0' && next <= '9') || next == 'N' || next == 'I') {
            const auto number = c_.readNumber();
            if (number.isInteger) {
                shape.push_back(number.integer);
            } else {
                shape.push_back(Dim::unreadable());
                addLoadDiagnostic("invalid-dim",
                                  number.integerOverflow
                                      ? "dimension " + std::to_string(index) + " is too large for a 64-bit integer"
                                      : "dimension " + std::to_string(index) + " is not an integer (" +
                                            pythonFloatRepr(number.real) + ")");
            }
        } else {
            const auto value = c_.readValue();
            shape.push_back(Dim::unreadable());
            addLoadDiagnostic("invalid-dim", "dimension " + std::to_string(index) + " is not an integer (" +
                                                 value.dump() + "); shapes must be static");
        }
        ++index;
    }
    c_.pop();
}

void GraphReader::readNode(OpNode& node) {
    c_.peek();
    const size_t start = c_.offset();
    const size_t firstDiagnostic = g_.loadDiagnostics.size();
    c_.beginObject();
    bool name = false, opType = false, inputs = false, outputs = false;
    std::string key;
    while (c_.nextKey(key)) {
        c_.pushKey(key);
        if (key == std::string_view("name"))
            c_.readString(node.name), name = true;
        else if (key == std::string_view("op_type"))
            c_.readString(node.opType), opType = true;
        else if (key == std::string_view("inputs"))
            readTensorMetaList(node.inputs), inputs = true;
        else if (key == std::string_view("outputs"))
            readTensorMetaList(node.outputs), outputs = true;
        else if (key == std::string_view("attrs")) {
            if (c_.peek() == 'n') {
                c_.readNull();
                node.attrs = AttrMap::object();
            } else {
                if (c_.peek() != '{') c_.fail("attrs must be an object");
                node.attrs = c_.readValue();
            }
        } else {
            c_.skipValue();
        }
        c_.pop();
    }
    requireKeys(start, {{"name", name}, {"op_type", opType}, {"inputs", inputs}, {"outputs", outputs}});
    for (size_t i = firstDiagnostic; i < g_.loadDiagnostics.size(); ++i) g_.loadDiagnostics[i].node = node.name;
}

void GraphReader::readMapping() {
    g_.weightNameMapping.clear();
    if (c_.peek() == 'n') {
        c_.readNull();
        return;
    }
    c_.beginObject();
    std::unordered_map<std::string, size_t> position;  // duplicate keys: the last one wins, as in Python
    std::string key;
    while (c_.nextKey(key)) {
        c_.pushKey(key);
        std::string original;
        c_.readString(original);
        if (auto [it, fresh] = position.try_emplace(key, g_.weightNameMapping.size()); fresh)
            g_.weightNameMapping.emplace_back(key, std::move(original));
        else
            g_.weightNameMapping[it->second].second = std::move(original);
        c_.pop();
    }
}

void GraphReader::readConstants() {
    g_.constants.clear();
    if (c_.peek() == 'n') {
        c_.readNull();
        return;
    }
    c_.beginObject();
    std::unordered_map<std::string, size_t> position;
    std::string key;
    while (c_.nextKey(key)) {
        c_.pushKey(key);
        ConstantValue value;
        readConstant(key, value);
        if (auto [it, fresh] = position.try_emplace(key, g_.constants.size()); fresh)
            g_.constants.emplace_back(key, std::move(value));
        else
            g_.constants[it->second].second = std::move(value);
        c_.pop();
    }
}

void GraphReader::readNested(size_t depth, Sizes& shape, int64_t& leafDepth, std::vector<ConstantElement>& elements,
                             std::string& problem) {
    auto ragged = [&](const std::string& why) {
        if (problem.empty()) problem = "ragged data: " + why;
    };
    const char next = c_.peek();
    if (next == '[') {
        c_.beginArray();
        c_.pushIndex(0);
        int64_t count = 0;
        while (c_.nextElement()) {
            c_.setIndex(count++);
            readNested(depth + 1, shape, leafDepth, elements, problem);
        }
        c_.pop();
        // The first list completed at each depth fixes that dim; every other must match.
        if (shape.size() <= depth) shape.resize(depth + 1, -1);
        if (shape[depth] == -1)
            shape[depth] = count;
        else if (shape[depth] != count)
            ragged(c_.path() + " has " + std::to_string(count) + " elements where other lists at that depth have " +
                   std::to_string(shape[depth]));
        if (count == 0) {  // an empty list ends the dims here
            const auto dims = static_cast<int64_t>(depth) + 1;
            if (leafDepth == -1)
                leafDepth = dims;
            else if (leafDepth != dims)
                ragged(c_.path() + " is empty where other lists go deeper");
        }
        return;
    }
    if (leafDepth == -1)
        leafDepth = static_cast<int64_t>(depth);
    else if (leafDepth != static_cast<int64_t>(depth))
        ragged(c_.path() + " is at nesting depth " + std::to_string(depth) + " where other values are at depth " +
               std::to_string(leafDepth));
    ConstantElement element{};
    if (next == 't' || next == 'f') {
        element.kind = ConstantElement::Kind::Boolean;
        element.integer = c_.readBool() ? 1 : 0;
    } else if (next == '"' || next == '{' || next == 'n') {
        const auto value = c_.readValue();
        if (problem.empty()) problem = c_.path() + " is " + value.dump() + ", not a number";
        return;
    } else {
        const auto number = c_.readNumber();
        if (number.isInteger) {
            element.kind = ConstantElement::Kind::Integer;
            element.integer = number.integer;
        } else {
            element.kind = ConstantElement::Kind::Real;
            element.real = number.real;
        }
    }
    elements.push_back(element);
}

void GraphReader::readConstantData(Sizes& shape, std::vector<ConstantElement>& elements, std::string& problem) {
    int64_t leafDepth = -1;
    shape.clear();
    readNested(0, shape, leafDepth, elements, problem);
    if (problem.empty() && leafDepth >= 0 && static_cast<int64_t>(shape.size()) > leafDepth)
        problem = "ragged data: values appear at different nesting depths";
    if (problem.empty()) {
        auto count = elementCount(shape);
        if (!count || static_cast<size_t>(*count) != elements.size())
            problem = "ragged data: the nested lists do not form a rectangular tensor";
    }
}

void GraphReader::readConstant(const std::string& name, ConstantValue& value) {
    c_.peek();
    const size_t start = c_.offset();
    c_.beginObject();
    bool hasData = false;
    size_t dataBegin = 0, dataEnd = 0;
    std::vector<ConstantElement> elements;
    std::string key;
    while (c_.nextKey(key)) {
        c_.pushKey(key);
        if (key == std::string_view("data")) {
            hasData = true;
            elements.clear();
            value.problem.clear();
            c_.peek();
            dataBegin = c_.offset();
            readConstantData(value.shape, elements, value.problem);
            dataEnd = c_.offset();
        } else if (key == std::string_view("dtype")) {
            value.dtype = readOptionalString();
        } else {
            c_.skipValue();
        }
        c_.pop();
    }
    requireKeys(start, {{"data", hasData}});
    if (value.problem.empty()) {
        if (value.dtype.empty())
            value.problem = "no dtype";
        else if (auto dtype = parseDType(value.dtype))
            value.problem = packConstant(*dtype, elements, value.bytes);
        else
            value.problem = "unknown dtype '" + value.dtype + "'";
    }
    if (!value.problem.empty()) {
        value.bytes.clear();
        // Keep what the file said, so saving loses nothing.
        JsonCursor raw(c_.text().substr(dataBegin, dataEnd - dataBegin), c_.fileName(), 100000);
        value.rawData = raw.readValue();
    }
    (void)name;
}

}  // namespace

LoadError::LoadError(std::string file, std::string jsonPath, int64_t line, int64_t column, std::string reason)
    : std::runtime_error(formatLoadError(file, jsonPath, line, column, reason)),
      file_(std::move(file)),
      jsonPath_(std::move(jsonPath)),
      line_(line),
      column_(column),
      reason_(std::move(reason)) {}

Graph parseGraph(std::string_view text, const std::string& fileName, const LoadOptions& options) {
    Graph graph;
    JsonCursor cursor(text, fileName, options.maxDepth);
    GraphReader reader(cursor, graph, options);
    reader.readTop();
    return graph;
}

Graph loadGraphFile(const std::string& path, const LoadOptions& givenOptions) {
    const ArchivePath parts = splitArchivePath(path);
    LoadOptions options = givenOptions;
    if (!parts.program.empty()) options.program = parts.program;
    // Map the file rather than read it: no copy and no zero-filled buffer, and
    // the pages are dropped as soon as parsing is done.
    const int fd = ::open(parts.file.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) throw LoadError(path, "", 0, 0, std::string("cannot open: ") + std::strerror(errno));
    struct stat info {};
    if (::fstat(fd, &info) != 0 || !S_ISREG(info.st_mode)) {
        const bool directory = S_ISDIR(info.st_mode);
        ::close(fd);
        throw LoadError(path, "", 0, 0, directory ? "is a directory, not a JSON file" : "is not a regular file");
    }
    const auto size = static_cast<size_t>(info.st_size);
    if (size == 0) {
        ::close(fd);
        return parseGraph({}, path, options);
    }
    void* data = ::mmap(nullptr, size, PROT_READ, MAP_PRIVATE, fd, 0);
    ::close(fd);
    if (data == MAP_FAILED) throw LoadError(path, "", 0, 0, std::string("cannot map: ") + std::strerror(errno));
    ::madvise(data, size, MADV_SEQUENTIAL);
    struct Unmap {
        void* data;
        size_t size;
        ~Unmap() { ::munmap(data, size); }
    } unmap{data, size};
    const std::string_view bytes(static_cast<const char*>(data), size);
    // A torch.export archive (.pt2) and any other registered container.
    if (auto reader = archiveGraphReaderFor(bytes)) return reader(bytes, path, options);
    if (!options.program.empty())
        throw LoadError(
            path, "", 0, 0,
            "'#" + options.program + "' names a program of a torch.export archive, and " + parts.file + " is not one");
    return parseGraph(bytes, path, options);
}

}  // namespace irscope::ir
