// Force-included (-include) into the fuzz build when it uses libc++ (see CMakeLists.txt, which
// explains why the fuzz build needs libc++ at all). libc++ 14 lacks operator<=> for std::array
// (added in libc++ 15), which ua::Guid's defaulted operator<=> needs. Only for the fuzz build:
// nothing here is part of libua.
#pragma once

#include <version>

#if defined(_LIBCPP_VERSION) && _LIBCPP_VERSION < 15000
#include <array>
#include <compare>
#include <cstddef>
#include <utility>

namespace std {
template <class T, size_t N>
constexpr auto operator<=>(const array<T, N>& a, const array<T, N>& b) {
    using R = decltype(std::declval<const T&>() <=> std::declval<const T&>());
    for (size_t i = 0; i < N; ++i)
        if (const R c = a[i] <=> b[i]; c != 0) return c;
    return R(strong_ordering::equal);
}
} // namespace std
#endif
