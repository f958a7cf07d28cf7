#include "models/StructureEdit.h"

#include <QCoreApplication>

namespace ua::clientapp {

namespace {

bool refuseEdit(QString* error, QString why) {
    if (error) *error = std::move(why);
    return false;
}

// What an absent field keeps of its value: its DataType, type name and whether it is an array.
DynamicValue absentValue(const DynamicValue& was) {
    DynamicValue absent;
    absent.kind = was.kind == DynamicValue::Kind::Array ? DynamicValue::Kind::Array : DynamicValue::Kind::Scalar;
    absent.dataType = was.dataType;
    absent.typeName = was.typeName;
    return absent;
}

// The value a field holds when it is made present: an empty array for an array field, else the
// default of its DataType (the absent field keeps both: StructureCodec's decode and defaultValue).
std::optional<DynamicValue> presentValueOf(const DynamicValue& absent, const DataTypeResolver& types, QString* error) {
    if (absent.kind == DynamicValue::Kind::Array) {
        DynamicValue empty;
        empty.kind = DynamicValue::Kind::Array;
        empty.dataType = absent.dataType;
        empty.typeName = absent.typeName;
        if (empty.typeName.isEmpty())
            if (auto t = types.resolve(absent.dataType)) empty.typeName = t->name;
        return empty;
    }
    return defaultValueOf(absent.dataType, types, error);
}

} // namespace

bool isUnionValue(const DynamicValue& v) {
    return v.kind == DynamicValue::Kind::Structure &&
           (v.structureType == StructureType::Union || v.structureType == StructureType::UnionWithSubtypedValues);
}

int unionChoice(const DynamicValue& v) {
    if (!isUnionValue(v)) return -1;
    for (std::size_t i = 0; i < v.fields.size(); ++i)
        if (v.fields[i].present) return int(i);
    return -1;
}

std::optional<DynamicValue> defaultValueOf(const NodeId& dataType, const DataTypeResolver& types, QString* error) {
    StructureCodec codec(types);
    std::optional<DynamicValue> v = codec.defaultValue(dataType);
    if (!v && error) *error = codec.error();
    return v;
}

bool setFieldPresent(DynamicValue& s, int field, bool present, const DataTypeResolver& types, QString* error) {
    if (s.kind != DynamicValue::Kind::Structure) return refuseEdit(error, QCoreApplication::translate("StructureEdit", "not a structure"));
    if (field < 0 || std::size_t(field) >= s.fields.size()) return refuseEdit(error, QCoreApplication::translate("StructureEdit", "no field %1").arg(field));
    if (isUnionValue(s)) return setUnionChoice(s, present ? field : -1, types, error);
    DynamicField& f = s.fields[std::size_t(field)];
    if (!f.optional) return refuseEdit(error, QCoreApplication::translate("StructureEdit", "%1 is not optional").arg(f.name));
    if (f.present == present) return true;
    if (present) {
        std::optional<DynamicValue> v = presentValueOf(f.value, types, error);
        if (!v) return false;
        f.value = std::move(*v);
    } else {
        f.value = absentValue(f.value);
    }
    f.present = present;
    return true;
}

bool setUnionChoice(DynamicValue& u, int field, const DataTypeResolver& types, QString* error) {
    if (!isUnionValue(u)) return refuseEdit(error, QCoreApplication::translate("StructureEdit", "not a union"));
    if (field < -1 || field >= int(u.fields.size())) return refuseEdit(error, QCoreApplication::translate("StructureEdit", "no field %1").arg(field));
    if (unionChoice(u) == field) return true;
    std::optional<DynamicValue> chosen;
    if (field >= 0) {
        chosen = presentValueOf(u.fields[std::size_t(field)].value, types, error);
        if (!chosen) return false;
    }
    for (std::size_t i = 0; i < u.fields.size(); ++i) {
        DynamicField& f = u.fields[i];
        if (int(i) == field) {
            f.value = std::move(*chosen);
            f.present = true;
        } else if (f.present) {
            f.value = absentValue(f.value);
            f.present = false;
        }
    }
    return true;
}

bool insertElement(DynamicValue& array, std::size_t at, const DataTypeResolver& types, QString* error) {
    if (array.kind != DynamicValue::Kind::Array) return refuseEdit(error, QCoreApplication::translate("StructureEdit", "not an array"));
    if (at > array.elements.size()) return refuseEdit(error, QCoreApplication::translate("StructureEdit", "no element %1").arg(at));
    std::optional<DynamicValue> element = defaultValueOf(array.dataType, types, error);
    if (!element) return false;
    array.elements.insert(array.elements.begin() + std::ptrdiff_t(at), std::move(*element));
    array.arrayIsNull = false;
    return true;
}

bool removeElement(DynamicValue& array, std::size_t at, QString* error) {
    if (array.kind != DynamicValue::Kind::Array) return refuseEdit(error, QCoreApplication::translate("StructureEdit", "not an array"));
    if (at >= array.elements.size()) return refuseEdit(error, QCoreApplication::translate("StructureEdit", "no element %1").arg(at));
    array.elements.erase(array.elements.begin() + std::ptrdiff_t(at));
    return true;
}

} // namespace ua::clientapp
