// A move-only callable whose target is stored inside the object (N bytes) when it fits and moves
// without throwing, and on the heap only otherwise. PendingCalls keeps one per pending request: the
// completion of a call holds the caller's ServiceCallback (a std::function, 32 bytes), which
// std::function itself would allocate for (libstdc++ stores 16 bytes in place), one allocation per
// request that the server's request path does not have (issue 9 target 10).
#pragma once

#include <cstddef>
#include <new>
#include <type_traits>
#include <utility>

namespace ua {

template <class Signature, std::size_t N>
class InplaceFunction;

template <class R, class... Args, std::size_t N>
class InplaceFunction<R(Args...), N> {
public:
    // True when a target of type F is kept inside the object (no allocation).
    template <class F>
    static constexpr bool storedInPlace() {
        return sizeof(F) <= N && alignof(F) <= alignof(std::max_align_t) && std::is_nothrow_move_constructible_v<F>;
    }

    InplaceFunction() = default;
    InplaceFunction(std::nullptr_t) {}
    template <class F, class D = std::decay_t<F>,
              class = std::enable_if_t<!std::is_same_v<D, InplaceFunction> && std::is_invocable_r_v<R, D&, Args...>>>
    InplaceFunction(F&& f) { construct(std::forward<F>(f)); }
    // Replaces the target with f, constructed in place (no InplaceFunction moved in).
    template <class F, class D = std::decay_t<F>,
              class = std::enable_if_t<!std::is_same_v<D, InplaceFunction> && std::is_invocable_r_v<R, D&, Args...>>>
    void emplace(F&& f) {
        reset();
        construct(std::forward<F>(f));
    }
    InplaceFunction(InplaceFunction&& o) noexcept { take(o); }
    InplaceFunction& operator=(InplaceFunction&& o) noexcept {
        if (this != &o) {
            reset();
            take(o);
        }
        return *this;
    }
    InplaceFunction(const InplaceFunction&) = delete;
    InplaceFunction& operator=(const InplaceFunction&) = delete;
    ~InplaceFunction() { reset(); }

    void reset() {
        if (m_ops) std::exchange(m_ops, nullptr)->destroy(m_storage);
    }
    explicit operator bool() const { return m_ops != nullptr; }
    // Must not be empty.
    R operator()(Args... args) { return m_ops->invoke(m_storage, std::forward<Args>(args)...); }

private:
    struct Ops {
        R (*invoke)(void* storage, Args&&... args);
        void (*move)(void* from, void* to) noexcept;  // leaves `from` destroyed
        void (*destroy)(void* storage) noexcept;
    };
    template <class D>
    static constexpr Ops kInPlace{
        [](void* s, Args&&... a) -> R { return (*static_cast<D*>(s))(std::forward<Args>(a)...); },
        [](void* from, void* to) noexcept {
            ::new (to) D(std::move(*static_cast<D*>(from)));
            static_cast<D*>(from)->~D();
        },
        [](void* s) noexcept { static_cast<D*>(s)->~D(); }};
    template <class D>
    static constexpr Ops kOnHeap{
        [](void* s, Args&&... a) -> R { return (**static_cast<D**>(s))(std::forward<Args>(a)...); },
        [](void* from, void* to) noexcept { ::new (to) D*(*static_cast<D**>(from)); },
        [](void* s) noexcept { delete *static_cast<D**>(s); }};

    template <class F, class D = std::decay_t<F>>
    void construct(F&& f) {
        if constexpr (storedInPlace<D>()) {
            ::new (static_cast<void*>(m_storage)) D(std::forward<F>(f));
            m_ops = &kInPlace<D>;
        } else {
            D* heap = new D(std::forward<F>(f));
            ::new (static_cast<void*>(m_storage)) D*(heap);
            m_ops = &kOnHeap<D>;
        }
    }
    void take(InplaceFunction& o) noexcept {
        if (!o.m_ops) return;
        o.m_ops->move(o.m_storage, m_storage);
        m_ops = std::exchange(o.m_ops, nullptr);
    }

    alignas(std::max_align_t) unsigned char m_storage[N < sizeof(void*) ? sizeof(void*) : N];
    const Ops* m_ops = nullptr;
};

} // namespace ua
