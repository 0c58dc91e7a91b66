#include "core/io/catalog/zip_reader.h"

#include <algorithm>

#include "core/io/catalog/byte_reader.h"

namespace irscope::io {

namespace {

constexpr uint32_t kLocalHeaderSig = 0x04034b50;
constexpr uint32_t kCentralHeaderSig = 0x02014b50;
constexpr uint32_t kEndSig = 0x06054b50;
constexpr uint32_t kZip64EndSig = 0x06064b50;
constexpr uint32_t kZip64LocatorSig = 0x07064b50;
constexpr size_t kEndSize = 22;
constexpr size_t kCentralHeaderSize = 46;
constexpr size_t kLocalHeaderSize = 30;

struct EndRecord {
    uint64_t entries;
    uint64_t cdSize;
    uint64_t cdOffset;
};

// The end of central directory record sits in the last 22 + 65535 bytes
// (its comment may be up to 64 KiB); search backwards for its signature.
uint64_t findEnd(std::string_view buf) {
    if (buf.size() < kEndSize) throw FormatError("not a zip archive: too short for an end of central directory record");
    uint64_t last = buf.size() - kEndSize;
    uint64_t first = last > 65535 ? last - 65535 : 0;
    // rfind, not a readLE per byte: a file that is not a zip (or a truncated
    // one) is scanned over its last 64 KiB, and that should cost a memchr.
    static constexpr std::string_view kEndMagic("PK\x05\x06", 4);
    static_assert(kEndSig == 0x06054b50, "the magic above is the signature's bytes, little-endian");
    for (size_t pos = buf.rfind(kEndMagic, last); pos != std::string_view::npos && pos >= first;
         pos = pos == 0 ? std::string_view::npos : buf.rfind(kEndMagic, pos - 1)) {
        uint16_t commentLen = readLE<uint16_t>(buf, pos + 20, "end record");
        if (pos + kEndSize + commentLen <= buf.size()) return pos;
    }
    throw FormatError("not a zip archive or truncated: no end of central directory record");
}

EndRecord readEnd(std::string_view buf) {
    uint64_t pos = findEnd(buf);
    EndRecord end{readLE<uint16_t>(buf, pos + 10, "end record"), readLE<uint32_t>(buf, pos + 12, "end record"),
                  readLE<uint32_t>(buf, pos + 16, "end record")};
    bool zip64 = end.entries == 0xFFFF || end.cdSize == 0xFFFFFFFF || end.cdOffset == 0xFFFFFFFF;
    if (zip64 && pos >= 20 && readLE<uint32_t>(buf, pos - 20, "zip64 locator") == kZip64LocatorSig) {
        uint64_t z = readLE<uint64_t>(buf, pos - 20 + 8, "zip64 locator");
        if (readLE<uint32_t>(buf, z, "zip64 end record") != kZip64EndSig)
            throw FormatError("corrupt zip64 end of central directory record");
        end.entries = readLE<uint64_t>(buf, z + 32, "zip64 end record");
        end.cdSize = readLE<uint64_t>(buf, z + 40, "zip64 end record");
        end.cdOffset = readLE<uint64_t>(buf, z + 48, "zip64 end record");
    }
    if (!fitsIn(end.cdOffset, end.cdSize, buf.size()))
        throw FormatError("truncated: the zip central directory lies past the end of the file");
    // Each entry takes at least 46 bytes: a count beyond that is a lie, and
    // refusing it bounds what we allocate.
    if (end.entries > end.cdSize / kCentralHeaderSize)
        throw FormatError("corrupt zip: central directory claims " + std::to_string(end.entries) + " entries in " +
                          std::to_string(end.cdSize) + " bytes");
    return end;
}

}  // namespace

bool looksLikeZip(std::string_view buffer) {
    return buffer.size() >= 4 && buffer.substr(0, 4) == std::string_view("PK\x03\x04", 4);
}

ZipReader::ZipReader(std::string_view buffer) : buffer_(buffer) {
    EndRecord end = readEnd(buffer);
    records_.reserve(end.entries);
    uint64_t pos = end.cdOffset;
    const uint64_t cdEnd = end.cdOffset + end.cdSize;
    for (uint64_t i = 0; i < end.entries; ++i) {
        if (pos + kCentralHeaderSize > cdEnd || readLE<uint32_t>(buffer, pos, "central header") != kCentralHeaderSig)
            throw FormatError("corrupt zip: bad central directory entry " + std::to_string(i));
        ZipRecord r{};
        r.method = readLE<uint16_t>(buffer, pos + 10, "central header");
        r.crc32 = readLE<uint32_t>(buffer, pos + 16, "central header");
        uint64_t compressed = readLE<uint32_t>(buffer, pos + 20, "central header");
        r.size = readLE<uint32_t>(buffer, pos + 24, "central header");
        uint16_t nameLen = readLE<uint16_t>(buffer, pos + 28, "central header");
        uint16_t extraLen = readLE<uint16_t>(buffer, pos + 30, "central header");
        uint16_t commentLen = readLE<uint16_t>(buffer, pos + 32, "central header");
        uint64_t localOffset = readLE<uint32_t>(buffer, pos + 42, "central header");
        uint64_t nameAt = pos + kCentralHeaderSize;
        if (nameAt + nameLen + extraLen + commentLen > cdEnd)
            throw FormatError("corrupt zip: central directory entry " + std::to_string(i) + " overruns the directory");
        r.name.assign(buffer.substr(nameAt, nameLen));
        // zip64 extended information: the 8-byte fields present are those whose
        // 32-bit field holds 0xFFFFFFFF, in this order.
        uint64_t extra = nameAt + nameLen;
        uint64_t extraEnd = extra + extraLen;
        while (extra + 4 <= extraEnd) {
            uint16_t id = readLE<uint16_t>(buffer, extra, "extra field");
            uint16_t len = readLE<uint16_t>(buffer, extra + 2, "extra field");
            uint64_t body = extra + 4;
            if (body + len > extraEnd) throw FormatError("corrupt zip: extra field overruns entry '" + r.name + "'");
            if (id == 0x0001) {
                uint64_t at = body;
                auto take = [&](uint64_t& field) {
                    if (at + 8 > body + len) throw FormatError("corrupt zip: short zip64 field in '" + r.name + "'");
                    field = readLE<uint64_t>(buffer, at, "zip64 field");
                    at += 8;
                };
                if (r.size == 0xFFFFFFFF) take(r.size);
                if (compressed == 0xFFFFFFFF) take(compressed);
                if (localOffset == 0xFFFFFFFF) take(localOffset);
            }
            extra = body + len;
        }
        pos = extraEnd + commentLen;

        if (r.method == 0 && compressed != r.size)
            throw FormatError("corrupt zip: stored record '" + r.name + "' has different compressed and plain sizes");
        if (readLE<uint32_t>(buffer, localOffset, "local header") != kLocalHeaderSig)
            throw FormatError("corrupt zip: no local header for record '" + r.name + "'");
        uint16_t localName = readLE<uint16_t>(buffer, localOffset + 26, "local header");
        uint16_t localExtra = readLE<uint16_t>(buffer, localOffset + 28, "local header");
        r.dataOffset = localOffset + kLocalHeaderSize + localName + localExtra;
        if (!fitsIn(r.dataOffset, compressed, buffer.size()))
            throw FormatError("truncated: record '" + r.name + "' lies past the end of the file");
        records_.push_back(std::move(r));
    }
    byName_.reserve(records_.size());
    for (size_t i = 0; i < records_.size(); ++i) {
        if (!byName_.emplace(std::string_view(records_[i].name), i).second)
            throw FormatError("corrupt zip: record '" + records_[i].name + "' appears twice");
    }
    if (records_.empty()) throw FormatError("empty zip archive: no records");
    const std::string& first = records_.front().name;
    topFolder_ = first.substr(0, first.find('/'));
}

const ZipRecord* ZipReader::find(std::string_view name) const {
    auto it = byName_.find(name);
    return it == byName_.end() ? nullptr : &records_[it->second];
}

std::string_view ZipReader::data(const ZipRecord& record) const {
    if (record.method != 0)
        throw FormatError("record '" + record.name + "' is compressed (zip method " + std::to_string(record.method) +
                          "); torch.save stores records uncompressed");
    return buffer_.substr(record.dataOffset, record.size);
}

}  // namespace irscope::io
