# Sanitizer builds (issue 10 item 2): -DUA_SANITIZE=address|thread, clang only, in a build dir of
# their own (./test.sh --asan: build-asan, ./test.sh --tsan: build-tsan; docs/Reliability.md
# "Sanitizers").
#   address  AddressSanitizer + UndefinedBehaviorSanitizer (LeakSanitizer included), every finding
#            fatal (-fno-sanitize-recover=all); the whole suite runs (ctest -LE no_sanitizer).
#   thread   ThreadSanitizer; only the target tsan_tests (the multi-threaded transport, server and
#            client tests, ctest -L tsan). Qt is not instrumented: libua/ua/sanitize/TsanQtHandoff.cpp
#            tells TSan about Qt's cross-thread hand-offs, tests/tsan.supp names Qt's internals.
# CI has 2 cores, no ccache and 90 minutes for everything, so these builds are made cheap: -O1,
# line tables only for the stack traces, and cmake/FastBuild.cmake (unity build, precompiled headers).
set(UA_SANITIZE "" CACHE STRING "Sanitizer build: address (ASan+UBSan) or thread (TSan); empty: none")
set_property(CACHE UA_SANITIZE PROPERTY STRINGS "" address thread)

if(UA_SANITIZE)
  if(NOT CMAKE_CXX_COMPILER_ID MATCHES "Clang")
    message(FATAL_ERROR "UA_SANITIZE needs clang (Debian: clang, libclang-rt-14-dev); ${CMAKE_CXX_COMPILER_ID} "
                        "found. Configure a separate build dir with CC=clang CXX=clang++.")
  endif()
  if(UA_SANITIZE STREQUAL "address")
    set(UA_SANITIZE_FLAGS -fsanitize=address,undefined -fno-sanitize-recover=all)
  elseif(UA_SANITIZE STREQUAL "thread")
    set(UA_SANITIZE_FLAGS -fsanitize=thread)
    # Our calls of QMetaObject::invokeMethodImpl go through libua/ua/sanitize/TsanQtHandoff.cpp,
    # which tells TSan about the hand-off to the other thread (Qt itself is not instrumented).
    # The same for the signals our code emits (moc's code calls QMetaObject::activate).
    add_link_options(-Wl,--wrap=_ZN11QMetaObject16invokeMethodImplEP7QObjectPN9QtPrivate15QSlotObjectBaseEN2Qt14ConnectionTypeEPv
                     -Wl,--wrap=_ZN11QMetaObject8activateEP7QObjectPKS_iPPv
                     # QThread::start(Priority) and QThread::wait(QDeadlineTimer): a thread's end.
                     -Wl,--wrap=_ZN7QThread5startENS_8PriorityE -Wl,--wrap=_ZN7QThread4waitE14QDeadlineTimer
                     # QThreadPool::start(std::function<void()>, int): a job to a pool thread.
                     -Wl,--wrap=_ZN11QThreadPool5startESt8functionIFvvEEi)
  else()
    message(FATAL_ERROR "UA_SANITIZE=${UA_SANITIZE}: expected address or thread")
  endif()
  add_compile_options(${UA_SANITIZE_FLAGS} -fno-omit-frame-pointer)
  add_link_options(${UA_SANITIZE_FLAGS})
  # -O1 and line tables: a third of the compile time of -O2 -g, stack traces still name file:line.
  foreach(_config RELWITHDEBINFO RELEASE DEBUG MINSIZEREL)
    set(CMAKE_CXX_FLAGS_${_config} "-O1 -gline-tables-only -DNDEBUG")
  endforeach()
  # The unity build of the libraries and the tests' precompiled headers: cmake/FastBuild.cmake.
  message(STATUS "UA_SANITIZE=${UA_SANITIZE}: ${UA_SANITIZE_FLAGS}")
endif()
