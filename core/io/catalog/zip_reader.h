#pragma once
// ZipReader: the stored (uncompressed) records of a zip archive, as torch.save
// writes them, read in place from a byte buffer (usually a MappedFile). Knows
// zip64. Every offset and size is checked against the buffer, so a hostile
// archive can only make it throw FormatError, never read out of bounds or
// allocate more than the central directory's own size.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace irscope::io {

struct ZipRecord {
    std::string name;     // full name inside the archive ("archive/data/0")
    uint64_t dataOffset;  // where the record's bytes start in the buffer
    uint64_t size;        // their count
    uint32_t crc32;
    uint16_t method;  // 0 = stored; anything else is refused on access
};

class ZipReader {
public:
    // Parses the central directory and each record's local header.
    explicit ZipReader(std::string_view buffer);
    // The index views the records' names: not copyable.
    ZipReader(const ZipReader&) = delete;
    ZipReader& operator=(const ZipReader&) = delete;

    const std::vector<ZipRecord>& records() const { return records_; }
    const ZipRecord* find(std::string_view name) const;
    // The bytes of a stored record; throws FormatError for a compressed one.
    std::string_view data(const ZipRecord& record) const;

    // The top folder torch.save put everything under ("archive", or the
    // file's stem): the first component of the first record's name.
    const std::string& topFolder() const { return topFolder_; }

private:
    std::string_view buffer_;
    std::vector<ZipRecord> records_;
    std::unordered_map<std::string_view, size_t> byName_;  // views of records_' names (100,000 of them: no copies)
    std::string topFolder_;
};

bool looksLikeZip(std::string_view buffer);

}  // namespace irscope::io
