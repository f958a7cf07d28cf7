#include "ua/server/common/StructureBodyCheck.h"

#include "ua/encoding/ScalarBody.h"
#include "ua/encoding/generated/NodeIds.h"

namespace ua {

namespace {

constexpr int kMaxStructureDepth = 32;

class BodyWalker {
public:
    BodyWalker(const AddressSpace& s, BinaryDecoder& d)
        : m_s(s), m_d(d), m_enumeration(s.indexOf(NodeId(id::Enumeration))) {}

    bool structure(NodeIndex dt, int depth) {
        if (depth > kMaxStructureDepth) return false;
        const StructureDefinition* def = definition(dt);
        if (!def) return false;
        switch (def->structureType) {
        case StructureType::StructureWithOptionalFields: {
            uint32_t mask = 0;
            decode(m_d, mask);
            int bit = 0;
            for (const StructureField& f : def->fields) {
                if (f.isOptional && !(mask & (1u << bit++))) continue;
                if (!field(f, depth)) return false;
            }
            return m_d.ok();
        }
        case StructureType::Union:
        case StructureType::UnionWithSubtypedValues: {
            uint32_t chosen = 0;
            decode(m_d, chosen);
            if (chosen > def->fields.size()) return false;
            return chosen == 0 || field(def->fields[chosen - 1], depth);
        }
        default:
            for (const StructureField& f : def->fields)
                if (!field(f, depth)) return false;
            return m_d.ok();
        }
    }

    const StructureDefinition* definition(NodeIndex dt) const {
        const ExtensionObject* x = m_s.node(dt).dataTypeDefinition.get<ExtensionObject>();
        return x ? x->get<StructureDefinition>() : nullptr;
    }

private:
    bool field(const StructureField& f, int depth) {
        const NodeIndex type = m_s.indexOf(f.dataType);
        if (type == kNoNode || f.valueRank > 1) return false;
        if (f.valueRank == 1 || f.valueRank == 0) {
            int32_t n = 0;
            decode(m_d, n);
            if (!m_d.ok() || n > int32_t(m_d.remaining())) return false;  // each element takes a byte at least
            for (int32_t i = 0; i < n; ++i)
                if (!value(type, depth)) return false;
            return m_d.ok();
        }
        return value(type, depth);
    }

    bool value(NodeIndex type, int depth) {
        if (m_s.isSubtypeOf(type, m_enumeration)) {
            int32_t n = 0;
            decode(m_d, n);
            return m_d.ok();
        }
        const BuiltInType bt = m_s.builtInTypeOf(type);
        if (bt == BuiltInType::ExtensionObject && !m_s.node(type).isAbstract && definition(type)) return structure(type, depth + 1);
        if (bt == BuiltInType::Null) {
            Variant v;
            decode(m_d, v);
            return m_d.ok();
        }
        decodeScalarBody(m_d, bt);
        return m_d.ok();
    }

    const AddressSpace& m_s;
    BinaryDecoder& m_d;
    NodeIndex m_enumeration;
};

} // namespace

bool structureBodyDecodes(const AddressSpace& space, NodeIndex dataType, const ByteString& body) {
    const auto* bytes = reinterpret_cast<const uint8_t*>(body.data());
    BinaryDecoder d(bytes, body.size());
    BodyWalker walker(space, d);
    if (!walker.definition(dataType)) return true;
    return walker.structure(dataType, 0) && d.ok() && d.remaining() == 0;
}

} // namespace ua
