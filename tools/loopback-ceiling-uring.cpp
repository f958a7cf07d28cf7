// The loopback ceiling (loopback-ceiling.cpp) with io_uring on either side, to see what batching
// system calls across connections buys on this machine (issue 25's stretch). A server thread and a
// client loop in one process, `conns` connections, one request in flight on each: the server answers
// each REQ-byte request with a RESP-byte response. Each side waits either with epoll_wait() and
// makes one recv() and one send() per ready connection, or with io_uring: a RECV posted on every
// connection, and per wake-up one io_uring_submit_and_wait() that submits every SEND and re-posted
// RECV of the batch. Prints requests/s and each side's CPU per request (getrusage of its thread).
// Build (liburing-dev, not part of the product's set-up):
//   g++ -O2 -std=c++20 tools/loopback-ceiling-uring.cpp -o loopback-ceiling-uring -luring -pthread
// Run:   loopback-ceiling-uring CONNS SECS SERVER_URING CLIENT_URING   (0 epoll, 1 io_uring)
#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <sys/resource.h>
#include <unistd.h>
#include <liburing.h>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <thread>
#include <vector>
using Clock = std::chrono::steady_clock;
static int REQ = 110, RESP = 85;
static std::atomic<bool> stop{false};
static void nodelay(int fd) { int one = 1; setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one); }
static double threadCpu() { rusage u; getrusage(RUSAGE_THREAD, &u); return u.ru_utime.tv_sec + u.ru_stime.tv_sec + (u.ru_utime.tv_usec + u.ru_stime.tv_usec) * 1e-6; }
static std::atomic<long> served{0}; static double serverCpu = 0;
struct Peer { int fd; char in[65536]; size_t have = 0; };
// Echo-like loop: on `in` bytes, each complete unit of `unit` bytes -> reply of `reply` bytes.
// epoll variant
static long loopEpoll(std::vector<Peer>& ps, int unit, int reply, bool isClient, Clock::time_point tend) {
  int ep = epoll_create1(0);
  for (size_t i = 0; i < ps.size(); i++) { epoll_event e{}; e.events = EPOLLIN; e.data.u64 = i; epoll_ctl(ep, EPOLL_CTL_ADD, ps[i].fd, &e); }
  std::vector<char> out(1 << 16); long done = 0; epoll_event evs[256];
  while (!stop && (!isClient || Clock::now() < tend)) {
    int n = epoll_wait(ep, evs, 256, 100);
    for (int i = 0; i < n; i++) { Peer& p = ps[evs[i].data.u64]; ssize_t r = recv(p.fd, p.in, sizeof p.in, 0); if (r <= 0) continue;
      p.have += r; size_t k = p.have / unit; p.have %= unit; done += k; if (k) send(p.fd, out.data(), k * reply, MSG_NOSIGNAL); }
  }
  close(ep); return done;
}
static long loopUring(std::vector<Peer>& ps, int unit, int reply, bool isClient, Clock::time_point tend) {
  io_uring ring; io_uring_params prm{}; prm.flags = IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_DEFER_TASKRUN;
  if (int e = io_uring_queue_init_params(1024, &ring, &prm); e < 0) { printf("init %d\n", e); exit(1); }
  std::vector<char> out(1 << 16); long done = 0;
  auto postRecv = [&](size_t i) { io_uring_sqe* s = io_uring_get_sqe(&ring); io_uring_prep_recv(s, ps[i].fd, ps[i].in, sizeof ps[i].in, 0); io_uring_sqe_set_data64(s, i); };
  for (size_t i = 0; i < ps.size(); i++) postRecv(i);
  __kernel_timespec ts{0, 100000000};
  while (!stop && (!isClient || Clock::now() < tend)) {
    io_uring_cqe* cqe;
    io_uring_submit_and_wait_timeout(&ring, &cqe, 1, &ts, nullptr);
    unsigned head, seen = 0;
    io_uring_for_each_cqe(&ring, head, cqe) {
      ++seen; uint64_t d = cqe->user_data; int r = cqe->res;
      if (d & (1ull << 63)) continue;  // send completion
      if (r <= 0) continue;
      Peer& p = ps[d]; p.have += r; size_t k = p.have / unit; p.have %= unit; done += k;
      if (k) { io_uring_sqe* s = io_uring_get_sqe(&ring); io_uring_prep_send(s, p.fd, out.data(), k * reply, MSG_NOSIGNAL); io_uring_sqe_set_data64(s, d | (1ull << 63)); }
      postRecv(d);
    }
    io_uring_cq_advance(&ring, seen);
  }
  io_uring_queue_exit(&ring); return done;
}
int main(int argc, char** argv) {
  if (argc < 5) { fprintf(stderr, "usage: %s CONNS SECS SERVER_URING CLIENT_URING\n", argv[0]); return 2; }
  int conns = atoi(argv[1]); double secs = atof(argv[2]); bool su = atoi(argv[3]), cu = atoi(argv[4]);
  int lfd = socket(AF_INET, SOCK_STREAM, 0); int one = 1; setsockopt(lfd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
  sockaddr_in a{}; a.sin_family = AF_INET; a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  bind(lfd, (sockaddr*)&a, sizeof a); listen(lfd, 1024); socklen_t al = sizeof a; getsockname(lfd, (sockaddr*)&a, &al);
  std::vector<Peer> cs(conns), ss(conns);
  for (int i = 0; i < conns; i++) { cs[i].fd = socket(AF_INET, SOCK_STREAM, 0); connect(cs[i].fd, (sockaddr*)&a, sizeof a); nodelay(cs[i].fd); ss[i].fd = accept(lfd, nullptr, nullptr); nodelay(ss[i].fd); }
  Clock::time_point tend = Clock::now() + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(secs));
  std::thread st([&] { double c0 = threadCpu(); served = su ? loopUring(ss, REQ, RESP, false, tend) : loopEpoll(ss, REQ, RESP, false, tend); serverCpu = threadCpu() - c0; });
  std::vector<char> req(REQ); for (auto& c : cs) send(c.fd, req.data(), REQ, 0);
  double c0 = threadCpu(); auto t0 = Clock::now();
  long done = cu ? loopUring(cs, RESP, REQ, true, tend) : loopEpoll(cs, RESP, REQ, true, tend);
  double el = std::chrono::duration<double>(Clock::now() - t0).count(); double ccpu = threadCpu() - c0;
  stop = true; st.join();
  printf("server=%s client=%s req/s=%.0f server us/req=%.2f client us/req=%.2f\n", su ? "uring" : "epoll", cu ? "uring" : "epoll", done / el, serverCpu / served * 1e6, ccpu / done * 1e6);
}
