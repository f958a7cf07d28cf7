// String, ByteString and XmlElement (OPC 10000-6 5.2.2.4, 5.2.2.7, 5.2.2.8).
// Wire strings stay UTF-8 bytes inside the stack; QString only at API edges (toQString()).
// A null string (encoded length -1) and an empty string (length 0) are distinct values.
#pragma once

#include <QByteArray>
#include <QString>
#include <string>
#include <string_view>

namespace ua {

template <class Tag>
class BasicString {
public:
    BasicString() = default;                      // null
    BasicString(const char* s) : m_data(s ? s : ""), m_null(s == nullptr) {}
    BasicString(std::string_view s) : m_data(s), m_null(false) {}
    BasicString(std::string s) : m_data(std::move(s)), m_null(false) {}
    BasicString(const char* p, std::size_t n) : m_data(p, n), m_null(false) {}

    static BasicString null() { return {}; }
    static BasicString fromQString(const QString& s) {
        if (s.isNull()) return {};
        const QByteArray u = s.toUtf8();
        return BasicString(u.constData(), std::size_t(u.size()));
    }
    static BasicString fromQByteArray(const QByteArray& b) {
        if (b.isNull()) return {};
        return BasicString(b.constData(), std::size_t(b.size()));
    }
    QString toQString() const { return m_null ? QString() : QString::fromUtf8(m_data.data(), qsizetype(m_data.size())); }
    QByteArray toQByteArray() const { return m_null ? QByteArray() : QByteArray(m_data.data(), qsizetype(m_data.size())); }

    bool isNull() const { return m_null; }
    bool isEmpty() const { return m_data.empty(); }  // true for null and for ""
    std::size_t size() const { return m_data.size(); }
    const char* data() const { return m_data.data(); }
    const std::string& str() const { return m_data; }
    std::string_view view() const { return m_data; }
    void clear() { m_data.clear(); m_null = true; }
    // Replaces the content with n bytes from p (not null afterwards).
    void assign(const char* p, std::size_t n) { m_data.assign(p, n); m_null = false; }

    friend bool operator==(const BasicString& a, const BasicString& b) { return a.m_null == b.m_null && a.m_data == b.m_data; }
    friend bool operator<(const BasicString& a, const BasicString& b) {
        if (a.m_null != b.m_null) return a.m_null;
        return a.m_data < b.m_data;
    }

private:
    std::string m_data;
    bool m_null = true;
};

struct StringTag {};
struct ByteStringTag {};
struct XmlElementTag {};
using String = BasicString<StringTag>;          // UTF-8 text
using ByteString = BasicString<ByteStringTag>;  // opaque bytes
using XmlElement = BasicString<XmlElementTag>;  // UTF-8 XML fragment

} // namespace ua
